"""`python -m bench --scale-out`: commands per second over 20 ladders, side by side in one
run: one process on SQLite, one on PostgreSQL, two on PostgreSQL.

Each ladder (a chat of its own, 12 players, duel without confirmation) gets a seeded
stream of chat messages: reports, standings and profiles, 15 simulated minutes apart.
Every configuration plays the same streams on a database of its own. A process is
`bench/scale_worker.py`; two processes split the ladders between them, as Discord's
shards split servers. PostgreSQL is a throwaway server like the tests' (tests/support/postgres.py)
but with PostgreSQL's default durable settings (fsync on), reached through its Unix
socket. Each number is the median of `runs` timed runs, each of fresh commands on the
same databases, the configurations taking turns run by run.
"""

from __future__ import annotations

import asyncio
import functools
import json
import random
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.scale_worker import STEP, T0, LadderClock, command
from bench.server_cpu import server_cpu_s
from storage.stores import store_for

ROOT = Path(__file__).resolve().parent.parent
LADDERS, PLAYERS = 20, 12


def chats(ladders: int = LADDERS) -> list[str]:
    return [f"ladder{i:02d}" for i in range(ladders)]


def players() -> list[str]:
    return [f"p{i:02d}" for i in range(PLAYERS)]


def stream(chat: str, count: int, seed: int) -> list[tuple[str, str]]:
    """(player, text) of one ladder's commands, seeded."""
    rng = random.Random(f"{chat}-{seed}")
    found = []
    for _ in range(count):
        who, them = rng.sample(players(), 2)
        text = rng.choices([f"/report win @{them}", f"/report loss @{them}", "/standings",
                            f"/profile @{them}"], weights=[55, 15, 20, 10])[0]
        found.append((who, text))
    return found


async def seed(db: str, ladders: int = LADDERS) -> None:
    """The ladders and their players, a ladder's commands in one transaction."""
    setup = [("mod", "/ladder create main preset=duel confirm=false")]
    setup += [(name, "/join") for name in players()]

    def ladder(repo: Any, chat: str) -> None:
        clock = LadderClock(T0 - 3600)
        for n, (who, text) in enumerate(setup):
            reply = command(repo, chat=chat, clock=clock, who=who, text=text, message=f"s{n}")
            assert reply is not None and not reply.error, reply

    async with store_for(db) as store:
        for chat in chats(ladders):
            await store.run(functools.partial(ladder, chat=chat))


def _workers(db: str, plans: list[dict[str, Any]], start: int,
             folder: Path) -> list[subprocess.Popen[str]]:
    procs = []
    for i, plan in enumerate(plans):
        path = folder / f"plan{i}.json"
        path.write_text(json.dumps(plan))
        procs.append(subprocess.Popen(
            [sys.executable, "-m", "bench.scale_worker", db, str(path), str(start)],
            cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True))
    return procs


@dataclass(frozen=True)
class Timed:
    """One timed run: commands per second; CPU milliseconds a command, the bot processes'
    and the database server's (0 for SQLite, which is the bot's own); the largest peak
    memory of a bot process (MB)."""

    rate: float
    bot_cpu_ms: float
    server_cpu_ms: float
    peak_mb: float


def timed_run(db: str, processes: int, count: int, run: int, folder: Path,
              ladders: int = LADDERS) -> Timed:
    """Every ladder's `count` commands, the ladders split between `processes` processes
    that start together."""
    plans: list[dict[str, Any]] = [{} for _ in range(processes)]
    for i, chat in enumerate(chats(ladders)):
        plans[i % processes][chat] = stream(chat, count, seed=run)
    # Each run's commands come after the seed's joins and after the run before.
    start = T0 + (run + 1) * (count + 10) * STEP
    procs = _workers(db, plans, start, folder)
    try:
        for proc in procs:
            assert proc.stdout is not None and proc.stdout.readline().strip() == "READY"
        server = server_cpu_s(db)
        for proc in procs:
            assert proc.stdin is not None
            proc.stdin.write("go\n")
            proc.stdin.flush()
        done = [proc.communicate(timeout=1800)[0].split() for proc in procs]
        server = server_cpu_s(db) - server
    finally:
        for proc in procs:
            proc.kill()
            proc.wait()
    # The processes start at the same moment: the run lasts as long as the slowest.
    took = max(float(line[1]) for line in done)
    commands = sum(int(line[2]) for line in done)
    return Timed(commands / took, 1000 * sum(float(line[4]) for line in done) / commands,
                 1000 * server / commands, max(float(line[5]) for line in done))


def _postgres(stack: ExitStack) -> Iterator[str]:
    """Fresh databases on one durable throwaway server, reached through its Unix socket
    (as a bot on the server's machine reaches it by default)."""
    from tests.support import postgres

    server = stack.enter_context(postgres.cluster(durable=True, local=True))
    while True:
        yield asyncio.run(postgres.fresh_database(server))


def scale_out(quick: bool, progress: bool, folder: str | None = None) -> dict[str, Any]:
    """The three configurations' commands per second, and whether the targets are met."""
    count, runs = (60, 3) if quick else (400, 3)
    with tempfile.TemporaryDirectory(dir=folder) as tmp, ExitStack() as stack:
        path = Path(tmp)
        if progress:
            print(f"{LADDERS} ladders x {count} commands, {runs} runs each ...", flush=True)
        databases = _postgres(stack)
        configurations = {"sqlite_1_process": (str(path / "scale.db"), 1),
                          "postgresql_1_process": (next(databases), 1),
                          "postgresql_2_processes": (next(databases), 2)}
        for db, _ in configurations.values():
            asyncio.run(seed(db))
        timed: dict[str, list[Timed]] = {key: [] for key in configurations}
        # A round runs each configuration once: the machine's speed drifts (by half within
        # minutes on a shared one), and so falls alike on all three.
        for run in range(runs):
            for key, (db, processes) in configurations.items():
                timed[key].append(timed_run(db, processes, count, run, path))
            if progress:
                print(f"  round {run + 1}: " + ", ".join(
                    f"{key} {timed[key][-1].rate:,.0f}" for key in configurations), flush=True)
    results: dict[str, Any] = {key: round(statistics.median(t.rate for t in found))
                               for key, found in timed.items()}
    results["bot_cpu_ms_per_command"] = {
        key: round(statistics.median(t.bot_cpu_ms for t in found), 3)
        for key, found in timed.items()}
    results["server_cpu_ms_per_command"] = {
        key: round(statistics.median(t.server_cpu_ms for t in found), 3)
        for key, found in timed.items()}
    one, two = results["postgresql_1_process"], results["postgresql_2_processes"]
    results["targets_met"] = {
        "postgresql_1_process": one >= 0.5 * results["sqlite_1_process"],
        "postgresql_2_processes": two >= 1.3 * one,
    }
    results["sizes"] = {"ladders": LADDERS, "players": PLAYERS, "commands_per_ladder": count,
                        "runs": runs}
    return results
