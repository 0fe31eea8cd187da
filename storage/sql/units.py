"""What both SQL stores share: units of work in transactions, tried again after a
transient failure, and the standings of recently used ladders kept in memory (within a
budget: storage/sql/cache.py).

A store is given its `Dialect` (storage/sql/dialect.py) and how to reach its database: the
SQLite store (storage/sqlite/store.py) one aiosqlite thread, the PostgreSQL store
(storage/postgres/store.py) a few psycopg connections. Either runs a unit of work as one call
on a database thread: `_unit`, or `_group` for units that queued up together.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Self, TypeVar

from core.domain.budget import within
from storage.sql import tuning
from storage.sql.cache import LadderCache
from storage.sql.dialect import Dialect
from storage.sql.history import Cached
from storage.sql.repo import SettingsCache, SqlRepo

T = TypeVar("T")
Waiting = tuple[Callable[[SqlRepo], Any], "asyncio.Future[Any]"]  # a unit, its outcome

log = logging.getLogger(__name__)

# The two numbers a unit of work reads of a ladder it writes to: the log's length
# (another process may have written since: the cached standings are checked against
# it) and the next match number (after the stored ones: a read of the primary key,
# where a counter in the ladder's row would be one more page written by every report).
# Templates: PostgreSQL's store reads them beside the ladder's row (storage/postgres/store.py).
KNOWN = {"seq": "SELECT coalesce(max(seq), 0) FROM events WHERE ladder={ladder}",
         "match": "SELECT coalesce(max(id), 0) + 1 FROM matches WHERE ladder={ladder}"}
_KNOWN_READS = {what: sql.format(ladder="?") for what, sql in KNOWN.items()}


@dataclass(frozen=True)
class Failed:
    """A unit of work that raised: its exception, to re-raise in its caller."""

    error: Exception


class SqlStore:
    """A SQL database as units of work: each is atomic, in one transaction."""

    def __init__(self, dialect: Dialect, *, snapshot_every: int = tuning.SNAPSHOT_EVERY,
                 snapshot_per_player: int = tuning.SNAPSHOT_PER_PLAYER,
                 cache_mb: float = tuning.CACHE_MB) -> None:
        self.dialect = dialect
        self.snapshot_every = snapshot_every
        self.snapshot_per_player = snapshot_per_player
        self.settings = SettingsCache()
        # The standings of recently used ladders (a rolled-back unit's are forgotten).
        self.cache = LadderCache(round(cache_mb * 1024 * 1024))
        # Units of work waiting for a connection, to run as groups (`_queued`).
        self._waiting: list[Waiting] = []

    @property
    def is_open(self) -> bool:
        raise NotImplementedError

    @property
    def home(self) -> Path:
        """The folder for files that belong with the database (the console's charts)."""
        raise NotImplementedError

    async def open(self) -> Self:
        """Connect (and migrate)."""
        raise NotImplementedError

    async def close(self) -> None:
        raise NotImplementedError

    async def run(self, work: Callable[[SqlRepo], T], *, commit: bool = True,
                  key: str | None = None) -> T:
        """Run `work` in one transaction, in one call on a database thread. `key` (a
        chat) is a hint: its units may be run one at a time."""
        raise NotImplementedError

    async def leads_jobs(self) -> bool:
        """Whether this process runs the scheduled jobs (one process per database)."""
        raise NotImplementedError

    async def backup(self, target: str | Path) -> None:
        raise NotImplementedError

    # ---- what other processes on the same database need
    def lock_ladder(self, repo: SqlRepo, ladder: int) -> bool:
        """Serialize the ladder's units of work across processes; True if the lock was
        just taken (rows read before it may be stale). SQLite's write lock already does."""
        return False

    def try_lock_ladder(self, repo: SqlRepo, ladder: int) -> bool:
        """`lock_ladder` if no other process holds it; whether this unit holds it."""
        self.lock_ladder(repo, ladder)
        return True

    def holds(self, repo: SqlRepo, ladder: int) -> bool:
        """Whether no other transaction can change the ladder's row before this one ends
        (SQLite: a writer is alone, and a reader reads one snapshot)."""
        return True

    def known(self, repo: SqlRepo, what: str, ladder: int) -> int:
        """One of the `KNOWN` numbers of a ladder, as the database has it now."""
        return int(repo._one(_KNOWN_READS[what], (ladder,))[0])

    def find_ladder(self, repo: SqlRepo, where: str, args: Sequence[Any]) -> Any:
        """The row of the ladder `where` names, its lock held (see `lock_ladder`)."""
        row = repo._one(f"{repo._LADDER} WHERE {where}", args)
        if row is not None and self.lock_ladder(repo, row[0]):
            # Another process may have changed it while we waited for the lock.
            row = repo._one(f"{repo._LADDER} WHERE id=?", (row[0],))
        return row

    def lock_people(self, repo: SqlRepo, users: Sequence[str]) -> None:
        """Serialize what reads and changes which players these accounts have, across
        processes (no-op here: SQLite's writers take turns)."""

    def lock_message(self, repo: SqlRepo, chat: str, message: str) -> None:
        """Serialize the handling of one chat message across processes (no-op here)."""

    def read_ahead(self, repo: SqlRepo, sql: str, args: Sequence[Any]) -> None:
        """A read the unit of work is about to make, which a server's store may send with
        the round trip before it (no-op here: SQLite has no round trips)."""

    def expect_ladder(self, repo: SqlRepo, where: tuple[str, tuple[Any, ...]],
                      then: Callable[[Any], None]) -> None:
        """The ladder `where` names is looked up next, then what `then` names (see
        Repo.expect_ladder; no-op here)."""

    def saw(self, key: tuple[Any, ...], value: Any) -> None:
        """What a unit read, which a server's store keeps (bounded) to guess the reads
        it sends ahead by (no-op here)."""

    def guess(self, key: tuple[Any, ...]) -> Any:
        """What `saw` kept under `key`, or None."""
        return None

    def transient(self, error: BaseException) -> bool:
        """Whether a failed transaction should simply be tried again."""
        return False

    def spans_units(self, error: BaseException) -> bool:
        """Whether an error a unit of work met may be another's of its group (SQLite's
        are its own: it runs each statement as it comes)."""
        return False

    def recover(self, conn: Any) -> None:
        """After a failed transaction, make the connection usable again (a server's
        connection may have been lost); on the database thread."""

    def stream(self, conn: Any, sql: str, args: Sequence[Any]) -> Iterator[Any]:
        """The rows of a long read, as the caller consumes them."""
        return iter(conn.execute(sql, args))

    async def __aenter__(self) -> Self:
        return await self.open()

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    def snapshot_interval(self, players: int) -> int:
        """Events between stored snapshots of a ladder of this many players."""
        return max(self.snapshot_every, self.snapshot_per_player * players)

    async def restate_pending(self) -> int:
        """Bring stale per-match history up to date, a chunk per transaction."""
        def stale(repo: SqlRepo) -> list[int]:
            return repo.stale_ladders()

        done = 0
        for ladder in await self.run(stale):
            def restate(repo: SqlRepo, lad: int = ladder) -> bool:
                return repo.restate(lad)

            while await self.run(restate):
                done += 1
            done += 1
        return done

    # ---- units of work
    async def _queued(self, work: Callable[[SqlRepo], T]) -> T:
        """Run `work` in the next group of waiting units (group commit): its outcome, or
        its exception raised here."""
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._waiting.append((work, future))
        self._wake()
        outcome = await future
        if isinstance(outcome, Failed):
            raise outcome.error
        return outcome  # type: ignore[no-any-return]

    def _wake(self) -> None:
        """Set a connection to run the waiting units, if none is at it."""
        raise NotImplementedError

    async def _settle(self, batch: Sequence[Waiting],
                      call: Callable[[Callable[[Any], list[Any]]], Awaitable[list[Any]]]
                      ) -> None:
        """Run queued units of work as one group (`_attempts`) through `call`, which runs
        a function of the connection on its thread, and give each waiter its outcome."""
        works = [work for work, _ in batch]
        try:
            outcomes = await call(lambda conn: self._attempts(conn, works))
        except BaseException as error:  # the transaction itself failed: all of them did
            outcomes = [Failed(error if isinstance(error, Exception)
                                else RuntimeError(repr(error)))] * len(batch)
        for (_, future), outcome in zip(batch, outcomes, strict=True):
            if not future.done():
                future.set_result(outcome)
        dropped = self.cache.dropped()
        if dropped:
            await self._keep_heads(dropped, call)

    async def _keep_heads(self, held: list[tuple[int, Cached]],
                          call: Callable[[Callable[[Any], Any]], Awaitable[Any]]) -> None:
        """Keep the heads of standings let go of (storage/sql/heads.py), in a transaction
        of their own after the units that let go of them: no reply waits on it, and a
        failure only costs the next load a replay."""
        def keep(conn: Any) -> None:
            try:
                outcome = self._group(conn, [lambda repo: repo.keep_heads(held)])[0]
            except Exception as error:
                self.recover(conn)
                outcome = Failed(error)
            if isinstance(outcome, Failed):
                log.warning("heads of %d ladders not kept: %s", len(held), outcome.error)

        if not held:
            return
        try:
            await call(keep)
        except Exception as error:  # (the connection is gone: a store closing)
            log.warning("heads of %d ladders not kept: %s", len(held), error)

    def _unit(self, conn: Any, work: Callable[[SqlRepo], T], commit: bool) -> T:
        """One unit of work alone in its own transaction."""
        outcome = self._attempts(conn, [work], commit)[0]
        if isinstance(outcome, Failed):
            raise outcome.error
        return outcome  # type: ignore[no-any-return]

    def _attempts(self, conn: Any, works: Sequence[Callable[[SqlRepo], Any]],
                  commit: bool = True) -> list[Any]:
        """`_group`, tried again after a transient failure (PostgreSQL: a deadlock between
        processes, a lost race for a new row): the transaction was rolled back whole. A
        group that failed for what may be another unit's (`spans_units`) runs again a
        unit at a time, so that the failure falls on its own unit."""
        for attempt in range(tuning.TRIES):
            try:
                return self._group(conn, works, commit)
            except Exception as error:
                self.recover(conn)
                if len(works) > 1 and self.spans_units(error):
                    return [self._alone(conn, work, commit) for work in works]
                if not self.transient(error) or attempt == tuning.TRIES - 1:
                    raise
                log.info("transaction tried again after: %s", error)
                time.sleep(random.uniform(0, 0.005 * 2 ** attempt))  # on the database thread
        raise AssertionError("unreachable")

    def _alone(self, conn: Any, work: Callable[[SqlRepo], Any], commit: bool) -> Any:
        """A unit of work's outcome in a transaction of its own (Failed if it raised)."""
        try:
            return self._attempts(conn, [work], commit)[0]
        except Exception as error:
            return Failed(error)

    def _group(self, conn: Any, works: Sequence[Callable[[SqlRepo], Any]],
               commit: bool = True) -> list[Any]:
        """Units of work in one transaction, each in its own savepoint.

        A unit that raises is rolled back to its savepoint alone; the others commit
        together. A unit alone has no savepoint (two statements fewer, each a server's
        work on PostgreSQL): its transaction is rolled back instead. Nothing is
        acknowledged before COMMIT, so a crash at any point leaves the database as before
        every unit of the group.
        """
        conn.execute(self.dialect.begin if commit else self.dialect.read_begin)
        outcomes: list[Any] = []
        touched: set[int] = set()
        alone = len(works) == 1
        try:
            for work in works:
                repo = SqlRepo(conn, self)
                if not alone:
                    conn.execute("SAVEPOINT unit")
                try:
                    with within(time.monotonic):  # (core.domain.budget: no unit holds on for long)
                        outcomes.append(work(repo))
                except Exception as error:
                    self.cache.forget(repo.touched)
                    if self.transient(error) or self.spans_units(error):
                        raise  # (the whole transaction is tried again, see _attempts)
                    if alone:
                        conn.execute("ROLLBACK")
                        return [Failed(error)]
                    conn.execute("ROLLBACK TO unit")
                    outcomes.append(Failed(error))
                else:
                    touched |= repo.touched
                if not alone:
                    conn.execute("RELEASE unit")
            conn.execute("COMMIT" if commit else "ROLLBACK")
            if not commit:
                self.cache.forget(touched)
            else:
                self.cache.reweigh(touched)
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            self.cache.forget(touched)
            raise
        return outcomes

