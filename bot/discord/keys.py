"""Discord's ids as the core's keys: a server's chat key, a user's reference, a member's
roles, and the mentions a typed line holds."""

from __future__ import annotations

import re

import discord

from bot.discord.render import MENTION
from core.domain.names import shown_name
from core.domain.records import UserRef

PLATFORM = "discord"


def chat_key(guild_id: int) -> str:
    """The chat key of a Discord server."""
    return f"{PLATFORM}:{guild_id}"


def user_ref(user: discord.abc.User) -> UserRef:
    """A Discord user, named as the server shows them."""
    return UserRef(f"{PLATFORM}:{user.id}", shown_name(user.display_name))


def role_ids(member: discord.Member) -> set[int]:
    """The member's role ids as the interaction carried them.

    `Member.roles` resolves ids through the guild's role cache, which a bot without the
    guilds intent does not keep; the ids themselves are in the payload. This is the one
    private discord.py name the bot reads.
    """
    return set(member._roles)


def mentions_as_tokens(text: str, names: dict[int, str]) -> tuple[str, dict[str, UserRef]]:
    """`<@123>` mentions written as `@d123` tokens the core parser resolves."""
    known: dict[str, UserRef] = {}

    def swap(found: re.Match[str]) -> str:
        uid = int(found.group(1))
        known[f"d{uid}"] = UserRef(f"{PLATFORM}:{uid}", names.get(uid, f"<@{uid}>"))
        return f"@d{uid}"

    return MENTION.sub(swap, text), known
