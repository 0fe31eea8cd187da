"""Discord's ids as the core's keys: a server's chat key, a user's reference."""

from __future__ import annotations

import discord

from core.domain.names import shown_name
from core.domain.records import UserRef

PLATFORM = "discord"


def chat_key(guild_id: int) -> str:
    """The chat key of a Discord server."""
    return f"{PLATFORM}:{guild_id}"


def user_ref(user: discord.abc.User) -> UserRef:
    """A Discord user, named as the server shows them."""
    return UserRef(f"{PLATFORM}:{user.id}", shown_name(user.display_name))
