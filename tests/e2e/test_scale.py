"""Scale-out: the same bot on PostgreSQL, several processes on one database, and moving
a community from SQLite to PostgreSQL and back."""

from __future__ import annotations

import asyncio
import json
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from storage.postgres.store import PgStore
from storage.sqlite.store import SqliteStore
from storage.stores import store_for
from tests.support import depth, postgres
from tests.support.audit import audit
from tests.support.chat import Chat
from tests.support.console import export, ladderbot
from tests.support.corrected_scripts import DUEL, DUTCH, FAME, NHWC, WARLIGHT, scripts
from tests.support.load import (
    LADDERS,
    T0,
    TIGHT_MB,
    check_many,
    check_matches,
    many_setup,
    many_streams,
    outcomes_from,
    seed,
    setup_commands,
    stream,
)

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
SCRIPTS = {name: scripts(lines)[0] for name, lines in
           [("duel", DUEL), ("nhwc", NHWC), ("dutch", DUTCH), ("fame", FAME),
            ("warlight", WARLIGHT)]}
SCRIPTS["three-ladders"] = (FIXTURES / "schema1-script.txt").read_text()


def console(db: str, script: str) -> str:
    done = ladderbot("console", "--db", db, "--admin", "mod", stdin=script)
    assert done.returncode == 0, done.stderr
    return done.stdout


# (the fast suite: the three-ladders script, which plays duel, dutch and nhwc, and the
# rulebooks it leaves out; the corrected scripts of those three with the slow tests)
@pytest.mark.parametrize("name", depth.split(["three-ladders", "fame", "warlight", "duel",
                                              "dutch", "nhwc"], fast=3))
def test_console_scripts_give_the_same_bytes_on_sqlite_and_postgresql(
    tmp_path: Path, postgres_url: str, name: str
) -> None:
    on_sqlite = console(str(tmp_path / "l.db"), SCRIPTS[name])
    on_postgres = console(postgres_url, SCRIPTS[name])
    assert on_postgres == on_sqlite
    assert on_sqlite.count("bot: ") > 10
    assert export(postgres_url, "2026-02-01T00:00:00+00:00") == \
        export(str(tmp_path / "l.db"), "2026-02-01T00:00:00+00:00")


def test_migrate_db_to_postgresql_and_back_keeps_every_ladder(
    tmp_path: Path, postgres_url: str
) -> None:
    old = tmp_path / "old.db"
    old.write_bytes((FIXTURES / "schema1.db").read_bytes())  # written by the first release
    at = "2026-01-10T09:00:00+00:00"
    before = {name: export(str(old), at, name) for name in ("main", "pos", "nl")}
    done = ladderbot("migrate-db", "--from", str(old), "--to", postgres_url)
    assert done.returncode == 0, done.stderr
    assert "Every ladder (3) exports the same" in done.stdout
    assert {name: export(postgres_url, at, name) for name in before} == before
    # a new ladder on PostgreSQL numbers on from the copied ones
    assert "Ladder fresh created" in console(postgres_url, "@mod: /ladder create fresh "
                                                           "preset=duel\n")
    again = ladderbot("migrate-db", "--from", str(old), "--to", postgres_url)
    assert again.returncode == 1 and "already has ladders" in again.stderr
    back = tmp_path / "back.db"
    done = ladderbot("migrate-db", "--from", postgres_url, "--to", str(back))
    assert done.returncode == 0, done.stderr
    assert {name: export(str(back), at, name) for name in before} == before
    assert export(str(back), at, "fresh")["ladder"] == "fresh"


async def test_one_process_at_a_time_runs_the_jobs(tmp_path: Path, postgres_url: str) -> None:
    for target in (str(tmp_path / "l.db"), postgres_url):
        first, second = store_for(target), store_for(target)
        async with first, second:
            assert await first.leads_jobs() is True
            assert await second.leads_jobs() is False
            await first.close()  # the leader stops (or dies): the lead passes on
            assert await second.leads_jobs() is True


def test_a_postgresql_url_is_not_a_file_to_back_up(postgres_url: str, tmp_path: Path) -> None:
    done = ladderbot("backup", str(tmp_path / "b.db"), "--db", postgres_url)
    assert done.returncode == 1 and "pg_dump" in done.stderr


