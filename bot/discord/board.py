"""The live standings message on Discord (bot.following.Board): a plain message in the
ladder's channel, edited in place."""

from __future__ import annotations

import discord

from bot.discord.render import MAX_CONTENT, shown
from bot.following import Gone, Unreachable
from bot.text import fitted
from core.i18n import N_

# At most one edit in a channel in this time, whichever ladders' messages it holds
# (six pinned ladders made six edits in 5 s): well within Discord's per-channel limit
# (discord.py also waits out the rate-limit headers and 429s it is given).
EVERY = 5.0
FORBIDDEN = N_("pin.problem.forbidden")


class DiscordBoard:
    """Posts and edits live standings messages through discord.py."""

    every = EVERY

    def __init__(self, client: discord.Client, own: str | None) -> None:
        self.client, self.own = client, own

    def owns(self, chat: str) -> bool:
        """Discord chat keys."""
        return chat.startswith("discord:")

    def fit(self, text: str) -> str:
        """The standings as one message: escaped, the top rows that fit."""
        return fitted(shown(text, self.own), MAX_CONTENT)

    def place(self, chat: str, channel: str | None) -> str:
        """A channel: Discord's budget for messages is per channel."""
        return f"{chat}/{channel}"

    def spare(self, chat: str) -> bool:
        """A channel's edits are spaced (`EVERY`); replies to interactions have a budget
        of their own."""
        return True

    async def post_board(self, chat: str, channel: str | None, text: str) -> str:
        """Post the message in its channel (pinging nobody: the client allows none)."""
        if channel is None:
            raise Gone("no channel")
        try:
            sent = await self.client.get_partial_messageable(int(channel)).send(text)
        except discord.Forbidden as error:
            raise Unreachable(FORBIDDEN) from error
        except discord.NotFound as error:  # the channel was deleted
            raise Gone(str(error)) from error
        return str(sent.id)

    async def edit_board(self, chat: str, channel: str | None, message: str,
                         text: str) -> None:
        """Edit the message (Gone: it or its channel was deleted; Unreachable: the bot
        may not, now)."""
        if channel is None:
            raise Gone("no channel")
        partial = self.client.get_partial_messageable(int(channel)).get_partial_message(
            int(message))
        try:
            await partial.edit(content=text)
        except discord.Forbidden as error:  # (Missing Access or Permissions: may return)
            raise Unreachable(FORBIDDEN) from error
        except discord.NotFound as error:
            raise Gone(str(error)) from error
