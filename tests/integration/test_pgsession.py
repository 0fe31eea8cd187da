"""storage/postgres/session.py's reads against a real PostgreSQL server: a read sent ahead goes
with the round trip before it, a read made again is answered from the first while
nothing could have changed its rows, and a command makes the round trips it should."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest

from storage.postgres import session as pgsession
from storage.postgres.session import Connection
from storage.postgres.store import PgStore
from tests.support import postgres
from tests.support.chat import Chat

READ = "SELECT s FROM t WHERE i=?"


class Counted:
    """A session whose round trips are counted."""

    def __init__(self, conn: Connection) -> None:
        self.trips = 0
        run = conn.wire.run

        def counted(statements: Any) -> Any:
            self.trips += 1
            return run(statements)

        conn.wire.run = counted  # type: ignore[method-assign]


@pytest.fixture
def url(postgres_server: str) -> str:
    return asyncio.run(postgres.fresh_database(postgres_server))


@pytest.fixture
def conn(url: str) -> Iterator[Connection]:
    session = Connection(url)
    try:
        session.execute("CREATE TABLE t (i BIGINT PRIMARY KEY, s TEXT)")
        session.execute("INSERT INTO t VALUES (1, 'one'), (2, 'two')")
        session.reads()  # (sent now, not with the test's first transaction)
        yield session
    finally:
        session.close()


def value(conn: Connection, i: int = 1) -> Any:
    row = conn.execute(READ, (i,)).fetchone()
    return row[0] if row is not None else None


def test_a_read_sent_ahead_comes_with_the_round_trip_before_it(conn: Connection) -> None:
    count = Counted(conn)
    conn.execute("BEGIN")
    conn.ahead(READ, (2,))
    assert conn.execute("SELECT count(*) FROM t").fetchone() == (2,)
    assert count.trips == 1
    assert value(conn, 2) == "two"
    assert value(conn, 2) == "two"  # (and again: nothing could have changed it)
    assert count.trips == 1
    assert value(conn, 1) == "one"  # what was not sent ahead is read
    assert count.trips == 2
    conn.execute("COMMIT")


def test_a_write_a_lock_or_a_rollback_makes_what_was_read_stale(conn: Connection,
                                                                 url: str) -> None:
    conn.execute("BEGIN")
    assert value(conn) == "one"
    conn.execute("UPDATE t SET s=? WHERE i=?", ("uno", 1))
    assert value(conn) == "uno"
    conn.execute("SAVEPOINT sp1")
    assert value(conn) == "uno"  # (a savepoint changes nothing)
    conn.execute("UPDATE t SET s=? WHERE i=?", ("ein", 1))
    assert value(conn) == "ein"
    conn.execute("ROLLBACK TO sp1")
    assert value(conn) == "uno"
    conn.execute("RELEASE sp1")
    assert value(conn, 2) == "two"
    with psycopg.connect(url, autocommit=True) as other:  # what a lock's holder wrote
        other.execute("UPDATE t SET s='deux' WHERE i=2")
    conn.later("SELECT pg_advisory_xact_lock(?, ?)", (9, 9))
    assert value(conn, 2) == "deux"
    with psycopg.connect(url, autocommit=True) as other:
        other.execute("UPDATE t SET s='dos' WHERE i=2")
    assert conn.execute("SELECT id, pg_advisory_xact_lock(?, CAST(id AS INTEGER)) FROM "
                        "(SELECT 1 AS id) AS x", (9,)).fetchall() == [(1, "")]
    assert value(conn, 2) == "dos"
    conn.execute("COMMIT")


def test_outside_a_transaction_every_read_goes_to_the_server(conn: Connection,
                                                               url: str) -> None:
    assert value(conn, 2) == "two"
    with psycopg.connect(url, autocommit=True) as other:
        other.execute("UPDATE t SET s='zwei' WHERE i=2")
    assert value(conn, 2) == "zwei"
    # A session lock's answer is the server's each time (the job lead asks again).
    assert conn.execute("SELECT pg_try_advisory_lock(?, ?)", (8, 8)).fetchone() == (True,)
    with psycopg.connect(url, autocommit=True) as other:
        assert other.execute("SELECT pg_try_advisory_lock(8, 8)").fetchone() == (False,)
    conn.execute("SELECT pg_advisory_unlock(?, ?)", (8, 8))
    assert conn.execute("SELECT pg_try_advisory_lock(?, ?)", (8, 8)).fetchone() == (True,)


def test_a_long_read_is_not_kept(conn: Connection, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pgsession, "KEPT_ROWS", 1)
    count = Counted(conn)
    conn.execute("BEGIN")
    everything = "SELECT i FROM t ORDER BY i"
    for _ in range(2):
        assert conn.execute(everything).fetchall() == [(1,), (2,)]
        assert value(conn) == "one"
    assert count.trips == 3  # the long read twice, the short one once
    conn.execute("ROLLBACK")


def test_a_new_transaction_reads_afresh(conn: Connection, url: str) -> None:
    conn.execute("BEGIN")
    assert value(conn) == "one"
    conn.execute("COMMIT")
    with psycopg.connect(url, autocommit=True) as other:
        other.execute("UPDATE t SET s='une' WHERE i=1")
    conn.execute("BEGIN")
    assert value(conn) == "une"
    conn.execute("ROLLBACK")


async def test_commands_make_the_round_trips_they_should(url: str) -> None:
    """What goes with the message's round trip is the command's first reads, named for
    its ladder as this process last saw it. A report is three round trips (the message,
    the ladder and the two players; the pair's recent games; the commit), two once the
    process has seen both players (their games come with them, by their ids then). The
    standings three (the message, the ladder, the page and its count; the page's names
    and day ranks; the commit), two once the process has seen that page's players (in
    any order). A profile three once the player was seen (the message, the ladder, the
    player and what the profile reads of them, `Repo.expect`; the player's place,
    counted by their rating; the commit); a repeated message two."""
    async with PgStore(url, lanes=1) as store:
        chat = Chat(store)
        await chat.ladder("warlight", "confirm=false")
        await chat.join("alice", "bob", "carol")
        await chat.ok("alice", "/report win @bob", message_id="m1")
        assert store.lanes[0].conn is not None
        count = Counted(store.lanes[0].conn)

        async def trips(name: str, text: str, message: str) -> int:
            count.trips = 0
            await chat.ok(name, text, message_id=message)
            return count.trips

        assert await trips("bob", "/report win @carol", "m2") == 3  # (carol is new here)
        assert await trips("carol", "/report win @alice", "m2b") == 2
        assert await trips("carol", "/standings", "m3") == 3
        await chat.ok("alice", "/report win @carol", message_id="m3b")  # (a new order)
        assert await trips("carol", "/standings", "m3c") == 2
        assert await trips("carol", "/profile @alice", "m4") == 3
        count.trips = 0  # a repeated message: its reply, in one round trip and the commit
        assert await chat.text("bob", "/report win @carol", message_id="m2") == \
            await chat.text("bob", "/report win @carol", message_id="m2")
        assert count.trips == 4


async def test_a_server_on_this_machine_is_reached_through_its_socket() -> None:
    """`python -m bench --scale-out` reaches its server as libpq does by default on the
    server's machine: through the Unix socket, not TCP."""
    with postgres.cluster(local=True) as server:
        url = await postgres.fresh_database(server)
        assert "127.0.0.1" not in url
        async with PgStore(url, lanes=1) as store:
            chat = Chat(store)
            await chat.ladder("duel", "confirm=false")
            await chat.join("alice", "bob")
            assert "Match #1" in await chat.ok("alice", "/report win @bob")
            # (inet_server_addr is NULL on a Unix socket; the schema is the test's own)
            assert await store.run(lambda repo: repo.conn.execute(
                "SELECT inet_server_addr() IS NULL, current_schema()").fetchone(),
                commit=False) == (True, url.rsplit("%3D", 1)[1])


