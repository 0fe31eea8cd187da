"""The live standings message on Telegram (bot.following.Board): a plain-text message
in the group, edited in place."""

from __future__ import annotations

from telegram import Bot
from telegram.error import BadRequest, Forbidden

from bot.following import Gone
from bot.telegram_render import MAX_MESSAGE, shown
from bot.text import fitted

# The Bot API's descriptions of an edit that cannot be made (the message was deleted,
# or is too old to edit): nothing will make it work again.
_GONE = ("message to edit not found", "message can't be edited")


class TelegramBoard:
    """Posts and edits live standings messages through python-telegram-bot."""

    def __init__(self, bot: Bot, own: str | None) -> None:
        self.bot, self.own = bot, own

    def owns(self, chat: str) -> bool:
        """Telegram chat keys."""
        return chat.startswith("telegram:")

    def fit(self, text: str) -> str:
        """The standings as one message: the top rows that fit."""
        return fitted(shown(text, self.own), MAX_MESSAGE)

    async def post_board(self, chat: str, channel: str | None, text: str) -> str:
        """Post the message in the group."""
        try:
            sent = await self.bot.send_message(chat_id=int(chat.split(":", 1)[1]), text=text)
        except Forbidden as error:  # the bot was removed from the group
            raise Gone(str(error)) from error
        return str(sent.message_id)

    async def edit_board(self, chat: str, channel: str | None, message: str,
                         text: str) -> None:
        """Edit the message (Gone: it was deleted)."""
        try:
            await self.bot.edit_message_text(text, chat_id=int(chat.split(":", 1)[1]),
                                             message_id=int(message))
        except Forbidden as error:
            raise Gone(str(error)) from error
        except BadRequest as error:
            if any(words in error.message.lower() for words in _GONE):
                raise Gone(error.message) from error
            raise
