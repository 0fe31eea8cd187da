"""Glicko-2's fast replay: a run of plain one-on-one games folded together, as the
rulebook would fold them one by one (tests compare the two, to the bit).

Each game of `period=game` needs only its two players' values after their previous
games, so the run is cut into levels: a game's level is one more than the highest of
its players' previous games', and the games of one level, no player twice among them,
are rated at once by the same array arithmetic as a game alone (`glicko_math.games`). A
run of `period=day|week` only waits for its period's close.
"""

from __future__ import annotations

from itertools import pairwise
from typing import TYPE_CHECKING

import numpy as np

from core.domain.calendar import local_days
from core.domain.model import PlayerId, Timestamp
from core.domain.rulebooks.glicko_math import NEVER, WAITING, games

if TYPE_CHECKING:
    from core.domain.state import LadderState

# Each game's (note, a before, after, b before, after, a's RD after, b's RD after); an
# unrated game's RDs are None, as its changes keep none.
Told = list[tuple[str, float, float, float, float, float | None, float | None]]


def rate_run(state: LadderState, a: list[PlayerId], b: list[PlayerId], draw: list[bool],
              played: list[Timestamp], ids: list[int], kept: list[bool],
              tell: bool) -> Told | None:
    """Rate the run's `kept` games, in levels; with `tell`, what each game did."""
    players, settings = state.players, state.settings
    new_player = (settings.rd, settings.volatility, NEVER)
    before = {p: (players[p].rating, (players[p].extra or new_player)[0])
              for p in (*a, *b)} if tell else {}
    if settings.period != "game":
        for i, rated in enumerate(kept):
            if rated:
                state.pending.append((ids[i], a[i], b[i], 0.5 if draw[i] else 1.0))
        return _told(before, a, b, kept, [], [], WAITING) if tell else None
    rows = [i for i, rated in enumerate(kept) if rated]
    if not rows:
        return _told(before, a, b, kept, [], [], "") if tell else None
    first = np.asarray([a[i] for i in rows], dtype=np.int64)
    second = np.asarray([b[i] for i in rows], dtype=np.int64)
    size = int(max(first.max(), second.max())) + 1
    rating, rd, volatility, last, gain = (np.zeros(size) for _ in range(5))
    touched = np.unique(np.concatenate((first, second)))
    mine = [players[pid] for pid in touched.tolist()]
    rating[touched] = [p.rating for p in mine]
    gain[touched] = [p.season_gain for p in mine]
    rd[touched], volatility[touched], last[touched] = \
        np.array([p.extra or new_player for p in mine]).T
    day = local_days(np.asarray([played[i] for i in rows], dtype=np.int64),
                     settings.timezone).astype(np.float64)
    score = np.where(np.asarray([draw[i] for i in rows], dtype=bool), 0.5, 1.0)
    new_a, new_b = np.empty((len(rows), 2)), np.empty((len(rows), 2))  # rating, RD
    for game in _levels(first.tolist(), second.tolist(), size):
        x, y = first[game], second[game]
        both, days = np.concatenate((x, y)), np.concatenate((day[game], day[game]))
        r, new_rd, new_volatility = games(
            rating[both], rd[both], volatility[both], last[both], days,
            np.concatenate((score[game], 1.0 - score[game])), settings)
        gain[both] += r - rating[both]
        rating[both], rd[both], volatility[both], last[both] = r, new_rd, new_volatility, days
        new_a[game, 0], new_b[game, 0] = r[:len(game)], r[len(game):]
        new_a[game, 1], new_b[game, 1] = new_rd[:len(game)], new_rd[len(game):]
    for player, now, gained, deviation, sigma, day_number in zip(
            mine, rating[touched].tolist(), gain[touched].tolist(), rd[touched].tolist(),
            volatility[touched].tolist(), last[touched].tolist(), strict=True):
        player.rating, player.season_gain = now, gained
        player.extra = (deviation, sigma, day_number)
    if not tell:
        return None
    return _told(before, a, b, kept, new_a.tolist(), new_b.tolist(), "")


def _levels(first: list[int], second: list[int], size: int) -> list[np.ndarray]:
    """The games (indices) of each level, in order: a game's level is one more than the
    highest level of its players' previous games, so no player plays twice in one."""
    depth = [0] * size
    level = []
    for x, y in zip(first, second, strict=True):
        dx, dy = depth[x], depth[y]
        depth[x] = depth[y] = d = (dx if dx > dy else dy) + 1
        level.append(d)
    order = np.argsort(np.asarray(level), kind="stable")
    edges = np.cumsum(np.bincount(level)).tolist()
    return [order[start:end] for start, end in pairwise(edges)]


def _told(before: dict[PlayerId, tuple[float, float]], a: list[PlayerId],
          b: list[PlayerId], kept: list[bool], new_a: list[list[float]],
          new_b: list[list[float]], note: str) -> Told:
    """What each game did, each player's (rating, RD) carried along from the run's start
    (a waiting period's games move nothing: `new_a` is empty)."""
    now = dict(before)
    told: Told = []
    rated = iter(zip(new_a, new_b, strict=True))
    for x, y, counted in zip(a, b, kept, strict=True):
        (ra, da), (rb, db) = now[x], now[y]
        if not counted:
            told.append(("", ra, ra, rb, rb, None, None))
            continue
        na, nb = next(rated, ((ra, da), (rb, db)))
        now[x], now[y] = (na[0], na[1]), (nb[0], nb[1])
        told.append((note, ra, na[0], rb, nb[0], na[1], nb[1]))
    return told
