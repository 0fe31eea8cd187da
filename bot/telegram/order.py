"""Telegram's updates one chat at a time, in the order they came; chats side by side."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import Any

from telegram import (
    Update,
)
from telegram.ext import (
    BaseUpdateProcessor,
)

# Updates handled at once. One chat's wait for each other (ChatOrder), and those waiting
# hold a place, so there are enough places for many chats.
CONCURRENT_UPDATES = 64


class ChatOrder(BaseUpdateProcessor):
    """Updates of one chat one after another, in the order Telegram sent them; different
    chats' at once. (With plain concurrent updates a backlog of one group's messages, the
    bot back from downtime, was applied out of order: /join before /ladder create.)"""

    def __init__(self, most: int) -> None:
        super().__init__(most)
        self._chats: dict[int, tuple[asyncio.Lock, int]] = {}  # chat -> lock, users

    async def do_process_update(self, update: object, coroutine: Awaitable[Any]) -> None:
        chat = update.effective_chat if isinstance(update, Update) else None
        if chat is None:
            await coroutine
            return
        lock, users = self._chats.get(chat.id, (asyncio.Lock(), 0))
        self._chats[chat.id] = (lock, users + 1)
        try:
            async with lock:  # FIFO: the waiters queue in the order the updates came
                await coroutine
        finally:
            lock, users = self._chats[chat.id]
            if users == 1:
                del self._chats[chat.id]
            else:
                self._chats[chat.id] = (lock, users - 1)

    async def initialize(self) -> None:
        """Nothing to set up."""

    async def shutdown(self) -> None:
        """Nothing to take down."""