def worker(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "tests.support.crash_worker", *args], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


async def finish(proc: subprocess.Popen[str]) -> list[str]:
    out, err = await asyncio.to_thread(proc.communicate, timeout=600)
    assert proc.returncode == 0, err
    return out.splitlines()


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
async def test_each_job_once_across_processes(tmp_path: Path, backend: str,
                                              request: pytest.FixtureRequest) -> None:
    target = str(tmp_path / "l.db") if backend == "sqlite" else \
        await postgres.fresh_database(request.getfixturevalue("postgres_server"))
    players = [f"u{i:02d}" for i in range(20)]
    await seed(target, [("mod", "/ladder create main preset=duel"),
                        *[(p, "/join") for p in players],
                        *[(players[i], f"/report win @{players[(i + 1) % 20]}")
                          for i in range(20)]])
    later = str(T0 + 3 * 86_400)  # twenty automatic confirmations are due
    # One process starts its scheduler while in another twenty commands arrive at once,
    # each catching the ladder up first: every confirmation happens, and only once.
    scheduler, commands = worker("jobs", target, later), worker("touch", target, later, "20")
    posted = [json.loads(line.split(" ", 1)[1])
              for proc in (scheduler, commands) for line in await finish(proc)]
    confirmed = [int(m) for text in posted
                 for m in re.findall(r"Match #(\d+) \([^)]*\) is confirmed", text)]
    assert sorted(confirmed) == list(range(1, 21))
    assert await audit(target) == {1: 20}


async def in_two_processes(db: str, texts: dict[str, list[str]], folder: Path,
                           *options: str) -> tuple[dict[str, str], float]:
    """Every user's commands (message ids `WHO-N`), the users split between two bot
    processes on one database (`options`: the worker's, after its plan): the answers by
    message id, and the seconds it took."""
    halves: list[dict[str, Any]] = [{}, {}]
    for i, (who, commands) in enumerate(texts.items()):
        halves[i % 2][who] = [(f"{who}-{n}", t) for n, t in enumerate(commands)]
    procs = []
    began = time.perf_counter()
    for i, half in enumerate(halves):
        plan = folder / f"plan{i}.json"
        plan.write_text(json.dumps(half))
        procs.append(worker("load", db, str(plan), *options))
    answers: dict[str, str] = {}
    for proc in procs:
        for line in await finish(proc):
            _, message_id, answer = line.split(" ", 2)
            answers[message_id] = json.loads(answer)
    return answers, time.perf_counter() - began


@pytest.mark.slow
async def test_two_processes_under_load_on_postgresql(postgres_url: str,
                                                      tmp_path: Path) -> None:
    users, each = 50, 200
    await seed(postgres_url, setup_commands(users))
    texts = {f"u{i:02d}": stream(users, i, each, seed=5) for i in range(users)}
    answers, wall = await in_two_processes(postgres_url, texts, tmp_path)
    assert len(answers) == users * each and all(a.strip() for a in answers.values())
    outcomes = outcomes_from(texts, answers)
    counts = await check_matches(postgres_url, outcomes)  # nothing lost, nothing doubled
    assert counts["main"] > 1000
    await audit(postgres_url)  # standings equal a replay of the log
    print(f"\ntwo processes on PostgreSQL: {users * each} commands in {wall:.1f} s "
          f"({users * each / wall:,.0f}/s, every command on one ladder's lock); matches "
          f"main={counts['main']} pos={counts['pos']}, none lost or doubled")


def test_stores_for_targets(tmp_path: Path) -> None:
    assert isinstance(store_for("postgresql://u@h/db"), PgStore)
    assert isinstance(store_for("postgres://u@h/db"), PgStore)
    assert type(store_for(str(tmp_path / "x.db"))) is SqliteStore


