"""Telegram's ids as the core's keys (a chat's, a user's), and the users a message
names: its mentions, and who wrote what it answers."""

from __future__ import annotations

from telegram import (
    Message,
    MessageEntity,
    User,
)

from core.domain.names import shown_name
from core.domain.records import UserRef

PLATFORM = "telegram"


def chat_key(chat_id: int) -> str:
    """The chat key of a Telegram chat."""
    return f"{PLATFORM}:{chat_id}"


def user_ref(user: User) -> UserRef:
    """A Telegram user: named by @username when there is one (letters, digits and _:
    nothing to shield), else by their full name as typed (core.domain.names)."""
    return UserRef(f"{PLATFORM}:{user.id}", user.username or shown_name(user.full_name))


def with_mentions(message: Message) -> tuple[str, dict[str, UserRef]]:
    """The message text with every `text_mention` written as a `@tgID` token.

    A user without a username is mentioned by a text_mention entity that carries the
    user but reads like plain text ("Bob Smith"); the token lets the parser see it.
    """
    text = message.text or ""
    known: dict[str, UserRef] = {}
    entities = [e for e in message.entities or () if e.type == MessageEntity.TEXT_MENTION
                and e.user is not None]
    if not entities:
        return text, known
    # Entity offsets count UTF-16 code units.
    encoded = text.encode("utf-16-le")
    for entity in sorted(entities, key=lambda e: e.offset, reverse=True):
        assert entity.user is not None
        token = f"tg{entity.user.id}"
        known[token] = user_ref(entity.user)
        start, end = entity.offset * 2, (entity.offset + entity.length) * 2
        encoded = encoded[:start] + f"@{token}".encode("utf-16-le") + encoded[end:]
    return encoded.decode("utf-16-le"), known


def seen_users(message: Message) -> list[User]:
    """Everyone a message shows with a username: sender, replied-to author, mentions."""
    users = [message.from_user] if message.from_user else []
    if message.reply_to_message is not None and message.reply_to_message.from_user:
        users.append(message.reply_to_message.from_user)
    users += [e.user for e in message.entities or () if e.user is not None]
    users += list(message.new_chat_members or ())
    return [u for u in users if u.username and not u.is_bot]


def addressed(text: str, bot: str | None) -> bool:
    """Whether a command is for this bot (`bot`, its username): False for
    `/cmd@OtherBot`."""
    first = text.split(maxsplit=1)[0] if text.strip() else ""
    if "@" not in first:
        return True
    return first.split("@", 1)[1].lower() == (bot or "").lower()
