"""PostgreSQL, for several bot processes on one database (with psycopg 3).

The repository is the one of storage/sql/repo.py: its SQL is written so both databases read
it, and what differs is a value, storage/sql/dialect.py's POSTGRESQL. It runs on a session
with sqlite3's methods (storage/postgres/session.py) that waits for the server only where it
reads. A unit of work runs on a thread of its own connection from start to commit as
plain calls, as it does on SQLite's thread, and the bot's event loop only awaits the
whole unit. The store holds a few connections (`LANES`), each on its own thread, so
that while one waits for the server another computes: units of different ladders run
side by side, units of one ladder wait for its advisory lock. The units that queue up
while the connections are busy commit together (`GROUP`), and a command names the
reads it makes first (core/ports/hints.py), which go with its first round trip by what this
process last saw (`saw`, `guess`).

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
import weakref
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Self, TypeVar

import psycopg
from psycopg import errors

from storage.postgres.session import Connection
from storage.sql import tuning
from storage.sql.dialect import POSTGRESQL
from storage.sql.repo import SqlRepo
from storage.sql.units import KNOWN, SqlStore
from storage.sql.versions import migrations, refuse_newer

T = TypeVar("T")

# Advisory lock keys: (namespace, key) pairs of 32-bit integers.
LADDERS, MESSAGES, PROCESSES, PEOPLE = 1, 2, 3, 4
JOBS, MIGRATIONS = 0, 1  # keys in PROCESSES
# A ladder row's KNOWN numbers, read beside it (see PgStore.find_ladder).
_KNOWN_BESIDE = (f"SELECT id, ({KNOWN['seq'].format(ladder='ladders.id')}), "
                 f"({KNOWN['match'].format(ladder='ladders.id')}) FROM ladders")
LANES = 2  # connections per process: units of work in flight at once (measured: README)
GROUP = 10  # units of work a connection commits together at most (measured: README)


def is_url(target: str) -> bool:
    """Whether a database target names a PostgreSQL server rather than a SQLite file."""
    return target.startswith(("postgresql://", "postgres://"))


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
        # storage/postgres/migrations/NNNN_*.sql: the SQLite migrations, numbered alike.
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

    def __init__(self, url: str, *, lanes: int = LANES, group: int = GROUP,
                 snapshot_every: int = tuning.SNAPSHOT_EVERY,
                 snapshot_per_player: int = tuning.SNAPSHOT_PER_PLAYER, existing: bool = False,
                 readonly: bool = False, cache_mb: float = tuning.CACHE_MB) -> None:
        super().__init__(POSTGRESQL, snapshot_every=snapshot_every,
                         snapshot_per_player=snapshot_per_player, cache_mb=cache_mb)
        # `existing` and `readonly` are kept for what asks (they are SQLite's: a file
        # not created, a file opened read-only); a server's database opens alike for both.
        self.existing, self.readonly = existing, readonly
        self.cache.keeps = not existing  # (a store that only reads keeps no heads)
        self.path = self.url = url
        self.lanes: list[_Lane] = []
        self._free: asyncio.Queue[_Lane] | None = None
        self._count = lanes
        self._group_size = group
        self._serving: set[asyncio.Task[None]] = set()  # (tasks are held only weakly)
        # What this process last read of a few things, to guess the reads of a hint by:
        # a ladder's row by where it was looked up, a user's player id by (ladder, user).
        self._guesses: dict[tuple[Any, ...], Any] = {}
        # (a chat's turn lives while a unit of it waits or runs)
        self._turns: weakref.WeakValueDictionary[str, asyncio.Lock] = \
            weakref.WeakValueDictionary()
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
        """Keep the heads of the standings held, and disconnect (a job lead this process
        held passes to another)."""
        if self.lanes and not self.existing:
            await self._keep_heads(self.cache.dropped(everything=True), self.lanes[0].call)
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
            self._wake()

    async def run(self, work: Callable[[SqlRepo], T], *, commit: bool = True,
                  key: str | None = None) -> T:
        """Run `work` in one transaction on a free connection, with the units of other
        chats that queued up meanwhile (group commit, `GROUP`). Units of one `key` (a
        chat, whose ladders they lock) run one at a time here, so that two connections
        never wait for each other on one ladder's lock while other chats' units could
        use one of them, and a group never holds two units of one chat."""
        if key is None:
            return await self._submit(work, commit)
        turn = self._turns.get(key)
        if turn is None:
            turn = self._turns[key] = asyncio.Lock()
        async with turn:
            return await self._submit(work, commit)

    async def _submit(self, work: Callable[[SqlRepo], T], commit: bool) -> T:
        if not commit or self._group_size == 1:
            return await self._call(lambda conn: self._unit(conn, work, commit))
        if self._free is None or not self.lanes:
            raise RuntimeError("the store is not open")
        return await self._queued(work)

    def _wake(self) -> None:
        # Every free connection takes a group; a busy one takes more when done.
        while self._waiting and self._free is not None and not self._free.empty():
            lane = self._free.get_nowait()
            self._serving.add(asyncio.get_running_loop().create_task(self._serve(lane)))

    async def _serve(self, lane: _Lane) -> None:
        """Run waiting units on `lane`, a group at a time, until none wait."""
        try:
            while self._waiting:
                batch = self._waiting[:self._group_size]
                del self._waiting[:self._group_size]
                await self._settle(batch, lane.call)
        finally:
            if self._free is not None:
                self._free.put_nowait(lane)
            task = asyncio.current_task()
            if task is not None:
                self._serving.discard(task)

    def stream(self, conn: Any, sql: str, args: Sequence[Any]) -> Any:
        return conn.iterate(sql, args)

    def lock_ladder(self, repo: SqlRepo, ladder: int) -> bool:
        if ladder in repo.locked:
            return False
        repo.conn.later("SELECT pg_advisory_xact_lock(?, CAST(? AS INTEGER))",
                        (LADDERS, ladder))
        repo.locked.add(ladder)
        return True

    @staticmethod
    def _ladder_reads(repo: SqlRepo, where: str,
                      args: Sequence[Any]) -> list[tuple[str, Sequence[Any]]]:
        # The lock and the read in one round trip: the read, a statement after the lock,
        # sees what the last holder of the lock committed.
        # Its KNOWN numbers come with it: a unit of work that writes to the ladder
        # reads them next (Connection.known keeps them until a write changes them).
        return [(f"SELECT id, pg_advisory_xact_lock(?, CAST(id AS INTEGER)) FROM ladders "
                 f"WHERE {where}", (LADDERS, *args)), (f"{repo._LADDER} WHERE {where}", args),
                (f"{_KNOWN_BESIDE} WHERE {where}", args)]

    def holds(self, repo: SqlRepo, ladder: int) -> bool:
        return ladder in repo.locked

    def try_lock_ladder(self, repo: SqlRepo, ladder: int) -> bool:
        if ladder not in repo.locked and repo._one(
                "SELECT pg_try_advisory_xact_lock(?, CAST(? AS INTEGER))", (LADDERS, ladder))[0]:
            repo.locked.add(ladder)
        return ladder in repo.locked

    def find_ladder(self, repo: SqlRepo, where: str, args: Sequence[Any]) -> Any:
        locked, rows, known = repo.conn.reads(*self._ladder_reads(repo, where, args))
        repo.locked.update(row[0] for row in locked)
        if rows and rows[0][0] not in repo.locked:  # renamed or made default meanwhile
            return super().find_ladder(repo, f"id={int(rows[0][0])}", ())
        for ladder, seq, match in known:
            if ladder in repo.locked:
                repo.conn.known[("seq", ladder)] = seq
                repo.conn.known[("match", ladder)] = match
        if rows:
            self.saw(("ladder", where, tuple(args)), rows[0])
        return rows[0] if rows else None

    def known(self, repo: SqlRepo, what: str, ladder: int) -> int:
        found = repo.conn.known.pop((what, ladder), None)
        return super().known(repo, what, ladder) if found is None else int(found)

    def lock_people(self, repo: SqlRepo, users: Sequence[str]) -> None:
        for user in sorted(set(users)):  # (in one order: two units never wait on each other)
            repo.conn.later("SELECT pg_advisory_xact_lock(?, hashtext(?))", (PEOPLE, user))

    def lock_message(self, repo: SqlRepo, chat: str, message: str) -> None:
        repo.conn.later("SELECT pg_advisory_xact_lock(?, hashtext(?))",
                        (MESSAGES, f"{chat}\n{message}"))
        # Most messages are commands to the chat's default ladder, which they look up
        # next: it comes with the message's own read, one round trip for both. (A message
        # that turns out to be a repeat, or to name another ladder, then holds that lock
        # to the end of its unit for nothing; a deadlock it meets is tried again.)
        for sql, args in self._ladder_reads(repo, "chat=? AND is_default=1", (chat,)):
            repo.conn.ahead(sql, args)

    def read_ahead(self, repo: SqlRepo, sql: str, args: Sequence[Any]) -> None:
        repo.conn.ahead(sql, args)

    # ---- guesses: a wrong one costs a read, never a wrong answer (a read is answered by
    # one sent ahead only if it is the very statement with the very arguments)
    def saw(self, key: tuple[Any, ...], value: Any) -> None:
        if len(self._guesses) >= tuning.GUESSES:
            self._guesses.clear()  # (starting afresh loses nothing but guesses)
        self._guesses[key] = value

    def guess(self, key: tuple[Any, ...]) -> Any:
        return self._guesses.get(key)

    def expect_ladder(self, repo: SqlRepo, where: tuple[str, tuple[Any, ...]],
                      then: Callable[[Any], None]) -> None:
        # The ladder's lock and row go first (the reads after them run under the lock),
        # then what follows, named for the ladder as this process last saw it.
        for sql, args in self._ladder_reads(repo, *where):
            repo.conn.ahead(sql, args)
        row = self.guess(("ladder", *where))
        if row is not None:
            then(repo._ladder(row))

    def recover(self, conn: Any) -> None:
        # The server closed the connection (a restart, a failover): connect again. The
        # unit of work that saw it fails rather than being tried again, since its
        # COMMIT may have reached the server; the session's job lead is gone with it.
        if conn.reconnect() and self.lanes and conn is self.lanes[0].conn:
            self._leader = False

    def spans_units(self, error: BaseException) -> bool:
        # A unit's writes go with the next read, the next unit's in a group: the server's
        # refusal of them surfaces there. (Not a lost connection: a COMMIT may have
        # reached the server, and the units are not run again.)
        return isinstance(error, psycopg.Error) and not self.transient(error) and \
            not isinstance(error, psycopg.OperationalError)

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
