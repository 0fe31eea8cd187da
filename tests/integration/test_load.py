"""Load: 50 simulated users send 10,000 commands at once through the command layer, on
one SQLite database. Slow: `.venv/bin/python -m pytest -m slow -s` shows the numbers."""

from __future__ import annotations

import asyncio
import statistics
import time
from functools import partial
from pathlib import Path

import pytest

from storage.sqlite.store import SqliteStore
from tests.support.audit import audit
from tests.support.load import Clock, Outcomes, check_matches, run_command, setup_commands, stream

USERS = 50
EACH = 200


@pytest.mark.slow
async def test_fifty_users_ten_thousand_commands(tmp_path: Path) -> None:
    db = tmp_path / "load.db"
    clock = Clock()
    outcomes = Outcomes()
    latencies: list[float] = []
    unanswered: list[str] = []
    async with SqliteStore(db) as store:
        for who, text in setup_commands(USERS):
            reply = await store.run(partial(run_command, clock=clock.tick, who=who, text=text))
            assert reply is not None and not reply.error, reply

        async def player(index: int) -> None:
            who = f"u{index:02d}"
            for text in stream(USERS, index, EACH):
                began = time.perf_counter()
                reply = await store.run(partial(run_command, clock=clock.tick, who=who,
                                                text=text))
                latencies.append(time.perf_counter() - began)
                if reply is None or not reply.said.strip():
                    unanswered.append(text)
                    continue
                outcomes.note(text, reply)

        began = time.perf_counter()
        await asyncio.gather(*(player(i) for i in range(USERS)))
        wall = time.perf_counter() - began
    assert unanswered == []
    assert len(latencies) == USERS * EACH
    counts = await check_matches(db, outcomes)
    assert counts["main"] > 1000 and counts["pos"] > 50  # the load did play (not all refused)
    await audit(db)  # final standings equal a replay of the accepted events, from scratch
    p99 = statistics.quantiles(latencies, n=100)[98]
    print(f"\nload: {len(latencies)} commands from {USERS} users in {wall:.2f} s = "
          f"{len(latencies) / wall:,.0f} commands/s; latency median "
          f"{statistics.median(latencies) * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms; "
          f"matches main={counts['main']} pos={counts['pos']}")
