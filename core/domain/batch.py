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
from typing import Any

import numpy as np

from core.domain.calendar import month_label
from core.domain.events import MatchConfirmed
from core.domain.model import Match, PlayerId, Result, Timestamp
from core.domain.pairs import unrated_note
from core.domain.passes import (
    WIDEST_GAP,
    anti_farming,
    count_columns,
    counted_mask,
    points_table,
    rate_columns,
)
from core.domain.rulebooks.rated import EloBook
from core.domain.settings import RATING_LIMIT
from core.domain.standing import Applied, PlayerState
from core.domain.state import LadderState

# Below this many matches the passes cost more than they save.
SHORTEST_RUN = 64
# A journaled run's length at most: a correction in it folds again from its start.
JOURNALED_RUN = 512


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
    table = points_table(settings)
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
# after), then, where the rulebook keeps a deviation, a's and b's after it.
Outcome = tuple[Any, ...]


# Sees a game's result with the standings just before it is folded (a what-if's
# predictions).
Observer = Callable[[LadderState, Result], None]


def fold_observed(state: LadderState, rows: Sequence[Row], outcomes: list[Outcome],
                  observe: Observer) -> None:
    """Fold plain matches one by one, each seen by `observe` first."""
    lean = state.lean
    for row in rows:
        _, a, b, draw, rated, moves, *_ = row
        observe(state, Result(((a,), (b,)), draw, None, moves, rated))
        outcomes.append(fold_one(state, row, lean))


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
        outcome = fold_one(state, row, lean)
        if outcomes is not None:
            outcomes.append(outcome)


def fold_one(state: LadderState, row: Row, lean: bool) -> Outcome:
    """Fold one plain match: by `apply_duel` where the settings are `lean`, else as its
    event."""
    if lean:
        return state.apply_duel(*row[:7])
    return duel_outcome(state.apply(plain_event(row)), row[1], row[2])


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
            moved[b].after, moved[a].rd, moved[b].rd)


# Moves the ratings of a run's rated matches: (state, a, b, draw, played, ids, kept,
# tell); with `tell`, returns (note, a before, after, b before, after, a's deviation
# after, b's) for every match, the deviations None where the rulebook keeps none.
RateRun = Callable[[LadderState, list[PlayerId], list[PlayerId], list[bool], list[Timestamp],
                    list[int], list[bool], bool], Sequence[tuple[Any, ...]] | None]


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
    counted = counted_mask(settings, rated, moves, len(rows))
    times = np.asarray(played, dtype=np.int64)
    notes: dict[int, str] | None = {} if outcomes is not None else None
    kept = anti_farming(state, at, a, b, played, counted, first, second,
                         bool(np.all(times[1:] >= times[:-1])), notes)
    told = rate_run(state, a, b, draw, played, ids, kept, outcomes is not None)
    count_columns(state, first, second, draw, kept, times, high + 1, touched)
    if outcomes is not None and notes is not None and told is not None:
        for i, (note, *moved) in enumerate(told):
            if not kept[i]:
                note = notes.get(i) or unrated_note(settings, rated[i], moves[i])
            outcomes.append((kept[i], note, *moved))
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
    counted = counted_mask(settings, rated, moves, count)
    times = np.asarray(played, dtype=np.int64)
    kept = anti_farming(state, at, a, b, played, counted, first, second,
                         bool(np.all(times[1:] >= times[:-1])))
    rate_columns(state, a, b, draw, kept, touched, table)
    count_columns(state, first, second, draw, kept, times, high + 1, touched)
    return count
