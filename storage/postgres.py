"""PostgreSQL, for several bot processes on one database (with psycopg 3).

The repository is the one of storage/repo.py: its SQL is written so both databases read
it, and what differs is a handful of names on the store (`BEGIN`, `DECAY`, ...). This
module gives it a connection with the sqlite3 methods it uses (`execute`, `executemany`,
`fetchone`, `fetchall`) over psycopg's. A unit of work runs on a thread of its own
connection from start to commit as plain calls, as it does on SQLite's thread, and the
bot's event loop only awaits the whole unit.

A command on PostgreSQL waits for the server only where it reads: a statement whose
result nobody reads (an INSERT, an UPDATE, a SAVEPOINT; the repository never asks how
many rows one changed) waits in a buffer and goes to the server with the next read, or
with the COMMIT, all of them in one pipeline (one round trip). The store holds a few
connections (`LANES`), each on its own thread, so that while one waits for the server
another computes: units of different ladders run side by side, units of one ladder wait
for its advisory lock. The sessions run with `synchronous_commit=off`: a commit returns
before its WAL record is on disk (README, "Durability").

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
import contextlib
import functools
import itertools
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, Self, TypeVar

import psycopg
from psycopg import errors, pq
from psycopg.adapt import Dumper
from psycopg.conninfo import conninfo_to_dict, make_conninfo

from storage import tuning
from storage.dialect import POSTGRESQL
from storage.pgwire import Wire
from storage.repo import SqliteRepo
from storage.schema import migrations, refuse_newer
from storage.sqlite import SqliteStore
from storage.units import SqlStore

T = TypeVar("T")

# Advisory lock keys: (namespace, key) pairs of 32-bit integers.
LADDERS, MESSAGES, PROCESSES = 1, 2, 3
JOBS, MIGRATIONS = 0, 1  # keys in PROCESSES
STREAM_CHUNK = 5000  # rows fetched at a time when a replay streams a long log
LANES = 4  # connections per process: units of work in flight at once (measured: README)
# The bot's sessions: a commit does not wait for its WAL flush (see the docstring).
SESSION = "-c synchronous_commit=off"
READS = ("SELECT", "WITH", "SHOW")


def is_url(target: str) -> bool:
    """Whether a database target names a PostgreSQL server rather than a SQLite file."""
    return target.startswith(("postgresql://", "postgres://"))


@functools.lru_cache(maxsize=4096)
def numbered(sql: str) -> str:
    """A statement in our qmark style (`?`, as sqlite3 takes it) in PostgreSQL's own
    (`$1`, `$2`, ...): the placeholders numbered in order. (Our SQL has no `?` inside
    string literals.)"""
    parts = sql.split("?")
    return parts[0] + "".join(f"${n}{part}" for n, part in enumerate(parts[1:], 1))


def _values(args: Sequence[Any]) -> tuple[Any, ...]:
    # SQLite stores a bool as 0 or 1; PostgreSQL's BIGINT wants the integer.
    return tuple(int(a) if a.__class__ is bool else a for a in args)


class _IntAsUnknown(Dumper):
    """An integer as text of no stated type, which the server reads as the type the
    statement gives its place (a BIGINT column, an INTEGER argument): one prepared plan
    per statement whatever the values, and no cast in our SQL."""

    oid = 0

    def dump(self, obj: Any) -> bytes:
        return str(obj).encode()

    def quote(self, obj: Any) -> bytes:  # as a literal (psycopg's own FETCH n)
        return str(obj).encode()


def connect(url: str) -> psycopg.Connection[Any]:
    """A bot session: autocommit (the units send BEGIN and COMMIT themselves)."""
    options = f"{conninfo_to_dict(url).get('options') or ''} {SESSION}".strip()
    raw = psycopg.connect(make_conninfo(url, options=options), autocommit=True,
                          cursor_factory=psycopg.RawCursor)
    raw.adapters.register_dumper(int, _IntAsUnknown)
    raw.prepare_threshold = None  # statements are prepared by storage/pgwire.py's names
    return raw


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


_NONE = Rows([])


class Connection:
    """sqlite3.Connection's methods over one PostgreSQL session, on the connection's
    thread. Writes wait in `pending` until a read or the end of the transaction sends
    them, all in one round trip (storage/pgwire.py)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.raw = connect(url)
        self.wire = Wire(self.raw)
        self.pending: list[tuple[str, Sequence[Any]]] = []
        self.in_transaction = False
        # Numbers read in this transaction that no write of it has changed since:
        # ("seq" or "match", ladder) -> value (PgStore.find_ladder, PgStore.known).
        self.known: dict[tuple[str, int], int] = {}
        self.streams = itertools.count()

    def _changes(self, sql: str) -> None:
        """Forget what a write to `sql`'s tables may change."""
        if not self.known:
            return
        if sql.startswith(("BEGIN", "COMMIT", "ROLLBACK")):
            self.known.clear()
        for what, table in (("seq", "events"), ("match", "matches")):
            if table in sql:
                for key in [k for k in self.known if k[0] == what]:
                    del self.known[key]

    def execute(self, sql: str, args: Sequence[Any] = ()) -> Rows:
        if sql.startswith(READS):
            return Rows(self.reads((sql, args))[0])
        self._changes(sql)
        if sql == "ROLLBACK":  # what waits would be undone anyway
            self.pending.clear()
            self.in_transaction = False
            self.wire.run([(sql, ())])
            return _NONE
        if not args and ";" in sql.strip().rstrip(";"):  # a migration's script
            self.reads()
            self.raw.execute(sql)  # no parameters: the simple protocol, many statements
            return _NONE
        self.pending.append((numbered(sql), args))
        if sql == "BEGIN":
            self.in_transaction = True
        elif sql == "COMMIT":
            self.in_transaction = False
            self.reads()
        return _NONE

    def later(self, sql: str, args: Sequence[Any]) -> None:
        """A statement whose result nobody reads (an advisory lock): it goes with the next
        read, which the server runs after it."""
        self.pending.append((numbered(sql), args))

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        self._changes(sql)
        query = numbered(sql)
        self.pending.extend((query, row) for row in rows)

    def reads(self, *statements: tuple[str, Sequence[Any]]) -> list[list[Any]]:
        """The rows of each read, sent after what waits in one round trip (the server
        runs them in order, each statement on a snapshot of its own)."""
        pending, self.pending = self.pending, []
        batch = pending + [(numbered(sql), args) for sql, args in statements]
        if not batch:
            return []
        return self.wire.run(batch)[len(pending):]

    def iterate(self, sql: str, args: Sequence[Any]) -> Iterator[tuple[Any, ...]]:
        """Rows a few thousand at a time (a replay may read millions); inside the
        transaction, so other statements may run between the chunks."""
        self.reads()
        name = f"ladderbot_stream{next(self.streams)}"  # (one may run inside another)
        with psycopg.RawServerCursor(self.raw, name) as cursor:
            cursor.itersize = STREAM_CHUNK
            cursor.execute(numbered(sql), _values(args))
            yield from cursor

    def reconnect(self) -> bool:
        """A new session if the server closed this one (a restart, a failover)."""
        self.pending.clear()
        self.known.clear()
        self.in_transaction = False
        if self.raw.pgconn.status == pq.ConnStatus.OK and not self.raw.broken:
            return False
        self.raw.close()
        self.raw = connect(self.url)
        self.wire = Wire(self.raw)
        return True

    def close(self) -> None:
        self.raw.close()


