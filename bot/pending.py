"""The files of chat imports' dry runs (`/ladder import`), kept in this process until the
moderator who sent one presses Confirm import, or they lapse. Their press spends the file
whatever the answer (anyone else's is refused, spending nothing: a button in a group is
everyone's to press); the import runs every check again (core.service.chat_import).

Kept here, not in the database: a dry run's file is a few minutes' business of the
process that showed it (a Discord server's presses come to its shard, a Telegram bot's
updates to its one process). After a restart the button says to send the file again.
"""

from __future__ import annotations

import itertools
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from core.commands.ladders import ImportFile

KEEP_MINUTES = 15  # how long a dry run's file waits for its Confirm import
MOST_KEPT = 8  # files kept at most (each up to core.service.chat_import.CHAT_FILE)


@dataclass(frozen=True, slots=True)
class Kept:
    """A dry run's file, where it was shown, and the import a confirmation runs."""

    chat: str
    user: str  # who sent it: the one whose press confirms it
    command: ImportFile
    data: bytes
    until: float


class PendingFiles:
    """Dry runs' files by number, the oldest let go first."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self.clock = clock
        self._kept: OrderedDict[int, Kept] = OrderedDict()
        self._numbers = itertools.count(1)

    def keep(self, chat: str, user: str, ladder: str, preset: str | None, data: bytes) -> int:
        """Keep a dry run's file; its number, for the button."""
        now = self.clock()
        for number in [n for n, k in self._kept.items() if k.until <= now]:
            del self._kept[number]
        while len(self._kept) >= MOST_KEPT:
            self._kept.popitem(last=False)
        number = next(self._numbers)
        self._kept[number] = Kept(chat, user, ImportFile(ladder, preset, confirmed=True),
                                  data, now + KEEP_MINUTES * 60)
        return number

    def sender(self, chat: str, number: int) -> str | None:
        """Who sent the file kept under `number` for this chat (None: none is)."""
        kept = self._kept.get(number)
        return kept.user if kept is not None and kept.chat == chat else None

    def take(self, chat: str, number: int) -> Kept | None:
        """The file kept under `number` for this chat, spent (None: no longer kept)."""
        kept = self._kept.get(number)
        if kept is None or kept.chat != chat:  # (another chat's: not this press's to spend)
            return None
        del self._kept[number]
        return kept if kept.until > self.clock() else None
