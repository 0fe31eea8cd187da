"""PostgreSQL, for several bot processes on one database (with asyncpg).

The repository is the one of storage/sqlite.py: its SQL is written so both databases
read it, and what differs is a handful of names on the store (`BEGIN`, `DECAY`, ...).
This module gives it a connection with the sqlite3 methods it uses (`execute`,
`executemany`, `fetchone`, `fetchall`) over one asyncpg connection that lives on a
thread of its own with its own event loop: a unit of work runs there from start to
commit as plain calls, as it does on SQLite's thread, and the bot's event loop only
awaits the whole unit.

What several processes need, PostgreSQL provides: a transaction-scoped advisory lock
per ladder (taken when a unit of work first reads the ladder, so its commands are
serialized by the database, never by process memory), one per chat message (a message
redelivered to another worker waits for the first answer), and a session lock that
makes one process at a time run the scheduled jobs. A deadlock or a lost race for a
new row rolls the transaction back, and it is tried again.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import functools
import itertools
import re
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, TypeVar

import asyncpg

from storage.repo import SqliteRepo
from storage.schema import migrations, refuse_newer
from storage.sqlite import SqliteStore

T = TypeVar("T")

# Advisory lock keys: (namespace, key) pairs of 32-bit integers.
LADDERS, MESSAGES, PROCESSES = 1, 2, 3
JOBS, MIGRATIONS = 0, 1  # keys in PROCESSES
STREAM_CHUNK = 5000  # rows fetched at a time when a replay streams a long log

_PLACEHOLDER = re.compile(r"\?")
_INDEXED_BY = re.compile(r"\s+INDEXED BY \w+")  # SQLite's index hints


def is_url(target: str) -> bool:
    """Whether a database target names a PostgreSQL server rather than a SQLite file."""
    return target.startswith(("postgresql://", "postgres://"))


@functools.lru_cache(maxsize=4096)
def translate(sql: str) -> str:
    """SQLite's statement for PostgreSQL: `$1` placeholders, no index hints. (Our SQL
    has no `?` inside string literals.)"""
    numbers = itertools.count(1)
    return _PLACEHOLDER.sub(lambda _: f"${next(numbers)}", _INDEXED_BY.sub("", sql))


def _values(args: Sequence[Any]) -> tuple[Any, ...]:
    # SQLite stores a bool as 0 or 1; PostgreSQL's BIGINT wants the integer.
    return tuple(int(a) if a.__class__ is bool else a for a in args)


class Rows:
    """The result of a statement, as sqlite3's cursor offers it."""

    def __init__(self, rows: list[tuple[Any, ...]]) -> None:
        self.rows = rows

    def fetchone(self) -> tuple[Any, ...] | None:
        return self.rows[0] if self.rows else None

    def fetchall(self) -> list[tuple[Any, ...]]:
        return self.rows

    def __iter__(self) -> Iterator[tuple[Any, ...]]:
        return iter(self.rows)


class Connection:
    """sqlite3.Connection's methods, over asyncpg, on the database thread."""

    def __init__(self, loop: asyncio.AbstractEventLoop, raw: asyncpg.Connection) -> None:
        self.loop = loop
        self.raw = raw

    def _wait(self, coroutine: Any) -> Any:
        return self.loop.run_until_complete(coroutine)

    def execute(self, sql: str, args: Sequence[Any] = ()) -> Rows:
        if not args and not sql.lstrip().upper().startswith("SELECT"):
            self._wait(self.raw.execute(sql))  # BEGIN, SAVEPOINT, scripts: simple protocol
            return Rows([])
        records = self._wait(self.raw.fetch(translate(sql), *_values(args)))
        return Rows([tuple(r) for r in records])

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        if rows:
            self._wait(self.raw.executemany(translate(sql), [_values(r) for r in rows]))

    def iterate(self, sql: str, args: Sequence[Any]) -> Iterator[tuple[Any, ...]]:
        """Rows a few thousand at a time (a replay may read millions); inside the
        transaction, so other statements may run between the chunks."""
        cursor = self._wait(self.raw.cursor(translate(sql), *_values(args)))
        while True:
            records = self._wait(cursor.fetch(STREAM_CHUNK))
            yield from (tuple(r) for r in records)
            if len(records) < STREAM_CHUNK:
                return

    @property
    def in_transaction(self) -> bool:
        return bool(self.raw.is_in_transaction())


class _Thread:
    """One thread with its own event loop and asyncpg connection."""

    def __init__(self) -> None:
        self.executor = concurrent.futures.ThreadPoolExecutor(1, "ladderbot-postgres")
        self.conn: Connection | None = None

    def _connect(self, url: str) -> None:
        loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)
        try:
            raw = loop.run_until_complete(asyncpg.connect(url, statement_cache_size=1024))
        except BaseException:
            loop.close()
            raise
        self.conn = Connection(loop, raw)

    def _close(self) -> None:
        if self.conn is not None:
            conn, self.conn = self.conn, None
            try:
                conn.loop.run_until_complete(conn.raw.close())
            finally:
                conn.loop.close()

    async def start(self, url: str) -> None:
        await asyncio.wrap_future(self.executor.submit(self._connect, url))

    async def call(self, fn: Callable[[Connection], T]) -> T:
        def run() -> T:
            if self.conn is None:
                raise RuntimeError("the store is not open")
            return fn(self.conn)

        return await asyncio.wrap_future(self.executor.submit(run))

    async def stop(self) -> None:
        try:
            await asyncio.wrap_future(self.executor.submit(self._close))
        finally:
            self.executor.shutdown(wait=False)