class _Lane:
    """One connection on one thread of its own."""

    def __init__(self) -> None:
        self.executor = concurrent.futures.ThreadPoolExecutor(1, "ladderbot-postgres")
        self.conn: Connection | None = None

    async def start(self, url: str) -> None:
        def start() -> None:
            self.conn = Connection(url)

        await asyncio.wrap_future(self.executor.submit(start))

    async def call(self, fn: Callable[[Connection], T]) -> T:
        def run() -> T:
            if self.conn is None:
                raise RuntimeError("the store is not open")
            return fn(self.conn)

        return await asyncio.wrap_future(self.executor.submit(run))

    async def stop(self) -> None:
        def close() -> None:
            if self.conn is not None:
                conn, self.conn = self.conn, None
                conn.close()

        try:
            await asyncio.wrap_future(self.executor.submit(close))
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


class PgStore(SqlStore):
    """The store on a PostgreSQL server: `PgStore("postgresql://user@host/db")`."""

    def __init__(self, url: str, *, lanes: int = LANES, snapshot_every: int = tuning.SNAPSHOT_EVERY,
                 snapshot_per_player: int = tuning.SNAPSHOT_PER_PLAYER, existing: bool = False,
                 readonly: bool = False) -> None:
        super().__init__(POSTGRESQL, snapshot_every=snapshot_every,
                         snapshot_per_player=snapshot_per_player)
        # `existing` and `readonly` are kept for what asks (they are SQLite's: a file
        # not created, a file opened read-only); a server's database opens alike for both.
        self.existing, self.readonly = existing, readonly
        self.path = self.url = url
        self.lanes: list[_Lane] = []
        self._free: asyncio.Queue[_Lane] | None = None
        self._count = lanes
        self._leader = False

    @property
    def is_open(self) -> bool:
        return bool(self.lanes)

    @property
    def home(self) -> Path:
        return Path.cwd()

    async def open(self) -> Self:
        """Connect and migrate."""
        self._free = asyncio.Queue()
        try:
            for _ in range(self._count):
                lane = _Lane()
                self.lanes.append(lane)
                await lane.start(self.url)
                if len(self.lanes) == 1:
                    await lane.call(prepare)
                self._free.put_nowait(lane)
        except BaseException:
            await self.close()
            raise
        return self

    async def close(self) -> None:
        """Disconnect (a job lead this process held passes to another)."""
        if self._leader and self.lanes:
            # Hand the lead over now: the server drops a closed session's locks only once
            # its backend has noticed, which another process may ask about before.
            with contextlib.suppress(psycopg.Error):
                await self.lanes[0].call(lambda conn: conn.execute(
                    "SELECT pg_advisory_unlock(?, ?)", (PROCESSES, JOBS)))
        lanes, self.lanes = self.lanes, []
        for lane in lanes:
            await lane.stop()
        self._leader = False

    async def _call(self, fn: Callable[[Any], T]) -> T:
        if self._free is None or not self.lanes:
            raise RuntimeError("the store is not open")
        lane = await self._free.get()
        try:
            return await lane.call(fn)
        finally:
            self._free.put_nowait(lane)

    async def run(self, work: Callable[[SqliteRepo], T], *, commit: bool = True) -> T:
        """Run `work` in one transaction on the first free connection."""
        return await self._call(lambda conn: self._unit(conn, work, commit))

    def stream(self, conn: Any, sql: str, args: Sequence[Any]) -> Any:
        return conn.iterate(sql, args)

    def lock_ladder(self, repo: SqliteRepo, ladder: int) -> bool:
        if ladder in repo.locked:
            return False
        repo.conn.later("SELECT pg_advisory_xact_lock(?, CAST(? AS INTEGER))",
                        (LADDERS, ladder))
        repo.locked.add(ladder)
        return True

    def find_ladder(self, repo: SqliteRepo, where: str, args: Sequence[Any]) -> Any:
        # The lock and the read in one round trip: the read, a statement after the lock,
        # sees what the last holder of the lock committed.
        # Its KNOWN numbers come with it: a unit of work that writes to the ladder
        # reads them next (Connection.known keeps them until a write changes them).
        locked, rows, known = repo.conn.reads(
            (f"SELECT id, pg_advisory_xact_lock(?, CAST(id AS INTEGER)) FROM ladders "
             f"WHERE {where}", (LADDERS, *args)), (f"{repo._LADDER} WHERE {where}", args),
            (f"SELECT id, ({self.KNOWN['seq'].replace('?', 'ladders.id')}), "
             f"({self.KNOWN['match'].replace('?', 'ladders.id')}) FROM ladders WHERE {where}",
             args))
        repo.locked.update(row[0] for row in locked)
        if rows and rows[0][0] not in repo.locked:  # renamed or made default meanwhile
            return super().find_ladder(repo, f"id={int(rows[0][0])}", ())
        for ladder, seq, match in known:
            if ladder in repo.locked:
                repo.conn.known[("seq", ladder)] = seq
                repo.conn.known[("match", ladder)] = match
        return rows[0] if rows else None

    def known(self, repo: SqliteRepo, what: str, ladder: int) -> int:
        found = repo.conn.known.pop((what, ladder), None)
        return super().known(repo, what, ladder) if found is None else int(found)

    def lock_message(self, repo: SqliteRepo, chat: str, message: str) -> None:
        repo.conn.later("SELECT pg_advisory_xact_lock(?, hashtext(?))",
                        (MESSAGES, f"{chat}\n{message}"))

    def recover(self, conn: Any) -> None:
        # The server closed the connection (a restart, a failover): connect again. The
        # unit of work that saw it fails rather than being tried again, since its
        # COMMIT may have reached the server; the session's job lead is gone with it.
        if conn.reconnect() and self.lanes and conn is self.lanes[0].conn:
            self._leader = False

    def transient(self, error: BaseException) -> bool:
        return isinstance(error, (errors.DeadlockDetected, errors.SerializationFailure,
                                  errors.UniqueViolation))

    async def leads_jobs(self) -> bool:
        # The session lock lives on the first connection (its own thread runs the call
        # after whatever unit it is running).
        if not self._leader and self.lanes:
            row = await self.lanes[0].call(lambda conn: conn.execute(
                "SELECT pg_try_advisory_lock(?, ?)", (PROCESSES, JOBS)).fetchone())
            self._leader = bool(row and row[0])
        return self._leader

    async def backup(self, target: str | Path) -> None:
        raise NotImplementedError("PostgreSQL databases are backed up with pg_dump")


def store_for(target: str, **options: Any) -> SqlStore:
    """The store a database target names: a PostgreSQL URL, or a SQLite file."""
    return PgStore(target, **options) if is_url(target) else SqliteStore(target, **options)
