"""The SQLite store: event log, projections and operational state, through aiosqlite.

A unit of work is one transaction (BEGIN IMMEDIATE ... COMMIT) run as a single call on
the database thread. The standings of recently used ladders stay in memory between
commands; each transaction checks the stored log length first, so another process
writing the same database is noticed, and a rolled-back transaction drops what it
touched from memory.
"""

from __future__ import annotations

import asyncio
import fcntl
import logging
import os
import random
import sqlite3
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO, TypeVar

import aiosqlite

from storage import dbthread, files, tuning
from storage.history import (
    Cached,
)
from storage.repo import SettingsCache, SqliteRepo
from storage.schema import (
    migrations,
    prepare,
)

T = TypeVar("T")

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class _Failed:
    """A unit of work that raised: its exception, to re-raise in its caller."""

    error: Exception


class SqliteStore:
    """The database: one aiosqlite connection; each unit of work is atomic, in one
    transaction (shared with the units that queued up beside it).

    Several processes may share the file: SQLite serializes their transactions
    (BEGIN IMMEDIATE), a ladder's cached standings are checked against the log's length
    before use, and one process at a time runs the scheduled jobs (`leads_jobs`).
    """

    # What PostgreSQL does differently (storage/postgres.py) is in these few names.
    DIALECT = "sqlite"
    BEGIN = "BEGIN IMMEDIATE"
    # A unit of work that only reads takes no write lock: in WAL mode it reads beside a
    # writer, even one in another process.
    READ_BEGIN = "BEGIN DEFERRED"
    # A decay day for every member, the formula of core.elo.decay_amount (CAST truncates).
    DECAY = ("UPDATE players SET rating = rating - min(rating - ?, max(?, CAST(rating * rating "
             "/ ? AS INTEGER))) WHERE ladder=? AND member=1 AND rating > ?")
    BULK_DECAY: int | None = tuning.BULK_DECAY  # see _decay_players
    group_limit = tuning.GROUP_LIMIT

    def __init__(self, path: str | Path, *, snapshot_every: int = tuning.SNAPSHOT_EVERY,
                 snapshot_per_player: int = tuning.SNAPSHOT_PER_PLAYER, existing: bool = False,
                 readonly: bool = False) -> None:
        self.path = str(path)
        # `existing`: the file must be a Ladderbot database already: it is never created
        # (an older one is upgraded; what a unit of work writes, it may roll back).
        # `readonly`: that, and nothing is ever written (SQLite opens it read-only).
        self.existing = existing or readonly
        self.readonly = readonly
        self.snapshot_every = snapshot_every
        self.snapshot_per_player = snapshot_per_player
        self.settings = SettingsCache()
        self._cache: OrderedDict[int, Cached] = OrderedDict()
        self._db: aiosqlite.Connection | None = None
        self._waiting: list[tuple[Callable[[SqliteRepo], Any], asyncio.Future[Any]]] = []
        self._drainer: asyncio.Task[None] | None = None
        self._jobs_lock: TextIO | None = None

    @property
    def is_open(self) -> bool:
        return self._db is not None

    @property
    def home(self) -> Path:
        """The folder for files that belong with the database (the console's charts)."""
        return Path(self.path).parent

    # ---- what other processes on the same database need
    def lock_ladder(self, repo: SqliteRepo, ladder: int) -> bool:
        """Serialize the ladder's units of work across processes; True if the lock was
        just taken (rows read before it may be stale). SQLite's write lock already does."""
        return False

    def lock_message(self, repo: SqliteRepo, chat: str, message: str) -> None:
        """Serialize the handling of one chat message across processes (no-op here)."""

    def transient(self, error: BaseException) -> bool:
        """Whether a failed transaction should simply be tried again."""
        return False

    def recover(self, conn: Any) -> None:
        """After a failed transaction, make the connection usable again (a server's
        connection may have been lost); on the database thread."""

    def stream(self, conn: Any, sql: str, args: Sequence[Any]) -> Iterator[Any]:
        """The rows of a long read, as the caller consumes them."""
        return iter(conn.execute(sql, args))

    async def leads_jobs(self) -> bool:
        """Whether this process runs the scheduled jobs: one process per database at a
        time, held until it exits (a lock file beside the database)."""
        if self.path == ":memory:" or self._jobs_lock is not None:
            return True

        def take() -> TextIO | None:
            lock = open(f"{self.path}.jobs", "a")  # noqa: SIM115 (held while we run)
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                lock.close()
                return None
            return lock

        self._jobs_lock = await asyncio.to_thread(take)
        return self._jobs_lock is not None

    async def open(self) -> SqliteStore:
        """Connect, configure and migrate; read-only, check what the file is instead.
        A file SQLite cannot read raises UnusableDatabase saying so."""
        if self.existing and not await asyncio.to_thread(os.path.isfile, self.path):
            raise files.UnusableDatabase(f"there is no database at {self.path}")
        read_only = self.path != ":memory:" and await asyncio.to_thread(files.on_read_only,
                                                                         self.path)
        if self.readonly or (self.existing and read_only):
            return await self._open_readonly()
        if read_only:
            raise files.UnusableDatabase(
                f"{self.path} is on a read-only file system, and this command writes to its "
                "database (ladderbot web and export read one there)")
        self._db = await aiosqlite.connect(self.path, isolation_level=None)
        try:
            await dbthread.call(self._db, lambda conn: prepare(conn, self.path, self.existing))
        except sqlite3.DatabaseError as error:
            await self.close()
            raise files.UnusableDatabase(f"{self.path}: {error}") from None
        except BaseException:
            await self.close()
            raise
        return self

    async def _open_readonly(self) -> SqliteStore:
        latest = migrations()[-1][0]
        self._db = await files.connect_readonly(
            self.path, lambda conn: files.require_current(conn, self.path, latest))
        return self

    async def close(self) -> None:
        """Close the connection (the WAL is checkpointed by SQLite)."""
        if self._jobs_lock is not None:
            self._jobs_lock.close()
            self._jobs_lock = None
        if self._db is not None:
            db, self._db = self._db, None
            await db.close()

    async def __aenter__(self) -> SqliteStore:
        return await self.open()

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    def snapshot_interval(self, players: int) -> int:
        """Events between stored snapshots of a ladder of this many players."""
        return max(self.snapshot_every, self.snapshot_per_player * players)

    async def restate_pending(self) -> int:
        """Bring stale per-match history up to date, a chunk per transaction."""
        done = 0
        for ladder in await self.run(lambda repo: repo.stale_ladders()):
            while await self.run(lambda repo, lad=ladder: repo.restate(lad)):
                done += 1
            done += 1
        return done

    # ---- the standings cache
    def cache_get(self, ladder: int) -> Cached | None:
        cached = self._cache.get(ladder)
        if cached is not None:
            self._cache.move_to_end(ladder)
        return cached

    def cache_put(self, ladder: int, cached: Cached) -> None:
        self._cache[ladder] = cached
        self._cache.move_to_end(ladder)
        while len(self._cache) > tuning.CACHED_LADDERS:
            self._cache.popitem(last=False)

    def forget(self, ladders: set[int]) -> None:
        """Drop standings a rolled-back transaction had changed."""
        for ladder in ladders:
            self._cache.pop(ladder, None)

    # ---- units of work
    def _unit(self, conn: Any, work: Callable[[SqliteRepo], T], commit: bool) -> T:
        """One unit of work alone in its own transaction."""
        outcome = self._attempts(conn, [work], commit)[0]
        if isinstance(outcome, _Failed):
            raise outcome.error
        return outcome  # type: ignore[no-any-return]

    def _attempts(self, conn: Any, works: Sequence[Callable[[SqliteRepo], Any]],
                  commit: bool = True) -> list[Any]:
        """`_group`, tried again after a transient failure (PostgreSQL: a deadlock between
        processes, a lost race for a new row): the transaction was rolled back whole."""
        for attempt in range(tuning.TRIES):
            try:
                return self._group(conn, works, commit)
            except Exception as error:
                self.recover(conn)
                if not self.transient(error) or attempt == tuning.TRIES - 1:
                    raise
                log.info("transaction tried again after: %s", error)
                time.sleep(random.uniform(0, 0.005 * 2 ** attempt))  # on the database thread
        raise AssertionError("unreachable")

    def _group(self, conn: Any, works: Sequence[Callable[[SqliteRepo], Any]],
               commit: bool = True) -> list[Any]:
        """Units of work in one transaction, each in its own savepoint.

        A unit that raises is rolled back to its savepoint alone; the others commit
        together. Nothing is acknowledged before COMMIT, so a crash at any point leaves
        the database as before every unit of the group.
        """
        conn.execute(self.BEGIN if commit else self.READ_BEGIN)
        outcomes: list[Any] = []
        touched: set[int] = set()
        try:
            for work in works:
                repo = SqliteRepo(conn, self)
                conn.execute("SAVEPOINT unit")
                try:
                    outcomes.append(work(repo))
                except Exception as error:
                    conn.execute("ROLLBACK TO unit")
                    self.forget(repo.touched)
                    if self.transient(error):  # the whole transaction is tried again
                        raise
                    outcomes.append(_Failed(error))
                else:
                    touched |= repo.touched
                conn.execute("RELEASE unit")
            conn.execute("COMMIT" if commit else "ROLLBACK")
            if not commit:
                self.forget(touched)
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            self.forget(touched)
            raise
        return outcomes

    async def run(self, work: Callable[[SqliteRepo], T], *, commit: bool = True) -> T:
        """Run `work` in one transaction, in one call on the database thread.

        Units of work that arrive while the database thread is busy wait in a queue and
        then run together, as one group commit (see `_group`).
        """
        if not self.is_open:
            raise RuntimeError("the store is not open")
        if not commit:
            return await self._call(lambda conn: self._unit(conn, work, False))
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._waiting.append((work, future))
        if self._drainer is None or self._drainer.done():
            self._drainer = asyncio.get_running_loop().create_task(self._drain())
        outcome = await future
        if isinstance(outcome, _Failed):
            raise outcome.error
        return outcome  # type: ignore[no-any-return]

    async def _drain(self) -> None:
        """Run waiting units of work, as many per transaction as have queued up."""
        while self._waiting:
            batch = self._waiting[:self.group_limit]
            del self._waiting[:self.group_limit]
            works = [work for work, _ in batch]
            try:
                outcomes = await self._call(lambda conn, w=works: self._attempts(conn, w))
            except BaseException as error:  # the transaction itself failed: all of them did
                outcomes = [_Failed(error if isinstance(error, Exception)
                                    else RuntimeError(repr(error)))] * len(batch)
            for (_, future), outcome in zip(batch, outcomes, strict=True):
                if not future.done():
                    future.set_result(outcome)

    async def _call(self, fn: Callable[[Any], T]) -> T:
        """Run `fn(connection)` on the database thread."""
        if self._db is None:
            raise RuntimeError("the store is not open")
        return await dbthread.call(self._db, fn)

    async def backup(self, target: str | Path) -> None:
        """A consistent online copy of the database (SQLite's backup API), taken on the
        database thread between units of work."""
        await self._call(lambda conn: files.copy_database(conn, Path(target)))
