"""The live standings message on Discord (bot.following.Board): a plain message in the
ladder's channel, edited in place."""

from __future__ import annotations

import discord

from bot.discord_render import MAX_CONTENT, shown
from bot.following import Gone
from bot.text import fitted


class DiscordBoard:
    """Posts and edits live standings messages through discord.py."""

    def __init__(self, client: discord.Client, own: str | None) -> None:
        self.client, self.own = client, own

    def owns(self, chat: str) -> bool:
        """Discord chat keys."""
        return chat.startswith("discord:")

    def fit(self, text: str) -> str:
        """The standings as one message: escaped, the top rows that fit."""
        return fitted(shown(text, self.own), MAX_CONTENT)

    async def post_board(self, chat: str, channel: str | None, text: str) -> str:
        """Post the message in its channel (pinging nobody: the client allows none)."""
        if channel is None:
            raise Gone("no channel")
        try:
            sent = await self.client.get_partial_messageable(int(channel)).send(text)
        except (discord.Forbidden, discord.NotFound) as error:
            raise Gone(str(error)) from error
        return str(sent.id)

    async def edit_board(self, chat: str, channel: str | None, message: str,
                         text: str) -> None:
        """Edit the message (Gone: it was deleted, or its channel is out of reach)."""
        if channel is None:
            raise Gone("no channel")
        partial = self.client.get_partial_messageable(int(channel)).get_partial_message(
            int(message))
        try:
            await partial.edit(content=text)
        except (discord.Forbidden, discord.NotFound) as error:
            raise Gone(str(error)) from error