async def test_a_wrong_guess_of_the_players_costs_a_read_not_the_answer(url: str) -> None:
    """A report's games are sent ahead by the ids this process saw its players have; if
    those were wrong, the games read is the server's, by the real ids."""
    async with PgStore(url, lanes=1) as store:
        chat = Chat(store)
        await chat.ladder("duel")  # (reports wait for confirmation)
        await chat.join("alice", "bob", "carol")
        await chat.ok("carol", "/report win @alice", message_id="m0")  # #1
        await chat.ok("alice", "/report win @bob", message_id="m1")  # #2
        assert store.lanes[0].conn is not None
        ids = {key: found for key, found in store._guesses.items() if key[0] == "player"}
        assert len({ids[key] for key in ids if key[2].endswith(("alice", "bob", "carol"))}) == 3
        carol = next(ids[key] for key in ids if key[2].endswith("carol"))
        for key in [key for key in ids if key[2].endswith("bob")]:
            store._guesses[key] = carol  # alice's games with carol are sent ahead: #1
        count = Counted(store.lanes[0].conn)
        reply = await chat.text("alice", "/report win @bob", message_id="m2")
        assert "already reported as #2" in reply
        assert count.trips == 3  # the guessed read, then the real one


async def test_a_report_on_a_new_default_ladder_is_not_misled_by_the_old(url: str) -> None:
    """The reads a report makes first go with the message's, named for the chat's default
    ladder as this process last saw it; once another ladder is the default, those are
    the wrong ladder's reads, and the report still goes to the new default."""
    async with PgStore(url, lanes=1) as store:
        chat = Chat(store)
        await chat.ladder("duel", "confirm=false")  # "main"
        await chat.join("alice", "bob")
        await chat.ok("alice", "/report win @bob", message_id="m1")
        await chat.ok("mod", "/ladder create cup preset=duel confirm=false")
        await chat.ok("mod", "/ladder default cup")
        await chat.join("alice", "bob")
        cup = await chat.ok("bob", "/report win @alice", message_id="m2")
        assert cup.startswith("Match #1: bob beat alice. bob 1000 -> 1016")  # a new ladder's
        main = await chat.ok("alice", "/report win @bob ladder=main", message_id="m3")
        assert main.startswith("Match #2: alice beat bob. alice 1016 -> ")
