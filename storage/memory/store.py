"""The in-memory twin's units of work: each runs on the data, and a failed or uncommitted
one leaves it as it was."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

from core.domain.budget import within
from storage.memory.repo import MemoryData, MemoryRepo, copied

T = TypeVar("T")


class MemoryStore:
    """Units of work over a `MemoryRepo`, rolled back by copying on failure."""

    def __init__(self, snapshot_every: int = 50) -> None:
        self._data = MemoryData()
        self._snapshot_every = snapshot_every

    async def run(self, work: Callable[[MemoryRepo], T], *, commit: bool = True,
                  key: str | None = None) -> T:
        saved = copied(self._data)
        repo = MemoryRepo(self._data, self._snapshot_every)
        try:
            with within(time.monotonic):
                result = work(repo)
        except BaseException:
            self._data = saved
            raise
        if not commit:
            self._data = saved
        return result

    async def close(self) -> None:
        """Nothing to close."""

    async def leads_jobs(self) -> bool:
        """One process, always: it runs the scheduled jobs."""
        return True

    async def restate_pending(self) -> int:
        """Nothing is ever left to restate: the twin re-derives at once."""
        return 0
