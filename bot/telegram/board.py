"""The live standings message on Telegram (bot.following.Board): a plain-text message
in the group, edited in place, within the group's budget.

Telegram lets a bot send about 20 messages a minute to a group, edits counted; a reply
every 3 seconds uses it all. So the message is edited at most once a minute, only while
the group has budget to spare beside the replies, and never retried by the rate limiter
(a 429 there would pause every request of the bot): a failed edit waits for the next.
"""

from __future__ import annotations

from typing import Any

from telegram.error import BadRequest, Forbidden
from telegram.ext import ExtBot

from bot.following import Gone, Unreachable
from bot.telegram.outgoing import ONCE, spare
from bot.telegram.render import MAX_MESSAGE, shown
from bot.text import fitted
from core.i18n import N_

EVERY = 60.0  # seconds between two edits in a group
SPARE = 5  # messages of a group's budget left for replies before an edit is made
# The Bot API's descriptions of an edit that cannot be made (the message was deleted,
# or is too old to edit): nothing will make it work again.
_GONE = ("message to edit not found", "message can't be edited")
_SAME = "message is not modified"  # (an earlier edit's answer was lost: it was made)
FORBIDDEN = N_("pin.problem.forbidden")


class TelegramBoard:
    """Posts and edits live standings messages through python-telegram-bot."""

    every = EVERY

    def __init__(self, bot: ExtBot[Any], own: str | None) -> None:
        self.bot, self.own = bot, own

    def owns(self, chat: str) -> bool:
        """Telegram chat keys."""
        return chat.startswith("telegram:")

    def fit(self, text: str) -> str:
        """The standings as one message: the top rows that fit."""
        return fitted(shown(text, self.own), MAX_MESSAGE)

    def place(self, chat: str, channel: str | None) -> str:
        """A group: Telegram's budget is per group."""
        return chat

    def spare(self, chat: str) -> bool:
        """Whether the group's budget holds SPARE messages beside this edit."""
        return spare(self.bot, int(chat.split(":", 1)[1]), SPARE + 1)

    async def post_board(self, chat: str, channel: str | None, text: str) -> str:
        """Post the message in the group."""
        try:
            sent = await self.bot.send_message(chat_id=int(chat.split(":", 1)[1]), text=text,
                                               rate_limit_args=ONCE)
        except Forbidden as error:  # (removed from the group, or may not write there)
            raise Unreachable(FORBIDDEN) from error
        return str(sent.message_id)

    async def edit_board(self, chat: str, channel: str | None, message: str,
                         text: str) -> None:
        """Edit the message (Gone: it was deleted; Unreachable: the bot may not)."""
        try:
            await self.bot.edit_message_text(text, chat_id=int(chat.split(":", 1)[1]),
                                             message_id=int(message), rate_limit_args=ONCE)
        except Forbidden as error:
            raise Unreachable(FORBIDDEN) from error
        except BadRequest as error:
            said = error.message.lower()
            if _SAME in said:
                return
            if any(words in said for words in _GONE):
                raise Gone(error.message) from error
            raise
