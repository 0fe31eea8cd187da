"""The running bot's clock: APScheduler wakes the catch-up, the catch-up does the work.

APScheduler's daily triggers skip or double days around daylight-saving changes, and a
run missed during a restart is dropped (PITFALLS.md). So the scheduler never carries
meaning itself: every tick asks the database which ladders have a job due (their
`next_due`) and runs `core.jobs.catch_up`, which applies each job once, at the instant
it was due, in the same transaction that moves the ladder's clock.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable
from datetime import UTC

from apscheduler.schedulers.asyncio import AsyncIOScheduler
from apscheduler.triggers.interval import IntervalTrigger

from core.jobs import catch_up_due, schedule
from core.ports import Repo
from core.records import Announcement
from storage.sqlite import SqliteStore

log = logging.getLogger(__name__)

Deliver = Callable[[list[Announcement]], Awaitable[None]]
TICK_SECONDS = 30.0


def start_up(repo: Repo, now: int) -> list[Announcement]:
    """Re-plan every ladder, then apply everything that fell due while the bot was down."""
    for ladder in repo.every_ladder():
        schedule(repo, ladder.chat, ladder.name)
    return catch_up_due(repo, now)


class Scheduler:
    """Ticks on the real (or an injected) clock and delivers what the jobs announce."""

    def __init__(self, store: SqliteStore, deliver: Deliver,
                 clock: Callable[[], float] = time.time, every: float = TICK_SECONDS) -> None:
        self.store = store
        self.deliver = deliver
        self.clock = clock
        self.trigger = IntervalTrigger(seconds=every, timezone=UTC)
        self.apscheduler = AsyncIOScheduler(
            timezone=UTC,
            job_defaults={"coalesce": True, "misfire_grace_time": None, "max_instances": 1},
        )
        self.extra: list[tuple[str, Callable[[], Awaitable[None]], IntervalTrigger]] = []

    async def start(self) -> list[Announcement]:
        """Catch up on downtime (before any command is handled), then start ticking."""
        now = int(self.clock())
        found = await self.store.run(lambda repo: start_up(repo, now))
        if found:
            await self.deliver(found)
        self.apscheduler.add_job(self.tick, self.trigger, id="catch-up", replace_existing=True)
        for job_id, func, trigger in self.extra:
            self.apscheduler.add_job(func, trigger, id=job_id, replace_existing=True)
        self.apscheduler.start()
        return found

    def add(self, job_id: str, func: Callable[[], Awaitable[None]],
            trigger: IntervalTrigger) -> None:
        """Another periodic job (daily backups), started with the scheduler."""
        self.extra.append((job_id, func, trigger))

    async def tick(self) -> list[Announcement]:
        """Run every job due by now and deliver its announcements."""
        now = int(self.clock())
        try:
            found = await self.store.run(lambda repo: catch_up_due(repo, now))
        except Exception:
            log.exception("scheduled jobs failed; they stay due and run at the next tick")
            return []
        if found:
            await self.deliver(found)
        return found

    def stop(self) -> None:
        """Stop ticking (jobs in flight finish; nothing is lost: due work stays due)."""
        if self.apscheduler.running:
            self.apscheduler.shutdown(wait=False)
