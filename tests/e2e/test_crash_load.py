"""Crashes under load: a bot process SIGKILLed at random moments while 50 users send
10,000 commands, restarted each time, the users re-sending what was not answered (with
the same message ids, as Telegram and Discord redeliver). Slow."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import re
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from storage.postgres.store import is_url
from storage.stores import store_for
from tests.support import postgres
from tests.support.audit import audit, integrity
from tests.support.bot_process import kill_at
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
USERS = 50
EACH = 200


def worker(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "tests.support.crash_worker", *args], cwd=ROOT,
                            stdout=subprocess.PIPE, text=True)


async def _seen(db: str) -> set[str]:
    """The message ids the database has answered (committed with their reply)."""
    if not is_url(db):
        assert integrity(Path(db)) == "ok"
        with contextlib.closing(sqlite3.connect(db)) as conn:
            return {r[0] for r in conn.execute("SELECT message FROM seen_messages")}
    async with store_for(db) as store:
        return set(await store.run(lambda repo: [r[0] for r in repo.conn.execute(
            "SELECT message FROM seen_messages").fetchall()], commit=False))


async def _until_all_answered(db: str, texts: dict[str, list[str]], folder: Path,
                              kills_between: tuple[int, int], *options: str
                              ) -> tuple[dict[str, str], int, int]:
    """Run a bot process on every user's commands, SIGKILL it after a random number of
    answers, start it again with what got no answer (the same message ids, in order),
    until everything is answered: (answers, kills, done but unanswered)."""
    queue = {who: [(f"{who}-{n}", text) for n, text in enumerate(commands)]
             for who, commands in texts.items()}
    answers: dict[str, str] = {}
    rng = random.Random(2026)
    kills = 0
    unanswered_but_done = 0  # committed, then killed before the answer went out
    while any(queue.values()):
        plan = folder / "plan.json"
        plan.write_text(json.dumps(queue))
        proc = worker("load", db, str(plan), *options)
        assert proc.stdout is not None
        kill_after = rng.randint(*kills_between)  # answers before the kill, this run
        seen = 0
        try:
            while True:
                line = await asyncio.to_thread(proc.stdout.readline)
                if not line:
                    break
                _, message_id, answer = line.rstrip("\n").split(" ", 2)
                assert message_id not in answers, f"{message_id} was answered twice"
                answers[message_id] = json.loads(answer)
                seen += 1
                if seen == kill_after:
                    os.kill(proc.pid, signal.SIGKILL)
                    kills += 1
        finally:
            proc.kill()
            proc.wait(timeout=60)
            proc.stdout.close()
        unanswered_but_done += len(await _seen(db) - answers.keys())
        # the users re-send, in order, whatever got no answer
        queue = {who: [(m, t) for m, t in cmds if m not in answers]
                 for who, cmds in queue.items()}
    return answers, kills, unanswered_but_done


@pytest.mark.slow
async def test_sigkill_at_random_moments_under_load(tmp_path: Path) -> None:
    db = tmp_path / "crash.db"
    await seed(db, setup_commands(USERS))
    texts = {f"u{i:02d}": stream(USERS, i, EACH, seed=11) for i in range(USERS)}
    answers, kills, unanswered_but_done = await _until_all_answered(str(db), texts, tmp_path,
                                                                    (100, 2500))
    assert kills >= 3 and unanswered_but_done > 0  # the case idempotency is for did occur
    assert len(answers) == USERS * EACH and all(a.strip() for a in answers.values())
    outcomes = outcomes_from(texts, answers)
    counts = await check_matches(db, outcomes)  # nothing lost, nothing doubled
    assert counts["main"] > 1000
    await audit(db)  # nothing half-applied: standings equal a replay of the log
    print(f"\ncrashes: {kills} SIGKILLs in {USERS * EACH} commands, "
          f"{unanswered_but_done} done but unanswered and sent again; matches "
          f"main={counts['main']} pos={counts['pos']}, none lost or doubled")


@pytest.mark.slow
@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
async def test_sigkill_under_load_across_200_ladders(tmp_path: Path, backend: str,
                                                     request: pytest.FixtureRequest) -> None:
    """The crash test in the scale-out's shape: 200 chats of 12 players, on either store,
    the process holding the standings of a few dozen (TIGHT_MB): a kill falls between a
    unit and the heads it let go of, and in the middle of keeping them."""
    db = str(tmp_path / "crash.db") if backend == "sqlite" else \
        await postgres.fresh_database(request.getfixturevalue("postgres_server"))
    await seed(db, many_setup())
    texts = many_streams(2, seed=7)
    answers, kills, unanswered_but_done = await _until_all_answered(
        db, texts, tmp_path, (100, 1200), str(TIGHT_MB))
    assert kills >= 2 and unanswered_but_done > 0
    assert len(answers) == sum(map(len, texts.values()))
    assert all(a.strip() for a in answers.values())
    matches = await check_many(db, texts, answers)  # nothing lost, nothing doubled
    assert matches > LADDERS * 2
    assert len(await audit(db)) == LADDERS  # every ladder equals a replay of its log
    print(f"\ncrashes across {LADDERS} ladders on {backend}: {kills} SIGKILLs, "
          f"{unanswered_but_done} done but unanswered and sent again; {matches} matches")


@pytest.mark.slow
async def test_scheduled_jobs_interrupted_mid_run_complete_once(tmp_path: Path) -> None:
    db = tmp_path / "jobs.db"
    players = [f"u{i:02d}" for i in range(20)]
    reports = [(players[i], f"/report win @{players[(i + 1) % 20]}") for i in range(20)]
    await seed(db, [("mod", "/ladder create main preset=duel"),
                    *[(p, "/join") for p in players], *reports])
    later = T0 + 3 * 86_400  # every report's window has passed: 20 confirmations are due

    await kill_at(worker("jobs", str(db), str(later), "hang"), "MID-JOB")
    assert integrity(db) == "ok"
    with_pending = await audit(db)
    assert with_pending == {1: 0}  # the killed catch-up left nothing behind

    posted = []
    for _ in range(2):  # restart, and restart again: the jobs run once, post once
        done = await asyncio.to_thread(subprocess.run, [sys.executable, "-m",
                                                        "tests.support.crash_worker", "jobs",
                                                        str(db), str(later)],
                                       cwd=ROOT, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        posted += [json.loads(line.split(" ", 1)[1]) for line in done.stdout.splitlines()]
    confirmed = [int(m) for text in posted
                 for m in re.findall(r"Match #(\d+) \([^)]*\) is confirmed", text)]
    assert sorted(confirmed) == list(range(1, 21))
    assert await audit(db) == {1: 20}