async def test_a_lost_server_connection_is_made_again(postgres_url: str) -> None:
    import psycopg

    async with PgStore(postgres_url, lanes=1) as store:
        chat = Chat(store)
        await chat.ladder("duel", "confirm=false")
        await chat.join("alice", "bob")
        assert await store.leads_jobs()
        pid = await store.run(lambda repo: repo.conn.execute(
            "SELECT pg_backend_pid()").fetchone()[0], commit=False)
        # the server ends the session, as a restart or a failover would
        async with await psycopg.AsyncConnection.connect(postgres_url,
                                                         autocommit=True) as admin:
            await admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
        with pytest.raises((psycopg.Error, OSError)):
            await chat.say("alice", "/report win @bob")  # this one may have been lost...
        assert "Match #1" in await chat.ok("alice", "/report win @bob")  # ...then it works
        assert await store.leads_jobs()  # the lead is taken again on the new connection


async def test_a_newer_postgresql_database_is_refused_untouched(postgres_url: str) -> None:
    import psycopg

    from storage.sql.versions import SchemaTooNew

    async with PgStore(postgres_url):
        pass  # made by this version
    async with await psycopg.AsyncConnection.connect(postgres_url, autocommit=True) as admin:
        await admin.execute("UPDATE ladderbot_schema SET version = 999")
        with pytest.raises(SchemaTooNew, match=r"schema version 999.*was not changed"):
            async with PgStore(postgres_url):
                pass

        async def one(sql: str) -> object:
            row = await (await admin.execute(sql)).fetchone()
            return None if row is None else row[0]

        assert await one("SELECT version FROM ladderbot_schema") == 999
        assert await one("SELECT count(*) FROM ladders") == 0


@pytest.mark.slow
async def test_two_processes_under_load_across_200_ladders(postgres_url: str,
                                                           tmp_path: Path) -> None:
    """The scale-out's shape: 200 chats of 12 players, each chat's players split between
    two processes, so that both work on every ladder at once (each ladder's lock), each
    process holding the standings of a few dozen (TIGHT_MB): the others are let go of,
    their heads kept, and read again, while the other process moves their logs on."""
    await seed(postgres_url, many_setup())
    texts = many_streams(3, seed=3)
    answers, wall = await in_two_processes(postgres_url, texts, tmp_path, str(TIGHT_MB))
    sent = sum(map(len, texts.values()))
    assert len(answers) == sent and all(a.strip() for a in answers.values())
    matches = await check_many(postgres_url, texts, answers)  # none lost, none doubled
    assert matches > LADDERS * 4  # the load did play on every ladder
    counts = await audit(postgres_url)  # standings equal a replay of each log
    assert len(counts) == LADDERS
    print(f"\ntwo processes on PostgreSQL, {LADDERS} ladders: {sent} commands in {wall:.1f} s "
          f"({sent / wall:,.0f}/s); {matches} matches, none lost or doubled")


async def test_one_chats_units_take_turns_and_others_pass(postgres_url: str) -> None:
    """PostgreSQL's store runs a chat's units one at a time (`key`), so a second unit of
    a busy chat does not hold a connection waiting for its ladder's lock: another
    chat's unit runs on it meanwhile."""
    import threading

    release, began = threading.Event(), threading.Event()
    started: list[str] = []

    def unit(name: str, wait: bool = False) -> Any:
        def work(repo: Any) -> str:
            started.append(name)
            if wait:
                began.set()
                assert release.wait(30)
            return name
        return work

    async with PgStore(postgres_url, lanes=2) as store:
        first = asyncio.create_task(store.run(unit("a1", wait=True), key="a"))
        assert await asyncio.to_thread(began.wait, 30)
        second = asyncio.create_task(store.run(unit("a2"), key="a"))
        await asyncio.sleep(0)  # (a2 asks for its connection first)
        assert await store.run(unit("b1"), key="b") == "b1"  # on the other connection
        assert started == ["a1", "b1"]  # a2 waits its turn, holding no connection
        release.set()
        assert [await first, await second] == ["a1", "a2"]
        assert started == ["a1", "b1", "a2"]


