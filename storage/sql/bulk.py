"""Plain one-on-one matches appended in bulk: `ladderbot import`'s long runs of them.

Appending one at a time writes a match's event, record, players and changes by their own
statements, and rewrites both players' standings every time. Here a run is folded first
(`fold_rows`), then written a table at a time (`executemany`), the players' standings
once per run; snapshots are stored further apart (`tuning.RUN_SNAPSHOTS_APART`). What
is stored is otherwise the same, row for row (tests compare the two on every store).

A part of the repository (`SqlRepo` takes it in).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from typing import Any

from core.domain.batch import Observer, Outcome, Row, fold_observed, fold_rows
from core.domain.collector import paused
from core.domain.model import PlayerId
from storage.sql import tuning
from storage.sql.codec import duel_event_json, duel_result_json
from storage.sql.history import INSERT_CHANGES
from storage.sql.replay import EventLog

_EVENTS = ("INSERT INTO events (ladder, seq, at, kind, body, match, key, duel_a, duel_b, "
           "duel_flags, duel_moves, duel_played) VALUES (?, ?, ?, 'match', ?, ?, NULL, ?, ?, ?, "
           "?, ?)")
_MATCHES = ("INSERT INTO matches (ladder, id, status, reporter, reported_at, result, "
            "challenge, forfeit, confirmed_at, disputed_at, voided_at, note, rated, "
            "players_key) VALUES (?, ?, 'confirmed', ?, ?, ?, NULL, 0, ?, NULL, NULL, ?, ?, ?)")
_MATCH_PLAYERS = ("INSERT INTO match_players (ladder, player, match) VALUES (?, ?, ?) "
                  "ON CONFLICT DO NOTHING")


class BulkLog(EventLog):
    """The event log, with runs of plain matches appended at once."""

    def append_duels(self, ladder: int, duels: Sequence[Row], reporters: Sequence[PlayerId],
                     observe: Observer | None = None) -> None:
        cached = self._cached(ladder)
        self.touched.add(ladder)
        state = cached.state
        marks = (state.settings, state.season, state.last_decay)
        # A run is never rolled back through: a unit that fails drops its standings, and
        # a correction of one of these folds again from the snapshot before it.
        journal, state.undo = state.undo, None
        done = 0
        try:
            with paused():  # (core.domain.collector: the fold builds much that stays)
                while done < len(duels):
                    every = tuning.RUN_SNAPSHOTS_APART * self.store.snapshot_interval(
                        len(state.players))
                    piece = duels[done:done + every - state.seq % every]
                    first = state.seq + 1
                    outcomes: list[Outcome] = []
                    if observe is None:
                        fold_rows(state, piece, outcomes)
                    else:
                        fold_observed(state, piece, outcomes, observe)
                    self._write_duels(ladder, first, piece,
                                      reporters[done:done + len(piece)], outcomes)
                    if state.seq % every == 0:
                        self._snapshot(ladder, state)
                    done += len(piece)
        finally:
            if journal is not None:
                state.undo = deque(maxlen=tuning.UNDO_EVENTS)
        self._write_players(ladder, state, {p for row in duels for p in row[1:3]})
        self._keep_marks(ladder, state, marks)

    def _write_duels(self, ladder: int, first: int, duels: Sequence[Row],
                     reporters: Sequence[PlayerId], outcomes: Sequence[Outcome]) -> None:
        """The events, records and changes of folded matches, the first numbered `first`
        in the log."""
        events: list[tuple[Any, ...]] = []
        matches: list[tuple[Any, ...]] = []
        players: list[tuple[int, PlayerId, int]] = []
        changes: list[tuple[Any, ...]] = []
        for seq, (at, a, b, draw, rated, moves, played, match), reporter, outcome in zip(
                range(first, first + len(duels)), duels, reporters, outcomes, strict=True):
            result = duel_result_json(a, b, draw, rated, moves)
            events.append((ladder, seq, at, duel_event_json(match, played, result), match, a,
                           b, int(draw) | (0 if rated else 2), moves, played))
            kept, note, ra, na, rb, nb, *rds = outcome
            matches.append((ladder, match, reporter, played, result, at, note, int(kept),
                            f"{min(a, b)},{max(a, b)}"))
            players += ((ladder, a, match), (ladder, b, match))
            da, db = rds or (None, None)
            changes += ((ladder, seq, a, at, ra, na, "match", match, int(kept), da),
                        (ladder, seq, b, at, rb, nb, "match", match, int(kept), db))
        self.conn.executemany(_EVENTS, events)
        self.conn.executemany(_MATCHES, matches)
        self.conn.executemany(_MATCH_PLAYERS, players)
        self.conn.executemany(INSERT_CHANGES, changes)
