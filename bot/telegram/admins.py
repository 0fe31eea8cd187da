"""Who administers a Telegram group: its administrator list, asked of the Bot API and
trusted for ADMIN_TTL seconds (a command's moderator check, a button's, the dashboard's)."""

from __future__ import annotations

from collections.abc import Callable

from telegram import Bot
from telegram.constants import ChatType

from bot.telegram.keys import PLATFORM

ADMIN_TTL = 300.0  # seconds a group's administrator list is trusted


class Admins:
    """Groups' administrators, by group, as last read."""

    def __init__(self, bot: Bot, clock: Callable[[], float]) -> None:
        self.bot, self.clock = bot, clock
        self._lists: dict[int, tuple[float, set[int]]] = {}

    async def has(self, chat_id: int, user_id: int, chat_type: str) -> bool:
        """Whether the user administers the chat (never in a private chat)."""
        if chat_type not in (ChatType.GROUP, ChatType.SUPERGROUP):
            return False
        cached = self._lists.get(chat_id)
        if cached is None or cached[0] < self.clock():
            members = await self.bot.get_chat_administrators(chat_id)
            cached = (self.clock() + ADMIN_TTL, {m.user.id for m in members})
            self._lists[chat_id] = cached
        return user_id in cached[1]

    async def of_keys(self, chat: str, user: str) -> tuple[bool, frozenset[str]] | None:
        """Whether a user (key) administers a group (key), and no roles: the dashboard's
        question (None: not a Telegram user of a Telegram group)."""
        prefix = f"{PLATFORM}:"
        if not chat.startswith(prefix) or not user.startswith(prefix):
            return None
        admin = await self.has(int(chat.removeprefix(prefix)), int(user.removeprefix(prefix)),
                               ChatType.SUPERGROUP)
        return admin, frozenset()
