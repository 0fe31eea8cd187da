"""storage/postgres/wire.py against a real PostgreSQL server: values arrive as they were sent,
errors are psycopg's classes, and a failed batch leaves the session usable."""

from __future__ import annotations

import math
from collections.abc import Iterator
from decimal import Decimal

import psycopg
import pytest
from psycopg import errors

from storage.postgres import wire as pgwire
from storage.postgres.session import connect, numbered
from tests.support import postgres


@pytest.fixture
def wire(postgres_server: str) -> Iterator[pgwire.Wire]:
    import asyncio

    url = asyncio.run(postgres.fresh_database(postgres_server))
    raw = connect(url)
    try:
        raw.execute("CREATE TABLE t (i BIGINT, f DOUBLE PRECISION, s TEXT)")
        raw.execute("CREATE UNIQUE INDEX t_i ON t (i)")
        yield pgwire.Wire(raw)
    finally:
        raw.close()


def send(wire: pgwire.Wire, statements: list[tuple[str, tuple[object, ...]]]
         ) -> list[list[tuple[object, ...]]]:
    """Statements in our qmark style, with their arguments, in one `Wire.run`."""
    return wire.run([(numbered(sql), pgwire.encode(args)) for sql, args in statements])


def one(wire: pgwire.Wire, sql: str, *args: object) -> list[tuple[object, ...]]:
    return send(wire, [(sql, args)])[0]


def test_values_come_back_as_they_were_sent(wire: pgwire.Wire) -> None:
    texts = ["", "plain", "Zoë 🏆 \u202e\u200b", "'; DROP TABLE t; --", "a\\b", "?"]
    floats = [0.1, -2.5e-300, 1e308, 1464.0507269924, math.inf, -math.inf]
    rows: list[tuple[int, float | None, str | None]] = [
        (i, f, s) for i, (f, s) in enumerate(zip(floats, texts, strict=True))]
    rows.append((2**62, None, None))
    send(wire, [("INSERT INTO t VALUES (?, ?, ?)", row) for row in rows])
    assert one(wire, "SELECT i, f, s FROM t ORDER BY i") == rows
    send(wire, [("INSERT INTO t VALUES (?, ?, ?)", (-1, math.nan, "n"))])
    assert math.isnan(one(wire, "SELECT f FROM t WHERE i=?", -1)[0][0])  # type: ignore[arg-type]
    # computed columns: booleans, numerics, a count; a bool parameter is 0 or 1
    found = one(wire, "SELECT ? = 1, sum(i) / 4, count(*) FROM t WHERE i < ?", True, 10)
    assert found == [(True, Decimal("3.5"), 7)]  # (0 + 1 + ... + 5 - 1) / 4
    assert isinstance(found[0][1], Decimal)


def test_a_nul_character_is_refused_not_cut(wire: pgwire.Wire) -> None:
    with pytest.raises(errors.DataError, match="NUL"):
        send(wire, [("INSERT INTO t VALUES (?, ?, ?)", (1, 1.0, "a\x00b"))])
    assert one(wire, "SELECT count(*) FROM t") == [(0,)]


def test_an_error_stops_the_batch_and_the_session_goes_on(wire: pgwire.Wire) -> None:
    insert = "INSERT INTO t VALUES (?, ?, ?)"
    with pytest.raises(errors.UniqueViolation):
        send(wire, [("BEGIN", ()), (insert, (1, 1.0, "a")), (insert, (1, 2.0, "b")),
                  ("INSERT INTO t (i) VALUES (?)", (9,)), ("COMMIT", ())])
    send(wire, [("ROLLBACK", ())])
    assert one(wire, "SELECT count(*) FROM t") == [(0,)]
    with pytest.raises(errors.SyntaxError):  # never prepared: its name is not kept
        send(wire, [("SELEC 1", ()), ("SELECT 2 + ?", (1,))])
    assert one(wire, "SELECT 2 + ?", 1) == [(3,)]
    assert one(wire, "SELECT count(*) FROM t") == [(0,)]


def test_long_batches_and_many_statements(wire: pgwire.Wire, monkeypatch: pytest.MonkeyPatch
                                          ) -> None:
    rows = [(i, float(i), str(i)) for i in range(3 * pgwire.BATCH + 7)]
    send(wire, [("INSERT INTO t VALUES (?, ?, ?)", row) for row in rows])
    assert one(wire, "SELECT count(*), sum(i) FROM t") == [
        (len(rows), Decimal(sum(range(len(rows)))))]
    monkeypatch.setattr(pgwire, "PREPARED", 5)  # then the session's statements start afresh
    for n in range(12):
        assert one(wire, f"SELECT {n} + ?", 1) == [(n + 1,)]
    assert len(wire.names) <= 6


def test_a_lost_session_is_psycopgs_operational_error(wire: pgwire.Wire,
                                                      postgres_server: str) -> None:
    pid = one(wire, "SELECT pg_backend_pid()")[0][0]
    with psycopg.connect(postgres_server, autocommit=True) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
    with pytest.raises(psycopg.OperationalError):
        one(wire, "SELECT 1")


def test_the_statement_cache_starts_afresh_only_between_transactions(
        wire: pgwire.Wire, monkeypatch: pytest.MonkeyPatch) -> None:
    """Mid-transaction, even a failed one, a full cache is left as it is: the ROLLBACK
    that must follow has to reach the server."""
    monkeypatch.setattr(pgwire, "PREPARED", 1)
    assert one(wire, "SELECT 1 + ?", 1) == [(2,)]
    with pytest.raises(errors.DivisionByZero):
        send(wire, [("BEGIN", ()), ("SELECT 1 / ?", (0,))])
    send(wire, [("ROLLBACK", ())])  # (with the old cache, mid-transaction)
    assert wire.pg.transaction_status == psycopg.pq.TransactionStatus.IDLE
    assert one(wire, "SELECT 2 + ?", 1) == [(3,)]  # and then afresh
    assert len(wire.names) == 1


def test_a_value_that_cannot_be_sent_fails_its_own_statement(postgres_server: str) -> None:
    """It raises where the statement is queued: what waited before it (a savepoint) still
    goes out, so the unit can roll back to it and go on (it used to be lost with the
    batch, and the ROLLBACK TO failed with "savepoint does not exist")."""
    import asyncio

    from storage.postgres.session import Connection

    conn = Connection(asyncio.run(postgres.fresh_database(postgres_server)))
    try:
        conn.execute("CREATE TABLE t (i BIGINT, s TEXT); CREATE INDEX t_i ON t (i)")
        conn.execute("BEGIN")
        conn.execute("INSERT INTO t VALUES (?, ?)", (1, "kept"))
        conn.execute("SAVEPOINT sp1")
        conn.execute("INSERT INTO t VALUES (?, ?)", (2, "undone"))
        with pytest.raises(errors.DataError):
            conn.execute("INSERT INTO t VALUES (?, ?)", (3, "a\x00b"))
        conn.execute("ROLLBACK TO sp1")
        conn.execute("RELEASE sp1")
        conn.execute("COMMIT")
        assert conn.execute("SELECT i, s FROM t ORDER BY i").fetchall() == [(1, "kept")]
    finally:
        conn.close()
