"""Flood control: token buckets per user and per chat, on an injectable clock.

A user who floods is slowed (one polite reply, then silence until they may speak
again), without slowing anyone else; a chat as a whole has a larger budget, so one busy
group cannot starve the bot either. The console runs without limits (scripts send
hundreds of lines at one simulated instant).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from core.i18n import Text, t


@dataclass
class Bucket:
    """`capacity` commands at once, refilled at `rate` per second."""

    capacity: float
    rate: float
    tokens: float = -1.0
    stamp: float = 0.0
    warned: bool = False

    def take(self, now: float) -> float:
        """Take a token; 0 if allowed, else the seconds until one is there."""
        if self.tokens < 0:
            self.tokens, self.stamp = self.capacity, now
        self.tokens = min(self.capacity, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            self.warned = False
            return 0.0
        return (1 - self.tokens) / self.rate


@dataclass
class Limiter:
    """Per-user and per-chat budgets. `check` says whether a command may run."""

    user_burst: float = 8
    user_rate: float = 0.5  # a command every 2 seconds, sustained
    chat_burst: float = 40
    chat_rate: float = 4.0
    clock: Callable[[], float] = time.monotonic
    enabled: bool = True
    users: dict[tuple[str, str], Bucket] = field(default_factory=dict)
    chats: dict[str, Bucket] = field(default_factory=dict)

    def check(self, chat: str, user: str) -> tuple[bool, Text | None]:
        """(allowed, polite reply to send if any). Refused commands are not handled."""
        if not self.enabled:
            return True, None
        now = self.clock()
        mine = self.users.setdefault((chat, user), Bucket(self.user_burst, self.user_rate))
        wait = mine.take(now)
        if wait:
            return False, self._warn(mine, t("limit.user", seconds=math.ceil(wait)))
        room = self.chats.setdefault(chat, Bucket(self.chat_burst, self.chat_rate))
        wait = room.take(now)
        if wait:
            mine.tokens += 1  # not this user's fault: give their token back
            return False, self._warn(room, t("limit.chat", seconds=math.ceil(wait)))
        if len(self.users) > 100_000:  # forget idle users now and then
            self.users = {k: b for k, b in self.users.items() if now - b.stamp < 600}
        return True, None

    @staticmethod
    def _warn(bucket: Bucket, text: Text) -> Text | None:
        """The polite reply, once per throttled stretch."""
        if bucket.warned:
            return None
        bucket.warned = True
        return text