def prepare(conn: Connection) -> int:
    """Refuse a database from a newer version untouched; else migrate it, one migration
    per transaction, one process at a time."""
    conn.execute("SELECT pg_advisory_lock(?, ?)", (PROCESSES, MIGRATIONS))
    try:
        found = conn.execute("SELECT to_regclass('ladderbot_schema') IS NOT NULL").fetchone()
        version = 0
        if found is not None and found[0]:
            row = conn.execute("SELECT version FROM ladderbot_schema").fetchone()
            version = int(row[0]) if row is not None else 0
        # storage/postgres/NNNN_*.sql: the SQLite migrations, numbered alike.
        known = migrations("postgres")
        latest = known[-1][0]
        refuse_newer(version, latest)
        for number, sql in known:
            if number <= version:
                continue
            conn.execute("BEGIN")
            try:
                conn.execute(sql)
                conn.execute("CREATE TABLE IF NOT EXISTS ladderbot_schema (version BIGINT)")
                conn.execute("DELETE FROM ladderbot_schema")
                conn.execute(f"INSERT INTO ladderbot_schema VALUES ({number})")
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise
        return latest
    finally:
        conn.execute("SELECT pg_advisory_unlock(?, ?)", (PROCESSES, MIGRATIONS))


class PgStore(SqliteStore):
    """The store on a PostgreSQL server: `PgStore("postgresql://user@host/db")`."""

    DIALECT = "postgresql"
    BEGIN = "BEGIN"
    READ_BEGIN = "BEGIN"  # PostgreSQL's readers never wait for writers
    DECAY = ("UPDATE players SET rating = rating - LEAST(rating - ?, GREATEST(?, trunc(rating "
             "* rating / ?))) WHERE ladder=? AND member=1 AND rating > ?")
    BULK_DECAY = None  # the index-rebuilding decay is SQLite's; PostgreSQL updates in place
    group_limit = 1  # one unit per transaction: a deadlock retries only its own unit

    def __init__(self, url: str, **options: Any) -> None:
        super().__init__(url, **options)
        self.url = url
        self._pg: _Thread | None = None
        self._leader = False

    @property
    def is_open(self) -> bool:
        return self._pg is not None

    @property
    def home(self) -> Path:
        return Path.cwd()

    async def open(self) -> PgStore:
        """Connect and migrate."""
        self._pg = _Thread()
        try:
            await self._pg.start(self.url)
            await self._pg.call(prepare)
        except BaseException:
            await self.close()
            raise
        return self

    async def close(self) -> None:
        """Disconnect (a job lead this process held passes to another)."""
        if self._pg is not None:
            pg, self._pg = self._pg, None
            await pg.stop()
            self._leader = False

    async def _call(self, fn: Callable[[Any], T]) -> T:
        if self._pg is None:
            raise RuntimeError("the store is not open")
        return await self._pg.call(fn)

    def stream(self, conn: Any, sql: str, args: Sequence[Any]) -> Any:
        return conn.iterate(sql, args)

    def lock_ladder(self, repo: SqliteRepo, ladder: int) -> bool:
        if ladder in repo.locked:
            return False
        repo.conn.execute("SELECT pg_advisory_xact_lock(?, CAST(? AS INTEGER))",
                          (LADDERS, ladder))
        repo.locked.add(ladder)
        return True

    def lock_message(self, repo: SqliteRepo, chat: str, message: str) -> None:
        repo.conn.execute("SELECT pg_advisory_xact_lock(?, hashtext(?))",
                          (MESSAGES, f"{chat}\n{message}"))

    def recover(self, conn: Any) -> None:
        # The server closed the connection (a restart, a failover): connect again. The
        # unit of work that saw it fails rather than being tried again, since its
        # COMMIT may have reached the server; the session's job lead is gone with it.
        if conn.raw.is_closed():
            self._leader = False
            conn.raw = conn.loop.run_until_complete(
                asyncpg.connect(self.url, statement_cache_size=1024))

    def transient(self, error: BaseException) -> bool:
        return isinstance(error, (asyncpg.DeadlockDetectedError, asyncpg.SerializationError,
                                  asyncpg.UniqueViolationError))

    async def leads_jobs(self) -> bool:
        if not self._leader:
            row = await self._call(lambda conn: conn.execute(
                "SELECT pg_try_advisory_lock(?, ?)", (PROCESSES, JOBS)).fetchone())
            self._leader = bool(row and row[0])
        return self._leader

    async def backup(self, target: str | Path) -> None:
        raise NotImplementedError("PostgreSQL databases are backed up with pg_dump")


def store_for(target: str, **options: Any) -> SqliteStore:
    """The store a database target names: a PostgreSQL URL, or a SQLite file."""
    return PgStore(target, **options) if is_url(target) else SqliteStore(target, **options)
