"""`python -m bench --ladders`: commands per second over 20, 200 and 2,000 active ladders in
one process, SQLite and PostgreSQL side by side in one run, with each process's peak memory
and the CPU a command costs (the bot's and the server's); and the cold load of one big
ladder (a command on it by a process that has not loaded it).

The ladders, streams and worker are `--scale-out`'s (bench/scale_out.py): every ladder
count plays the same total of commands, split evenly between its ladders, so more ladders
means fewer commands a ladder and more ladders a process must keep or load again. The
configurations take turns run by run, as in `--scale-out`.
"""

from __future__ import annotations

import asyncio
import statistics
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from bench.measures import Bot, pairs
from bench.scale_out import Timed, seed, timed_run
from storage.stores import store_for

COUNTS = (20, 200, 2000)
QUICK_COUNTS = (2, 20, 200)  # quick mode's, a tenth: seconds rather than minutes


def ladders_per_process(quick: bool, progress: bool, folder: str | None = None
                        ) -> dict[str, Any]:
    """Each ladder count's figures on both databases, the cold load, and the targets."""
    from tests.support import postgres

    counts = QUICK_COUNTS if quick else COUNTS
    total, runs = (600, 3) if quick else (20_000, 3)
    big = 5_000 if quick else 100_000
    with tempfile.TemporaryDirectory(dir=folder) as tmp, ExitStack() as stack:
        path = Path(tmp)
        server = stack.enter_context(postgres.cluster(durable=True, local=True))
        configurations: dict[str, tuple[str, int]] = {}
        for count in counts:
            configurations[f"sqlite_{count}"] = (str(path / f"ladders{count}.db"), count)
            configurations[f"postgresql_{count}"] = (
                asyncio.run(postgres.fresh_database(server)), count)
        for key, (db, count) in configurations.items():
            if progress:
                print(f"seeding {key} ...", flush=True)
            asyncio.run(seed(db, count))
        timed: dict[str, list[Timed]] = {key: [] for key in configurations}
        for run in range(runs):
            for key, (db, count) in configurations.items():
                timed[key].append(timed_run(db, 1, total // count, run, path, ladders=count))
            if progress:
                print(f"  round {run + 1}: " + ", ".join(
                    f"{key} {timed[key][-1].rate:,.0f}" for key in configurations), flush=True)
        cold = {"sqlite": asyncio.run(cold_load(str(path / "big.db"), big, progress)),
                "postgresql": asyncio.run(cold_load(
                    asyncio.run(postgres.fresh_database(server)), big, progress))}
    return _summary(timed, cold, counts, {"total_commands": total, "runs": runs,
                                          "players": 12, "big_ladder_players": big})


def _summary(timed: dict[str, list[Timed]], cold: dict[str, tuple[float, float]],
             counts: tuple[int, ...],
             sizes: dict[str, int]) -> dict[str, Any]:
    def median(key: str, field: str) -> float:
        return float(statistics.median(getattr(t, field) for t in timed[key]))

    results: dict[str, Any] = {
        key: {"commands_per_s": round(median(key, "rate")),
              "bot_cpu_ms": round(median(key, "bot_cpu_ms"), 3),
              "server_cpu_ms": round(median(key, "server_cpu_ms"), 3),
              "peak_mb": round(max(t.peak_mb for t in timed[key]), 1)}
        for key in timed}
    results["cold_command_ms"] = {kind: round(ms[0], 1) for kind, ms in cold.items()}
    results["cold_after_crash_ms"] = {kind: round(ms[1], 1) for kind, ms in cold.items()}
    rate = {key: value["commands_per_s"] for key, value in results.items()
            if key in timed}
    cpu = {key: results[key]["bot_cpu_ms"] + results[key]["server_cpu_ms"] for key in timed}
    few, middle, most = counts
    results["targets_met"] = {
        "sqlite_most_of_fewest": rate[f"sqlite_{most}"] >= 0.9 * rate[f"sqlite_{few}"],
        "postgresql_most_of_fewest":
            rate[f"postgresql_{most}"] >= 0.9 * rate[f"postgresql_{few}"],
        "cold_command_ms": all(ms[0] <= 50 for ms in cold.values()),
        "postgresql_of_sqlite": rate[f"postgresql_{middle}"] >= 0.7 * rate[f"sqlite_{middle}"],
        "postgresql_cpu_of_sqlite": cpu[f"postgresql_{middle}"] <= 2 * cpu[f"sqlite_{middle}"],
    }
    results["sizes"] = {**sizes, "ladders": list(counts)}
    return results


async def cold_load(db: str, players: int, progress: bool, runs: int = 5
                    ) -> tuple[float, float]:
    """Milliseconds of one command (a report, which folds into the standings) on a ladder
    of `players` players and as many matches, by a store that has not loaded it: the
    median of `runs` fresh stores, each reading the head the one before kept
    (storage/sql/heads.py); then of fresh stores after one killed before it kept its own,
    which replay the log."""
    async with store_for(db) as store:
        bot = Bot(store)
        await bot.one("mod", "/ladder create main preset=duel confirm=false", True)
        if progress:
            print(f"{players:,} players join and play on {db.split('?')[0]} ...", flush=True)
        await bot.many((f"p{i}", "/join") for i in range(players))
        await bot.many(((f"p{a}", f"/report win @p{b}") for a, b in pairs(players, players)),
                       step=60)
        at = bot.at
    kept = [await _cold(db, at + run, run, True) for run in range(runs)]
    # (the first killed store still reads a head: the others replay)
    killed = [await _cold(db, at + runs + run, run, False) for run in range(runs + 1)][1:]
    return statistics.median(kept), statistics.median(killed)


async def _cold(db: str, at: int, run: int, keeps: bool) -> float:
    """One fresh store's report, in milliseconds; the store keeps its heads or is let go
    of as a killed process is."""
    async with store_for(db) as store:
        bot = Bot(store)
        bot.at = at
        began = time.perf_counter()
        reply = await bot.one(f"p{run}", f"/report win @p{run + 1} again")
        took = 1000 * (time.perf_counter() - began)
        assert not reply.error, reply
        if not keeps:
            store.cache.dropped(everything=True)
    return took
