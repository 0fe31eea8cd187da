"""The passes over columns that fold a run of plain one-on-one matches at once
(core.domain.batch): Elo's points by rating gap, which games count, anti-farming's
decisions, the ratings, and every count per player."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

import numpy as np

from core.domain import pairs
from core.domain.model import PlayerId, Timestamp
from core.domain.pairs import too_short
from core.domain.rulebooks.rated import duel_ratings
from core.domain.settings import RATING_LIMIT, Settings
from core.domain.state import LadderState

# The table of points covers gaps below this; a run whose gaps could reach it is folded
# in pieces short enough that they cannot.
WIDEST_GAP = 1 << 16
# Beyond this gap the points no longer change for any sane K (checked per table).
SATURATED = 1 << 12


@lru_cache(maxsize=16)
def points_table(settings: Settings) -> list[int] | None:
    """What the winner of a rated game gains by rating gap g (winner minus loser), for
    |g| < WIDEST_GAP: `table[g]`, a negative g counting from the end as Python does; or
    None where that is not a whole number of points, never negative, for every gap.
    Computed by `duel_ratings` itself, far above any floor (at most START_LIMIT) and
    below RATING_LIMIT, up to where the points no longer change (the expectation is
    monotone in the gap, so equal ends mean equal points between them)."""
    base = float(RATING_LIMIT // 2)

    def gain(gap: int) -> float:
        return duel_ratings(settings, base + gap, base, False)[0] - base - gap

    near = [gain(g) for g in range(SATURATED)], [gain(g) for g in range(-SATURATED, 0)]
    high, low = gain(WIDEST_GAP), gain(-WIDEST_GAP)
    if high != near[0][-1] or low != near[1][0]:
        return None
    points = (near[0] + [high] * (WIDEST_GAP - SATURATED)
              + [low] * (WIDEST_GAP - SATURATED) + near[1])
    if not all(p.is_integer() and p >= 0 for p in points[:SATURATED] + points[-SATURATED:]):
        return None
    return [int(p) for p in points]


def counted_mask(settings: Settings, rated: Sequence[bool], moves: Sequence[int | None],
             count: int) -> list[bool]:
    """Which matches the report and the game's length leave rated."""
    if all(rated) and (settings.min_moves is None or moves.count(None) == count):
        return [True] * count
    return [r and not too_short(settings, m) for r, m in zip(rated, moves, strict=True)]


def anti_farming(state: LadderState, at: Sequence[Timestamp], a: Sequence[PlayerId],
                  b: Sequence[PlayerId], played: Sequence[Timestamp],
                  counted: list[bool], pa: np.ndarray, pb: np.ndarray,
                  ordered: bool, notes: dict[int, str] | None = None) -> list[bool]:
    """Which matches stay rated after anti-farming, keeping its record and pruning it at
    the same events as the one-by-one fold; advances `state.seq` and `state.at`. `pa`
    and `pb` are `a` and `b` as arrays; `ordered` says `played` never decreases. With
    `notes`, why each match it unrates is unrated goes in it by index."""
    settings = state.settings
    limited = settings.farm_limit is not None
    kept = list(counted)
    count = len(a)
    first = state.seq + 1
    done = 0
    every = pairs.FARM_PRUNE_EVERY
    lows, highs = np.minimum(pa, pb).tolist(), np.maximum(pa, pb).tolist()
    while done < count:
        if (first + done) % every == 0:  # pruned before that match, as one by one
            state.seq = first + done
            if at[done] > state.at:
                state.at = at[done]
            state._prune()
        end = min(count, done + every - (first + done) % every)
        if limited:
            span = range(done, end)
            rows = [i for i in span if counted[i]] if False in counted[done:end] else span
            if rows is span:
                keys = list(zip(lows[done:end], highs[done:end], strict=True))
                times = played[done:end]
            else:
                keys = [(lows[i], highs[i]) for i in rows]
                times = [played[i] for i in rows]
            _record(state, rows, keys, times, (a, b), kept, notes, ordered)
        state.seq = first + end - 1
        latest = max(at[done:end])
        if latest > state.at:
            state.at = latest
        done = end
    return kept


