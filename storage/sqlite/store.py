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
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any, Self, TextIO, TypeVar

import aiosqlite

from storage.sql import tuning
from storage.sql.dialect import SQLITE
from storage.sql.repo import SqlRepo
from storage.sql.units import SqlStore
from storage.sql.versions import migrations
from storage.sqlite import dbthread, files
from storage.sqlite.schema import prepare

T = TypeVar("T")

log = logging.getLogger(__name__)


class SqliteStore(SqlStore):
    """The database: one aiosqlite connection; each unit of work is atomic, in one
    transaction (shared with the units that queued up beside it).

    Several processes may share the file: SQLite serializes their transactions
    (BEGIN IMMEDIATE), a ladder's cached standings are checked against the log's length
    before use, and one process at a time runs the scheduled jobs (`leads_jobs`).
    """

    def __init__(self, path: str | Path, *, snapshot_every: int = tuning.SNAPSHOT_EVERY,
                 snapshot_per_player: int = tuning.SNAPSHOT_PER_PLAYER, existing: bool = False,
                 readonly: bool = False, cache_mb: float = tuning.CACHE_MB) -> None:
        self.path = str(path)
        # `existing`: the file must be a Ladderbot database already: it is never created
        # (an older one is upgraded; what a unit of work writes, it may roll back).
        # `readonly`: that, and nothing is ever written (SQLite opens it read-only).
        super().__init__(SQLITE, snapshot_every=snapshot_every,
                         snapshot_per_player=snapshot_per_player, cache_mb=cache_mb)
        self.existing = existing or readonly
        self.readonly = readonly
        self._db: aiosqlite.Connection | None = None
        self._drainer: asyncio.Task[None] | None = None
        self._jobs_lock: TextIO | None = None
        self._writes = False  # (a store that only reads keeps no heads: storage/sql/heads.py)

    @property
    def is_open(self) -> bool:
        return self._db is not None

    @property
    def home(self) -> Path:
        """The folder for files that belong with the database (the console's charts)."""
        return Path(self.path).parent

    # ---- what other processes on the same database need
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

    async def open(self) -> Self:
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
            self._writes = self.cache.keeps = not self.existing
        except sqlite3.DatabaseError as error:
            await self.close()
            raise files.UnusableDatabase(f"{self.path}: {error}") from None
        except BaseException:
            await self.close()
            raise
        return self

    async def _open_readonly(self) -> Self:
        self._writes = self.cache.keeps = False
        latest = migrations()[-1][0]
        self._db = await files.connect_readonly(
            self.path, lambda conn: files.require_current(conn, self.path, latest))
        return self

    async def close(self) -> None:
        """Keep the heads of the standings held, and close the connection (the WAL is
        checkpointed by SQLite)."""
        if self._db is not None and self._writes:
            await self._keep_heads(self.cache.dropped(everything=True), self._call)
        if self._jobs_lock is not None:
            self._jobs_lock.close()
            self._jobs_lock = None
        if self._db is not None:
            db, self._db = self._db, None
            await db.close()

    async def run(self, work: Callable[[SqlRepo], T], *, commit: bool = True,
                  key: str | None = None) -> T:
        """Run `work` in one transaction, in one call on the database thread.

        Units of work that arrive while the database thread is busy wait in a queue and
        then run together, as one group commit (see `_group`).
        """
        if not self.is_open:
            raise RuntimeError("the store is not open")
        if not commit:
            return await self._call(lambda conn: self._unit(conn, work, False))
        return await self._queued(work)

    def _wake(self) -> None:
        if self._drainer is None or self._drainer.done():
            self._drainer = asyncio.get_running_loop().create_task(self._drain())

    async def _drain(self) -> None:
        """Run waiting units of work, as many per transaction as have queued up."""
        while self._waiting:
            batch = self._waiting[:tuning.GROUP_LIMIT]
            del self._waiting[:tuning.GROUP_LIMIT]
            await self._settle(batch, self._call)

    async def _call(self, fn: Callable[[Any], T]) -> T:
        """Run `fn(connection)` on the database thread."""
        if self._db is None:
            raise RuntimeError("the store is not open")
        return await dbthread.call(self._db, fn)

    async def backup(self, target: str | Path) -> None:
        """A consistent online copy of the database (SQLite's backup API), taken on the
        database thread between units of work."""
        await self._call(lambda conn: files.copy_database(conn, Path(target)))
