"""One PostgreSQL session with the sqlite3 methods the repository uses (`execute`,
`executemany`, `fetchone`, `fetchall`), for storage/postgres/store.py's store.

A statement whose result nobody reads (an INSERT, an UPDATE, a SAVEPOINT, an advisory
lock; the repository never asks how many rows one changed) waits in `pending` and goes
to the server with the next read, or with the COMMIT, all of them in one pipeline (one
round trip, storage/postgres/wire.py). A read the unit is about to make can be sent ahead
(`ahead`), with the round trip before it; the rows of a read answer it again while
nothing that could change them (a write, a lock, a rollback) came between. The
sessions run with `synchronous_commit=off`: a commit returns before its WAL record is
on disk (README, "Durability").
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterator, Sequence
from typing import Any

import psycopg
from psycopg import pq
from psycopg.adapt import Dumper
from psycopg.conninfo import conninfo_to_dict, make_conninfo

from storage.postgres.wire import Params, Wire, encode

STREAM_CHUNK = 5000  # rows fetched at a time when a replay streams a long log
KEPT_ROWS = 1000  # a read of more rows is not kept to answer it again (few are made twice)
# The bot's sessions: a commit does not wait for its WAL flush (see the docstring).
SESSION = "-c synchronous_commit=off"
READS = ("SELECT", "WITH", "SHOW")
# What leaves the rows of every read as they were (a savepoint changes no row).
_UNCHANGING = ("SAVEPOINT", "RELEASE")
_LOCKS = "pg_advisory_xact_lock"
Key = tuple[str, tuple[Any, ...]]  # a read: its statement and its arguments


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
    statement gives its place (a BIGINT column, an INTEGER argument), as storage/postgres/wire.py
    sends every parameter: for what still goes through psycopg's cursors (a streamed
    read, its FETCH)."""

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
    raw.prepare_threshold = None  # statements are prepared by storage/postgres/wire.py's names
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
    them, all in one round trip (storage/postgres/wire.py)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.raw = connect(url)
        self.wire = Wire(self.raw)
        self.pending: list[tuple[str, Params]] = []
        # Reads sent ahead, to go with the next round trip (`ahead`); and the rows of
        # this transaction's reads that nothing has made stale since (`reads`).
        self.queued: dict[Key, tuple[str, Params]] = {}
        self.fetched: dict[Key, list[Any]] = {}
        self.in_transaction = False
        # Numbers read in this transaction that no write of it has changed since:
        # ("seq" or "match", ladder) -> value (PgStore.find_ladder, PgStore.known).
        self.known: dict[tuple[str, int], int] = {}
        self.streams = itertools.count()

    def _changes(self, sql: str) -> None:
        """Forget what a write to `sql`'s tables may change."""
        if not sql.startswith(_UNCHANGING):
            self.fetched.clear()
        if sql.startswith(("BEGIN", "COMMIT", "ROLLBACK")):  # (a transaction's bounds)
            self.queued.clear()
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
            self.wire.run([(sql, [])])
            return _NONE
        if not args and ";" in sql.strip().rstrip(";"):  # a migration's script
            self.reads()
            self.raw.execute(sql)  # no parameters: the simple protocol, many statements
            return _NONE
        self.pending.append((numbered(sql), encode(args)))
        if sql == "BEGIN":
            self.in_transaction = True
        elif sql == "COMMIT":
            self.reads()  # (if a write it carries fails, the transaction is still open)
            self.in_transaction = False
        return _NONE

    def later(self, sql: str, args: Sequence[Any]) -> None:
        """A statement whose result nobody reads (an advisory lock): it goes with the next
        read, which the server runs after it."""
        self.fetched.clear()  # (rows read before a lock may be stale once it is held)
        self.pending.append((numbered(sql), encode(args)))

    def ahead(self, sql: str, args: Sequence[Any]) -> None:
        """A read the unit of work is about to make: it goes with the next round trip,
        after what is sent then, and its rows answer the same read (statement and
        arguments) unless a write, a lock or a rollback comes first."""
        key = (sql, tuple(args))
        if key not in self.fetched:
            self.queued[key] = (numbered(sql), encode(args))

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        self._changes(sql)
        query = numbered(sql)
        self.pending.extend([(query, encode(row)) for row in rows])

    def reads(self, *statements: tuple[str, Sequence[Any]]) -> list[list[Any]]:
        """The rows of each read, sent after what waits in one round trip (the server
        runs them in order, each statement on a snapshot of its own). A read this
        transaction made or sent ahead already, with nothing since that could change
        its rows, is answered from then."""
        keys = [(sql, tuple(args)) for sql, args in statements]
        fresh = list(dict.fromkeys(key for key in keys if key not in self.fetched))
        answers = self._send(fresh) if fresh or not statements else {}
        # (copies of rows kept: what a caller does with its rows must not change them)
        return [list(self.fetched[key]) if key in self.fetched else answers[key]
                for key in keys]

    def _send(self, fresh: list[Key]) -> dict[Key, list[Any]]:
        """One round trip: what waits, then the reads asked for, then those sent ahead."""
        pending, self.pending = self.pending, []
        for key in fresh:
            self.queued.pop(key, None)
        queued, self.queued = self.queued, {}
        if any(_LOCKS in sql for sql, _ in fresh):  # (as `later`'s locks do)
            self.fetched.clear()
        batch = pending + [(numbered(sql), encode(args)) for sql, args in fresh]
        batch += queued.values()
        if not batch:
            return {}
        answers = dict(zip([*fresh, *queued], self.wire.run(batch)[len(pending):], strict=True))
        if self.in_transaction:  # (outside one, nothing holds what was read)
            self.fetched.update((key, rows) for key, rows in answers.items()
                                if len(rows) <= KEPT_ROWS)
        return answers

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
        """A new session if the server closed this one (a restart, a failover); else
        the session with no transaction left open."""
        self.pending.clear()
        self.queued.clear()
        self.fetched.clear()
        self.known.clear()
        self.in_transaction = False
        if self.raw.pgconn.status == pq.ConnStatus.OK and not self.raw.broken:
            if self.raw.pgconn.transaction_status != pq.TransactionStatus.IDLE:
                self.wire.run([("ROLLBACK", [])])
            return False
        self.raw.close()
        self.raw = connect(self.url)
        self.wire = Wire(self.raw)
        return True

    def close(self) -> None:
        self.raw.close()
