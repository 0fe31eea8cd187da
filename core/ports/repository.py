"""The repository the service works through, inside one transaction.

Storage implements it twice: SQLite (the real one) and an in-memory twin for tests;
both pass the same contract tests. Every call is synchronous: the whole command runs
as one unit of work on the database's thread, committed or rolled back as one.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from contextlib import AbstractContextManager
from typing import Protocol, TypeVar

from core.domain.model import Timestamp
from core.domain.records import (
    Announcement,
    LadderInfo,
    UserRef,
)
from core.ports.audit import AuditRepo
from core.ports.challenges import ChallengeRepo
from core.ports.delivery import DeliveryRepo
from core.ports.following import FollowingRepo
from core.ports.hints import ReadHints
from core.ports.imports import ImportRepo
from core.ports.ladders import LadderRepo
from core.ports.log import LogRepo
from core.ports.matches import MatchRepo
from core.ports.players import PlayerRepo
from core.ports.projections import ProjectionRepo
from core.ports.queue import QueueRepo
from core.ports.sharing import SharingRepo
from core.ports.tournaments import TournamentRepo
from core.ports.web_sessions import WebSessionRepo

# Tables `standings` can read: a ladder's ranking by rating or rung, and the three
# tables of RULES.md section 3.
RANKINGS = ("rating", "rung", "season", "week", "ladder")
DAY_RANKS = 1000  # how much of a table's top keeps its start-of-day positions


class Repo(ReadHints,
           LadderRepo,
           PlayerRepo,
           LogRepo,
           MatchRepo,
           ChallengeRepo,
           FollowingRepo,
           QueueRepo,
           TournamentRepo,
           ImportRepo,
           AuditRepo,
           ProjectionRepo,
           SharingRepo,
           DeliveryRepo,
           Protocol):
    """Everything the service reads and writes, for one chat-agnostic transaction."""

    def savepoint(self) -> AbstractContextManager[None]:
        """A nested transaction: an exception inside rolls back to where it began."""
        ...


T = TypeVar("T")


class Store(Protocol):
    """A database: runs units of work, each one transaction."""

    def run(self, work: Callable[[Repo], T], *, commit: bool = True,
            key: str | None = None) -> Awaitable[T]:
        """Run `work` in one transaction; roll back if it raises or `commit` is False.
        Units of one `key` (a chat) may be run one at a time (PostgreSQL's store)."""
        ...


class PlatformRepo(Repo, WebSessionRepo, Protocol):
    """The repository as the chat adapters and the scheduler use it: the core's, and the
    platforms' own data (the handles they teach, the outbox)."""

    def learn_handle(self, platform: str, handle: str, user: UserRef, at: Timestamp) -> None:
        """Remember which user a @handle names on a platform."""
        ...

    def find_handle(self, platform: str, handle: str) -> UserRef | None:
        """The user a @handle names, if the bot has seen it."""
        ...

    def user_ladders(self, user: str) -> list[LadderInfo]:
        """Ladders of every chat the user is a member of."""
        ...

    def enqueue(self, announcements: Sequence[Announcement], at: Timestamp) -> None:
        """Keep announcements until a platform has posted them."""
        ...

    def outbox_due(self, now: Timestamp, limit: int = 50) -> list[tuple[int, int, Announcement]]:
        """(id, attempts, announcement) waiting to be posted, oldest first."""
        ...

    def outbox_done(self, item: int) -> None:
        """An announcement was posted."""
        ...

    def outbox_retry(self, item: int, next_at: Timestamp, error: str) -> None:
        """Posting failed: try again later."""
        ...


class PlatformStore(Protocol):
    """The database as the chat adapters and the scheduler use it (SQLite, PostgreSQL
    and the in-memory twin alike)."""

    def run(self, work: Callable[[PlatformRepo], T], *, commit: bool = True,
            key: str | None = None) -> Awaitable[T]:
        """Run `work` in one transaction; roll back if it raises or `commit` is False.
        Units of one `key` (a chat) may be run one at a time (PostgreSQL's store)."""
        ...

    async def leads_jobs(self) -> bool:
        """Whether this process runs the scheduled jobs (one at a time on one database)."""
        ...

    async def restate_pending(self) -> int:
        """Write the history a correction left for later; how many ladders had some."""
        ...
