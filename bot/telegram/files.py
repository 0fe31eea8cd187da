"""A file sent with a command on Telegram: a document whose caption is the command
(`/ladder import NAME`), read for the core. A document too large for a chat import
(core.service.chat_import.CHAT_FILE) is refused by the size Telegram gives, unread."""

from __future__ import annotations

import dataclasses

from telegram import Message
from telegram.error import TelegramError

from bot.gateway import Asker, own_words
from core.domain.records import Reply
from core.domain.settings import Policy
from core.i18n import Number, Text, t
from core.service.chat_import import CHAT_FILE

FILE_WORDS = ("ladder",)  # the commands a file goes with (/ladder import)


def caption_of(message: Message) -> str:
    """The command a document was sent with (its caption), or ""."""
    return (message.caption or "") if message.document is not None else ""


async def read_document(message: Message) -> bytes | Text:
    """The bytes of the message's document, or why they cannot be had."""
    document = message.document
    assert document is not None
    if document.file_size is not None and document.file_size > CHAT_FILE:
        return t("chat_import.too_large", most=Number(CHAT_FILE // 1024))
    try:
        file = await document.get_file()
        return bytes(await file.download_as_bytearray())
    except TelegramError:
        return t("chat_import.fetch_failed")


async def attached(message: Message, asker: Asker, word: str, policy: Policy) -> Asker | Reply:
    """The asker with the file their message sent, for a command that takes one (else
    the asker as is: a private chat takes none), or the refusal to answer with."""
    if message.document is None or word not in FILE_WORDS or asker.alone:
        return asker
    data = await read_document(message)
    if not isinstance(data, bytes):
        return own_words(data, asker.locale, policy)
    return dataclasses.replace(asker, attachment=data)
