"""The rating systems of the second release measured: Glicko-2's and OpenSkill's replay
(the fold every long replay runs), OpenSkill's against the library's own `rate()` loop
on the same games, and an old correction on a Glicko-2 ladder through the store."""

from __future__ import annotations

import time
from pathlib import Path

from core.collector import paused
from core.events import Event, MatchConfirmed, PlayerJoined
from core.model import Match, Result
from core.settings import preset
from core.state import replay
from storage.sqlite import SqliteStore

T0 = 1767607200  # 2026-01-05 10:00 UTC


def _median(samples: list[float]) -> float:
    return sorted(samples)[len(samples) // 2]


def _events(players: int, played: list[tuple[int, int]]) -> list[Event]:
    """Joins, then one-on-one games a minute apart (a game a minute: days go by, so
    Glicko-2's idle RD growth has work)."""
    joins: list[Event] = [PlayerJoined(T0, p) for p in range(players)]
    return joins + [MatchConfirmed(T0 + 60 * i, Match(i + 1, T0 + 60 * i, Result(((a,), (b,)))))
                    for i, (a, b) in enumerate(played)]


def replay_per_s(name: str, players: int, played: list[tuple[int, int]]) -> float:
    """Games a second of the fold over a whole log of a `name` ladder (median of three)."""
    events = _events(players, played)
    samples = []
    for _ in range(3):
        started = time.perf_counter()
        replay(preset(name), events, {})
        samples.append(len(played) / (time.perf_counter() - started))
    return _median(samples)


def library_per_s(players: int, played: list[tuple[int, int]]) -> float:
    """Games a second of openskill's own `rate()` loop over the same duels."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    samples = []
    for _ in range(3):
        ratings = [model.rating() for _ in range(players)]
        started = time.perf_counter()
        with paused():
            for a, b in played:
                [[ratings[a]], [ratings[b]]] = model.rate([[ratings[a]], [ratings[b]]],
                                                          ranks=[1.0, 2.0])
        samples.append(len(played) / (time.perf_counter() - started))
    return _median(samples)


async def glicko2_old_correction(folder: Path, players: int,
                                 played: list[tuple[int, int]]) -> float:
    """Seconds to void the middle game of a Glicko-2 ladder (then restore it, then void it
    again): everything after it re-derived, through the store (median of the three)."""
    from bench.measures import Bot, timed

    async with SqliteStore(folder / "glicko2.db") as store:
        bot = Bot(store)
        await bot.one("mod", "/ladder create main preset=glicko2 confirm=false", True)
        await bot.many((f"p{i}", "/join") for i in range(players))
        await bot.many(((f"p{a}", f"/report win @p{b} again") for a, b in played), step=60)
        middle = len(played) // 2
        samples = []
        for text in (f"/mod void {middle} bench", f"/mod set {middle} draw bench",
                     f"/mod void {middle} bench again"):
            seconds, reply = await timed(lambda t=text: bot.one("mod", t, moderator=True))
            assert not reply.error, reply.text
            samples.append(seconds)
        return _median(samples)
