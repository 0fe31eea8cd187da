"""Folding a run of plain one-on-one matches at once.

Loading a ladder's standings folds every stored match since the newest snapshot. One at
a time (`LadderState.apply_duel`), each match's bookkeeping (its counts, anti-farming's
record, the objects of two players) costs several times its rule. `fold_duels` folds a
run of them in passes over columns instead, with the same result as folding them one by
one (tests compare the two): anti-farming's decisions first, since they never depend on
ratings; then the ratings, in one tight loop over whole numbers that looks the rule's
points up by rating gap; then every count, per player at once.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

import numpy as np

from core.domain.calendar import month_label
from core.domain.events import MatchConfirmed
from core.domain.model import Match, PlayerId, Result, Timestamp
from core.domain.rulebooks.rated import EloBook
from core.domain.settings import RATING_LIMIT, Settings
from core.domain.standing import Applied
from core.domain.state import (
    FARM_PRUNE_EVERY,
    LadderState,
    PlayerState,
    duel_ratings,
    too_short,
    unrated_note,
)

# Below this many matches the passes cost more than they save.
SHORTEST_RUN = 64
# A journaled run's length at most: a correction in it folds again from its start.
JOURNALED_RUN = 512
# The table of points covers gaps below this; a run whose gaps could reach it is folded
# in pieces short enough that they cannot.
WIDEST_GAP = 1 << 16
# Beyond this gap the points no longer change for any sane K (checked per table).
SATURATED = 1 << 12


def fold_duels(state: LadderState, at: Sequence[Timestamp], a: Sequence[PlayerId],
               b: Sequence[PlayerId], draw: Sequence[bool], rated: Sequence[bool],
               moves: Sequence[int | None], played: Sequence[Timestamp],
               ids: Sequence[int] = ()) -> int:
    """Fold confirmed one-on-one matches given as columns (`a` won unless `draw`), as
    `apply_duel` would one by one; returns how many of the first it folded, the caller
    folding the rest one by one.

    It folds runs of at least `SHORTEST_RUN` matches of `lean` whole-number settings,
    none named by a correction, while nothing is journaled, between players with small
    ids, whole ratings at or above the floor and whole season gains. (`ids`, the match
    ids, are for the other rulebooks' folds.)
    """
    settings = state.settings
    book = state.rulebook
    if state.undo is not None or not state.lean or not isinstance(book, EloBook) \
            or not book.whole_points(settings):
        return 0
    table = _points(settings)
    if table is None:
        return 0
    done, count = 0, len(a)
    while count - done >= SHORTEST_RUN:
        span = slice(done, count)
        folded = _fold_run(state, table, at[span], a[span], b[span], draw[span],
                           rated[span], moves[span], played[span])
        if not folded:
            break
        done += folded
    return done


# A plain match as the store streams it: `apply_duel`'s arguments, then the match id.
Row = tuple[Any, ...]
# What folding one says: `apply_duel`'s answer (rated, note, a before, after, b before,
# after).
Outcome = tuple[bool, str, float, float, float, float]


def fold_rows(state: LadderState, rows: Sequence[Row],
              outcomes: list[Outcome] | None = None) -> None:
    """Fold plain matches: as many as the ladder's rulebook folds at once
    (`fold_at_once`), the rest one by one; with `outcomes`, what each one did is
    appended to it, in order."""
    done = 0
    while done < len(rows):
        folded = fold_at_once(state, rows[done:] if done else rows, outcomes)
        if not folded:
            break
        done += folded
    lean = state.lean
    for row in rows[done:]:
        if lean:
            outcome = state.apply_duel(*row[:7])
        else:
            outcome = duel_outcome(state.apply(plain_event(row)), row[1], row[2])
        if outcomes is not None:
            outcomes.append(outcome)


def fold_at_once(state: LadderState, rows: Sequence[Row], outcomes: list[Outcome] | None
                 ) -> int:
    """Fold the first plain matches of `rows` at once, as the ladder's rulebook rates a
    run (`Rulebook.rate_run`, or `fold_duels` for Elo's, where nothing asks what each one
    did); returns how many (0: the caller folds them one by one)."""
    book = state.rulebook
    if isinstance(book, EloBook):
        if outcomes is not None or not state.lean:
            return 0
        return fold_duels(state, *zip(*rows, strict=True))
    rate_run = book.rate_run(state)
    return 0 if rate_run is None else fold_plain(state, rows, rate_run, outcomes)


def plain_event(row: Row) -> MatchConfirmed:
    """The event a plain match's row stands for."""
    at, a, b, draw, rated, moves, played, match = row
    return MatchConfirmed(at, Match(match, played, Result(((a,), (b,)), draw, None, moves,
                                                          rated)))


def duel_outcome(applied: Applied, a: PlayerId, b: PlayerId) -> Outcome:
    """A folded one-on-one match's `Applied` as `apply_duel` says it."""
    effect = applied.match
    assert effect is not None
    moved = {c.player: c for c in effect.changes}
    return (effect.rated, effect.note, moved[a].before, moved[a].after, moved[b].before,
            moved[b].after)


# Moves the ratings of a run's rated matches: (state, a, b, draw, played, ids, kept,
# tell); with `tell`, returns (note, a before, after, b before, after) for every match.
RateRun = Callable[[LadderState, list[PlayerId], list[PlayerId], list[bool], list[Timestamp],
                    list[int], list[bool], bool],
                   list[tuple[str, float, float, float, float]] | None]


def fold_plain(state: LadderState, rows: Sequence[Row], rate_run: RateRun,
               outcomes: list[Outcome] | None = None) -> int:
    """Fold a run of plain matches whose ratings `rate_run` moves, everything else as
    `fold_duels` folds it (the counts, anti-farming, the season); returns how many: all,
    or none where the run is short or the players' ids do not suit.

    While the standings journal what they fold, the run is cut to `JOURNALED_RUN` and
    journaled as one entry (rolled back as one: the store folds again from its start),
    unless anti-farming keeps records (whose journal is per match) or a rule waits.
    """
    journal = state.undo
    if journal is not None:
        if state.settings.farm_limit is not None or not state.rulebook.journals(state.settings):
            return 0
        rows = rows[:JOURNALED_RUN]
    if len(rows) < SHORTEST_RUN:
        return 0
    at, a, b, draw, rated, moves, played, ids = (list(c) for c in zip(*rows, strict=True))
    first, second = np.asarray(a, dtype=np.int64), np.asarray(b, dtype=np.int64)
    both = np.concatenate((first, second))
    settings, players = state.settings, state.players
    high = int(both.max())
    if int(both.min()) < 0 or high > 4 * (len(rows) + len(players)) + 1024:
        return 0
    touched = np.flatnonzero(np.bincount(both, minlength=high + 1)).tolist()
    if journal is not None:  # the run's one entry: everyone's state before it
        entry = state._entry(tuple(touched), None)
        entry.last = state.seq + len(rows)
        journal.append(entry)
    for pid in touched:
        if pid not in players:
            players[pid] = state.rulebook.new_player(settings, member=False)
    if state.season is None:
        state.season = month_label(at[0], settings.timezone)
    counted = _counted(settings, rated, moves, len(rows))
    times = np.asarray(played, dtype=np.int64)
    notes: dict[int, str] | None = {} if outcomes is not None else None
    kept = _anti_farming(state, at, a, b, played, counted, first, second,
                         bool(np.all(times[1:] >= times[:-1])), notes)
    told = rate_run(state, a, b, draw, played, ids, kept, outcomes is not None)
    _counts(state, first, second, draw, kept, times, high + 1, touched)
    if outcomes is not None and notes is not None and told is not None:
        for i, (note, ra, na, rb, nb) in enumerate(told):
            if not kept[i]:
                note = notes.get(i) or unrated_note(settings, rated[i], moves[i])
            outcomes.append((kept[i], note, ra, na, rb, nb))
    return len(rows)


def _fold_run(state: LadderState, table: list[int], at: Sequence[Timestamp],
              a: Sequence[PlayerId], b: Sequence[PlayerId], draw: Sequence[bool],
              rated: Sequence[bool], moves: Sequence[int | None],
              played: Sequence[Timestamp]) -> int:
    """Fold the first matches of a run, as many as one table lookup per game allows, or
    none (changing nothing) where the players do not suit; returns how many."""
    settings = state.settings
    count = len(a)
    first, second = np.asarray(a, dtype=np.int64), np.asarray(b, dtype=np.int64)
    ids = np.concatenate((first, second))
    players = state.players
    low, high = int(ids.min()), int(ids.max())
    if low < 0 or high > 4 * (count + len(players)) + 1024:
        return 0
    games = np.bincount(ids, minlength=high + 1)
    touched = np.flatnonzero(games).tolist()
    start, floor = settings.start, settings.floor
    before = []
    for pid in touched:
        player = players.get(pid)
        rating, gain = (start, 0.0) if player is None else (player.rating, player.season_gain)
        if not (rating.is_integer() and gain.is_integer()) or (floor is not None
                                                               and rating < floor):
            return 0
        before.append(rating)
    # A game moves a rating by at most `widest`: within `most` games of each player no
    # gap reaches the table's end.
    widest = max(settings.min_gain, math.ceil(abs(settings.k)) + 1)
    spread = int(max(before) - min(before))
    # ...nor does any rating reach +-RATING_LIMIT, where `apply_floor` would stop it.
    room = int(min(RATING_LIMIT - max(before), RATING_LIMIT + min(before)))
    most = min((WIDEST_GAP - 1 - spread) // (2 * widest), (room - 1) // widest)
    if most < int(games.max()):
        if most < SHORTEST_RUN:
            return 0
        count = most  # no player plays more games than the piece has
        at, a, b, draw = at[:count], a[:count], b[:count], draw[:count]
        rated, moves, played = rated[:count], moves[:count], played[:count]
        first, second = first[:count], second[:count]
        touched = np.flatnonzero(np.bincount(np.concatenate((first, second)),
                                             minlength=high + 1)).tolist()

    # Nothing refused: from here on the run is folded.
    for pid in touched:
        if pid not in players:
            players[pid] = PlayerState(rating=start, member=False)
    if state.season is None:
        state.season = month_label(at[0], settings.timezone)
    counted = _counted(settings, rated, moves, count)
    times = np.asarray(played, dtype=np.int64)
    kept = _anti_farming(state, at, a, b, played, counted, first, second,
                         bool(np.all(times[1:] >= times[:-1])))
    _ratings(state, a, b, draw, kept, touched, table)
    _counts(state, first, second, draw, kept, times, high + 1, touched)
    return count


@lru_cache(maxsize=16)
def _points(settings: Settings) -> list[int] | None:
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


def _counted(settings: Settings, rated: Sequence[bool], moves: Sequence[int | None],
             count: int) -> list[bool]:
    """Which matches the report and the game's length leave rated."""
    if all(rated) and (settings.min_moves is None or moves.count(None) == count):
        return [True] * count
    return [r and not too_short(settings, m) for r, m in zip(rated, moves, strict=True)]


def _anti_farming(state: LadderState, at: Sequence[Timestamp], a: Sequence[PlayerId],
                  b: Sequence[PlayerId], played: Sequence[Timestamp],
                  counted: list[bool], pa: np.ndarray, pb: np.ndarray,
                  ordered: bool, notes: dict[int, str] | None = None) -> list[bool]:
    """Which matches stay rated after anti-farming, keeping its record and pruning it at
    the same events as the one-by-one fold; advances `state.seq` and `state.at`. `pa`
    and `pb` are `a` and `b` as arrays; `ordered` says `played` never decreases. With
    `notes`, why each match it unrates is unrated goes in it by index."""
    settings = state.settings
    limited = settings.farm_limit is not None
    farm, due = state.farm, state.farm_due
    kept = list(counted)
    count = len(a)
    first = state.seq + 1
    done = 0
    lows, highs = np.minimum(pa, pb).tolist(), np.maximum(pa, pb).tolist()
    while done < count:
        if (first + done) % FARM_PRUNE_EVERY == 0:  # pruned before that match, as one by one
            state.seq = first + done
            if at[done] > state.at:
                state.at = at[done]
            state._prune()
        end = min(count, done + FARM_PRUNE_EVERY - (first + done) % FARM_PRUNE_EVERY)
        if limited:
            span = range(done, end)
            rows = [i for i in span if counted[i]] if False in counted[done:end] else span
            if rows is span:
                keys = list(zip(lows[done:end], highs[done:end], strict=True))
                times = played[done:end]
            else:
                keys = [(lows[i], highs[i]) for i in rows]
                times = [played[i] for i in rows]
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
        state.seq = first + end - 1
        latest = max(at[done:end])
        if latest > state.at:
            state.at = latest
        done = end
    return kept


def _ratings(state: LadderState, a: Sequence[PlayerId], b: Sequence[PlayerId],
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


def _counts(state: LadderState, a: np.ndarray, b: np.ndarray, draw: Sequence[bool],
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