def _record(state: LadderState, rows: Sequence[int], keys: list[tuple[PlayerId, PlayerId]],
            times: Sequence[Timestamp], players: tuple[Sequence[PlayerId], Sequence[PlayerId]],
            kept: list[bool], notes: dict[int, str] | None, ordered: bool) -> None:
    """Anti-farming over one stretch between prunes: the matches `rows` (their pairs
    `keys`, played at `times`) go into the record; those it finds farmed are unrated."""
    farm, due = state.farm, state.farm_due
    a, b = players
    # Most pairs are new to the record and play once here: those go in at once (a
    # merged dict keeps its hashes); the others one by one, in order.
    fresh = dict(zip(keys, map(list, zip(times)), strict=True))
    slow = fresh.keys() & farm.keys()
    if len(fresh) < len(keys):
        seen: set[tuple[PlayerId, PlayerId]] = set()
        for key in keys:
            if key in seen:
                slow.add(key)
            seen.add(key)
    if slow:
        for key in slow:
            del fresh[key]
        farm.update(fresh)
        due.push_all([t for t, k in zip(times, keys, strict=True) if k in fresh],
                     [k for k in keys if k in fresh], ordered)
        for i, key, when in zip(rows, keys, times, strict=True):
            if key in slow:
                note = state.farmed(key, when)
                if note:
                    kept[i] = False
                    if notes is not None:
                        notes[i] = note
                else:
                    state.remember_pair(a[i], b[i], when)
    else:
        farm.update(fresh)
        due.push_all(list(times), keys, ordered)


def rate_columns(state: LadderState, a: Sequence[PlayerId], b: Sequence[PlayerId],
             draw: Sequence[bool], kept: list[bool], touched: list[int],
             table: list[int]) -> None:
    """Move the ratings of the rated matches, in order, and their season gains."""
    settings = state.settings
    players = state.players
    rating = [0] * (max(touched) + 1)
    for pid in touched:
        rating[pid] = int(players[pid].rating)
    if False in kept:
        a = [x for x, k in zip(a, kept, strict=True) if k]
        b = [y for y, k in zip(b, kept, strict=True) if k]
        draw = [d for d, k in zip(draw, kept, strict=True) if k]
    floor = int(settings.floor) if settings.floor is not None else None
    if True in draw:
        for x, y, drawn in zip(a, b, draw, strict=True):
            rx, ry = rating[x], rating[y]
            if drawn:
                nx, ny = duel_ratings(settings, float(rx), float(ry), True)
                rating[x], rating[y] = int(nx), int(ny)
                continue
            moved = table[rx - ry]
            rating[x] = rx + moved
            ry -= moved
            rating[y] = ry if floor is None or ry > floor else floor
    elif floor is None:
        for x, y in zip(a, b, strict=True):
            rx, ry = rating[x], rating[y]
            moved = table[rx - ry]
            rating[x] = rx + moved
            rating[y] = ry - moved
    else:
        for x, y in zip(a, b, strict=True):
            rx, ry = rating[x], rating[y]
            moved = table[rx - ry]
            rating[x] = rx + moved
            ry -= moved
            rating[y] = ry if ry > floor else floor
    for pid in touched:
        player = players[pid]
        now = float(rating[pid])
        player.season_gain += now - player.rating
        player.rating = now


def count_columns(state: LadderState, a: np.ndarray, b: np.ndarray, draw: Sequence[bool],
            kept: list[bool], played: np.ndarray, size: int, touched: list[int]) -> None:
    """Add every match to its players' counts at once."""
    def tally(*ids: np.ndarray) -> list[int]:
        return np.bincount(np.concatenate(ids), minlength=size).tolist()  # type: ignore[no-any-return]

    games = tally(a, b)
    if True in draw:
        drawn = np.asarray(draw, dtype=bool)
        won = ~drawn
        draws, wins, losses = tally(a[drawn], b[drawn]), tally(a[won]), tally(b[won])
    else:
        won = np.ones(len(a), dtype=bool)
        draws, wins, losses = [0] * size, tally(a), tally(b)
    if False in kept:
        rated = np.asarray(kept, dtype=bool)
        rated_games, rated_wins = tally(a[rated], b[rated]), tally(a[rated & won])
    else:
        rated_games, rated_wins = games, wins
    last = np.full(size, np.iinfo(np.int64).min, dtype=np.int64)
    np.maximum.at(last, a, played)
    np.maximum.at(last, b, played)
    latest = last.tolist()
    players = state.players
    for pid in touched:
        player = players[pid]
        player.games += games[pid]
        player.draws += draws[pid]
        player.wins += wins[pid]
        player.losses += losses[pid]
        player.rated_games += rated_games[pid]
        player.rated_wins += rated_wins[pid]
        player.season_games += rated_games[pid]
        when = latest[pid]
        if player.last_played is None or when > player.last_played:
            player.last_played = when