async def test_units_that_queue_up_commit_together_and_fail_alone(postgres_url: str) -> None:
    """While PostgreSQL's connections are busy, other chats' units wait, then commit in
    one transaction (group commit); a unit that raises is rolled back alone."""
    import threading

    release, began = threading.Event(), threading.Event()

    def transaction(repo: Any) -> int:
        return int(repo.conn.execute("SELECT txid_current()").fetchone()[0])

    def busy(repo: Any) -> int:
        began.set()
        assert release.wait(30)
        return transaction(repo)

    def insert(value: int, fails: bool = False) -> Any:
        def work(repo: Any) -> int:
            repo.conn.execute("INSERT INTO grouped VALUES (?)", (value,))
            if fails:
                raise ValueError(f"unit {value} fails")
            return transaction(repo)
        return work

    async with PgStore(postgres_url, lanes=1) as store:
        await store.run(lambda repo: repo.conn.execute("CREATE TABLE grouped (x BIGINT)"))
        first = asyncio.create_task(store.run(busy, key="a"))
        assert await asyncio.to_thread(began.wait, 30)
        queued = [asyncio.create_task(store.run(insert(n, fails=n == 2), key=f"chat{n}"))
                  for n in (1, 2, 3)]
        await asyncio.sleep(0)  # (they queue up behind the busy connection)
        release.set()
        alone = await first
        one, failed, three = await asyncio.gather(*queued, return_exceptions=True)
        assert one == three != alone  # one transaction for the queued units, after the first
        assert isinstance(failed, ValueError) and str(failed) == "unit 2 fails"
        rows = await store.run(lambda repo: repo.conn.execute(
            "SELECT x FROM grouped ORDER BY x").fetchall(), commit=False)
        assert rows == [(1,), (3,)]


async def test_a_units_write_refused_with_the_next_units_reads_fails_its_own_unit(
        postgres_url: str) -> None:
    """PostgreSQL's store sends a unit's writes with the next read, which in a group may
    be the next unit's: a write the server refuses there fails the unit that made it,
    and the next unit runs as if alone, never the other way round (a command answered
    as done whose write was rolled back)."""
    import threading

    from psycopg import errors

    release, began = threading.Event(), threading.Event()

    def busy(repo: Any) -> None:
        began.set()
        assert release.wait(30)

    def refused(repo: Any) -> str:
        repo.conn.execute("INSERT INTO positive VALUES (?)", (-1,))  # waits: no read follows
        return "written"

    def reads(repo: Any) -> int:
        repo.conn.execute("INSERT INTO positive VALUES (?)", (2,))
        return int(repo.conn.execute("SELECT count(*) FROM positive").fetchone()[0])

    async with PgStore(postgres_url, lanes=1) as store:
        await store.run(lambda repo: repo.conn.execute(
            "CREATE TABLE positive (x BIGINT CHECK (x > 0))"))
        first = asyncio.create_task(store.run(busy, key="a"))
        assert await asyncio.to_thread(began.wait, 30)
        bad = asyncio.create_task(store.run(refused, key="b"))
        good = asyncio.create_task(store.run(reads, key="c"))
        await asyncio.sleep(0)  # (both queue up behind the busy connection)
        release.set()
        await first
        outcomes = await asyncio.gather(bad, good, return_exceptions=True)
        assert isinstance(outcomes[0], errors.CheckViolation)
        assert outcomes[1] == 1
        assert await store.run(lambda repo: repo.conn.execute(
            "SELECT x FROM positive").fetchall(), commit=False) == [(2,)]


async def test_a_write_refused_at_commit_leaves_the_connection_usable(postgres_url: str) -> None:
    """A unit's last writes go with its COMMIT; when the server refuses one, the unit
    fails and its transaction is rolled back, not left open for the next unit."""
    from psycopg import errors

    async with PgStore(postgres_url, lanes=1) as store:
        await store.run(lambda repo: repo.conn.execute(
            "CREATE TABLE positive (x BIGINT CHECK (x > 0))"))
        with pytest.raises(errors.CheckViolation):
            await store.run(lambda repo: repo.conn.execute("INSERT INTO positive VALUES (-1)"))
        await store.run(lambda repo: repo.conn.execute("INSERT INTO positive VALUES (3)"))
        assert await store.run(lambda repo: repo.conn.execute(
            "SELECT x FROM positive").fetchall(), commit=False) == [(3,)]
