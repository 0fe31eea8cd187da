"""A unit of work's statements sent to PostgreSQL together, through psycopg's libpq
wrapper (`psycopg.pq`) in pipeline mode.

Why not psycopg's cursors: measured here (2 cores, loopback), fourteen INSERTs and a
SELECT in one pipeline cost the bot 515 µs of CPU through `Connection.execute` and 60 µs
through `psycopg.pq`; a bot command is about twenty statements, so the cursors' own
bookkeeping was most of a command's time. What this module keeps of psycopg's work is
small because our SQL is: every statement is prepared once per session (server-side
types, as the server infers them from the statement), parameters go as text, and the
rows come back as text, loaded by psycopg's own loaders (its compiled `Transformer`: a
dozen players' rows in 5 µs, where loading them in Python took 24). psycopg still
connects, reports errors as its exception classes
(by SQLSTATE, so a deadlock is `errors.DeadlockDetected`), runs migrations and streams
long reads.

The socket is waited on with `select`, which lets go of the GIL: the bot's event loop
and the store's other connections run while one waits for the server.
"""

from __future__ import annotations

import contextlib
import itertools
import math
import select
from collections.abc import Sequence
from decimal import Decimal
from typing import Any

import psycopg
from psycopg import errors, pq
from psycopg.adapt import Transformer

BATCH = 500  # statements per sync: the server's answers to one batch fit its socket buffer
PREPARED = 2000  # distinct statements kept prepared per session before starting afresh



Params = list[bytes | None]


def encode(args: Sequence[Any]) -> Params:
    """A statement's parameters as PostgreSQL reads them in text. A value that cannot be
    sent raises here, when the statement is queued, not when its batch goes out."""
    return [_param(a) for a in args]


def _param(value: Any) -> bytes | None:
    if value is None:
        return None
    kind = value.__class__
    if kind is str:
        if "\x00" in value:  # libpq would cut the text there
            raise errors.DataError("PostgreSQL text cannot contain NUL (0x00) characters")
        return str(value).encode()
    if kind is bool:
        return b"1" if value else b"0"  # our columns are integers (SQLite's booleans)
    if kind is int or kind is Decimal:
        return str(value).encode()
    if kind is float:
        if math.isfinite(value):
            return repr(value).encode()  # the shortest text that reads back exactly
        return b"NaN" if value != value else (b"Infinity" if value > 0 else b"-Infinity")
    if kind is bytes:
        return b"\\x" + bytes(value).hex().encode()
    if isinstance(value, int):  # an int's subclass (bool is above): its number
        return _param(int(value))
    raise errors.ProgrammingError(f"cannot send a {kind.__name__} to PostgreSQL")


def _error(result: pq.abc.PGresult) -> psycopg.Error:
    state = result.error_field(pq.DiagnosticField.SQLSTATE)
    kind = errors.lookup(state.decode()) if state else psycopg.DatabaseError
    return kind((result.error_message or b"").decode(errors="replace").strip())


class Wire:
    """One session's statements, prepared on first use and sent in batches."""

    def __init__(self, raw: psycopg.Connection[Any]) -> None:
        self.raw = raw
        self.pg = raw.pgconn
        self.pg.nonblocking = 1
        self.rows = Transformer(raw)  # (psycopg's loaders, as its cursors would use)
        self.names: dict[str, bytes] = {}
        # (names are never used twice: a failed batch forgets the statements it prepared,
        # and preparing one again must not meet its old name)
        self.numbers = itertools.count()

    def run(self, statements: Sequence[tuple[str, Params]]) -> list[list[Any]]:
        """Each statement's rows, in order; the first error raised once all are answered
        (the statements after it were not run)."""
        if len(self.names) > PREPARED and \
                self.pg.transaction_status == pq.TransactionStatus.IDLE:  # (not mid-unit)
            self.raw.execute("DEALLOCATE ALL")
            self.names.clear()
        found: list[list[Any]] = []
        for start in range(0, len(statements), BATCH):
            found += self._batch(statements[start:start + BATCH])
        return found

    def _batch(self, statements: Sequence[tuple[str, Params]]) -> list[list[Any]]:
        pg, new = self.pg, []
        expected: list[int | None] = []  # per result to come: the statement, or a PREPARE
        try:
            pg.enter_pipeline_mode()
            try:
                for index, (sql, params) in enumerate(statements):
                    name = self.names.get(sql)
                    if name is None:
                        name = self.names[sql] = f"lb{next(self.numbers)}".encode()
                        new.append(sql)
                        pg.send_prepare(name, sql.encode())
                        expected.append(None)
                    pg.send_query_prepared(name, params)
                    expected.append(index)
                pg.pipeline_sync()
                self._flush()
                found, failure = self._collect(expected, len(statements))
            finally:
                if pg.pipeline_status != pq.PipelineStatus.OFF:
                    # (if this fails the session is lost: the caller connects again)
                    with contextlib.suppress(psycopg.Error):
                        pg.exit_pipeline_mode()
            if failure is not None:
                raise failure
        except BaseException:
            for sql in new:  # a statement after a failure was never prepared
                self.names.pop(sql, None)
            raise
        return found

    def _collect(self, expected: list[int | None], count: int
                 ) -> tuple[list[list[Any]], psycopg.Error | None]:
        found: list[list[Any]] = [[] for _ in range(count)]
        failure: psycopg.Error | None = None
        answered = 0
        while True:
            result = self._next()
            if result is None:
                continue  # the end of one statement's results
            status = result.status
            if status == pq.ExecStatus.PIPELINE_SYNC:
                return found, failure
            index = expected[answered] if answered < len(expected) else None
            answered += 1
            if status == pq.ExecStatus.TUPLES_OK and index is not None:
                self.rows.set_pgresult(result)
                found[index] = self.rows.load_rows(0, result.ntuples, tuple)
            elif status == pq.ExecStatus.FATAL_ERROR and failure is None:
                failure = _error(result)

    def _next(self) -> pq.abc.PGresult | None:
        pg = self.pg
        while pg.is_busy():
            select.select([pg.socket], [], [])  # (the GIL is free meanwhile)
            pg.consume_input()
        return pg.get_result()

    def _flush(self) -> None:
        pg = self.pg
        while pg.flush():  # 1: more to send once the socket takes it
            select.select([pg.socket], [pg.socket], [])
            pg.consume_input()
