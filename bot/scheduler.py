"""The running bot's clock: APScheduler wakes the catch-up, the catch-up does the work.

APScheduler's daily triggers skip or double days around daylight-saving changes, and a
run missed during a restart is dropped (PITFALLS.md). So the scheduler never carries
meaning itself: every tick asks the database which ladders have a job due (their
`next_due`) and runs `core.service.jobs.catch_up`, which applies each job once, at the instant
it was due, in the same transaction that moves the ladder's clock and puts its
announcements in the outbox. Posting from the outbox is retried until it succeeds.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from functools import partial

from apscheduler.schedulers.asyncio import AsyncIOScheduler
from apscheduler.triggers.interval import IntervalTrigger

from core.domain.records import Announcement
from core.ports.repository import PlatformRepo, PlatformStore
from core.service.handlers.sharing import with_shares
from core.service.jobs import catch_up_due
from core.service.planning import schedule

log = logging.getLogger(__name__)

Post = Callable[[Announcement], Awaitable[None]]
TICK_SECONDS = 30.0
MAX_BACKOFF = 3600


class Undeliverable(Exception):
    """Posting can never succeed (the bot left the chat): drop the announcement."""


def start_up(repo: PlatformRepo, now: int) -> int:
    """Re-plan every ladder, then apply what fell due while the bot was down."""
    for ladder in repo.every_ladder():
        schedule(repo, ladder.chat, ladder.name)
    found = with_shares(repo, catch_up_due(repo, now))
    repo.enqueue(found, now)
    return len(found)


def due_now(repo: PlatformRepo, now: int) -> int:
    """Apply what is due and keep its announcements for posting (to every chat that
    plays the ladder), in one transaction."""
    found = with_shares(repo, catch_up_due(repo, now))
    repo.enqueue(found, now)
    return len(found)


class Scheduler:
    """Ticks on the real (or an injected) clock; posts announcements through `post`."""

    def __init__(self, store: PlatformStore, post: Post,
                 clock: Callable[[], float] = time.time, every: float = TICK_SECONDS) -> None:
        self.store = store
        self.post = post
        self.clock = clock
        self.trigger = IntervalTrigger(seconds=every, timezone=UTC)
        self.apscheduler = AsyncIOScheduler(
            timezone=UTC,
            job_defaults={"coalesce": True, "misfire_grace_time": None, "max_instances": 1},
        )
        self.extra: list[tuple[str, Callable[[], Awaitable[None]], IntervalTrigger]] = []
        self.leading = False
        self._flushing = asyncio.Lock()

    async def start(self) -> list[Announcement]:
        """Catch up on downtime (before any command is handled), then start ticking."""
        self.leading = await self.store.leads_jobs()
        if not self.leading:
            log.info("another process runs the scheduled jobs; this one takes over if it stops")
        posted = await self._catch_up() if self.leading else []
        self.apscheduler.add_job(self.tick, self.trigger, id="catch-up", replace_existing=True)
        for job_id, func, trigger in self.extra:  # first run at once, then on the trigger
            self.apscheduler.add_job(func, trigger, id=job_id, replace_existing=True,
                                     next_run_time=datetime.now(UTC))
        self.apscheduler.start()
        return posted

    def add(self, job_id: str, func: Callable[[], Awaitable[None]],
            trigger: IntervalTrigger) -> None:
        """Another periodic job (the backup check), run at start and then on `trigger`."""
        self.extra.append((job_id, func, trigger))

    async def _catch_up(self) -> list[Announcement]:
        now = int(self.clock())
        applied = await self.store.run(lambda repo: start_up(repo, now))
        if applied:
            log.info("applied the jobs that fell due while stopped: %d announcements",
                     applied)
        await self.store.restate_pending()  # history a correction left for later
        return await self.flush()

    async def tick(self) -> list[Announcement]:
        """Run every job due by now, then post what waits in the outbox. With several
        processes on one database, only the one that leads the jobs does; another takes
        over within a tick if it stops. (Commands still catch up their own ladder.)"""
        if not await self.store.leads_jobs():  # cheap while held; lost with a connection
            self.leading = False
            return []
        if not self.leading:
            self.leading = True
            log.info("this process now runs the scheduled jobs")
            return await self._catch_up()
        now = int(self.clock())
        try:
            await self.store.run(lambda repo: due_now(repo, now))
            await self.store.restate_pending()
        except Exception:
            log.exception("scheduled jobs failed; they stay due and run at the next tick")
        return await self.flush()

    async def flush(self) -> list[Announcement]:
        """Post every due announcement; a failure is logged and retried with backoff.
        One flush at a time: two at once would read, and post, the same announcements."""
        async with self._flushing:
            return await self._flush()

    async def _flush(self) -> list[Announcement]:
        now = int(self.clock())
        due = await self.store.run(lambda repo: repo.outbox_due(now))
        posted = []
        for item, attempts, announcement in due:
            try:
                await self.post(announcement)
            except Undeliverable as error:
                log.error("dropping an announcement to %s: %s", announcement.chat, error)
                await self.store.run(partial(_done, item=item))
                continue
            except Exception as error:
                wait = min(MAX_BACKOFF, 30 * 2 ** attempts)
                log.warning("posting to %s failed (attempt %d, next in %ds): %s",
                            announcement.chat, attempts + 1, wait, error)
                await self.store.run(partial(_retry, item=item, at=now + wait, why=repr(error)))
                continue
            await self.store.run(partial(_done, item=item))
            posted.append(announcement)
        return posted

    def stop(self) -> None:
        """Stop ticking (jobs in flight finish; nothing is lost: due work stays due)."""
        if self.apscheduler.running:
            self.apscheduler.shutdown(wait=False)


def _done(repo: PlatformRepo, item: int) -> None:
    """An announcement of the outbox posted, or given up."""
    repo.outbox_done(item)


def _retry(repo: PlatformRepo, item: int, at: int, why: str) -> None:
    """An announcement of the outbox tried again at `at`."""
    repo.outbox_retry(item, at, why)
