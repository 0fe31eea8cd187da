"""The rating systems of the second release measured: Glicko-2's and OpenSkill's replay
(the fold every long replay runs), OpenSkill's against the library's own `rate()` loop
on the same games, and an old correction on a Glicko-2 ladder through the store."""

from __future__ import annotations

import time
from pathlib import Path

from bench.measures import Bot, median_of, old_corrections, pairs
from core.domain.batch import fold_rows
from core.domain.collector import paused
from core.domain.events import PlayerJoined
from core.domain.settings import preset
from core.domain.state import replay
from storage.sql.tuning import LONGEST_BATCH
from storage.sqlite.store import SqliteStore

T0 = 1767607200  # 2026-01-05 10:00 UTC


def replay_per_s(name: str, players: int, played: list[tuple[int, int]],
                 step: int = 60) -> float:
    """Games a second of the fold every long replay runs on a `name` ladder (median of
    three): the stored games streamed as plain values (a game every `step` seconds: a
    minute lets days go by, so Glicko-2's idle RD growth has work), folded in runs of
    `LONGEST_BATCH` by `core.domain.batch.fold_rows`, anti-farming and the counts included."""
    samples = []
    for _ in range(3):
        state = replay(preset(name), [PlayerJoined(T0, p) for p in range(players)])
        elapsed = 0.0
        with paused():  # as the stored replay runs it
            for first in range(0, len(played), LONGEST_BATCH):
                # Rows as the store reads them (not timed).
                run = [(T0 + step * i, a, b, False, True, None, T0 + step * i, i + 1)
                       for i, (a, b) in enumerate(played[first:first + LONGEST_BATCH], first)]
                started = time.perf_counter()
                fold_rows(state, run)
                elapsed += time.perf_counter() - started
        samples.append(len(played) / elapsed)
    return median_of(samples)


def library_per_s(players: int, played: list[tuple[int, int]], ranked: bool = True
                  ) -> float:
    """Games a second of openskill's own `rate()` loop over the same duels (with the
    finishing places our rulebook passes it, or `ranked=False` without)."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    samples = []
    for _ in range(3):
        ratings = [model.rating() for _ in range(players)]
        started = time.perf_counter()
        with paused():
            for a, b in played:
                [[ratings[a]], [ratings[b]]] = model.rate([[ratings[a]], [ratings[b]]],
                                                          ranks=[1.0, 2.0] if ranked else None)
        samples.append(len(played) / (time.perf_counter() - started))
    return median_of(samples)


async def glicko2_old_correction(folder: Path, players: int,
                                 played: list[tuple[int, int]]) -> float:
    """Seconds to void the middle game of a Glicko-2 ladder (then restore it, then void it
    again): everything after it re-derived, through the store (median of the three)."""
    async with SqliteStore(folder / "glicko2.db") as store:
        bot = Bot(store)
        await bot.one("mod", "/ladder create main preset=glicko2 confirm=false", True)
        await bot.many((f"p{i}", "/join") for i in range(players))
        await bot.many(((f"p{a}", f"/report win @p{b} again") for a, b in played), step=60)
        return median_of(await old_corrections(bot, len(played) // 2))


def engine_vs_openskill(players: int, matches: int) -> float:
    """Matches per second of the duel replay over openskill's 1v1 PlackettLuce rate().

    Ours is the fold every long replay runs where it writes no outcome (loading a ladder,
    what a correction or `restate` folds before the part they rewrite): stored
    one-on-one matches, streamed as plain values, folded in runs of `LONGEST_BATCH` by
    `core.domain.batch.fold_rows` (anti-farming, calibration counts, the floor and season gains
    included).
    """
    played = pairs(players, matches, seed=5)
    return (replay_per_s("duel", players, played, step=1)
            / library_per_s(players, played, ranked=False))
