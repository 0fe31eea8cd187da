"""Re-deriving after a correction, in the SQL store: the ripple (only what the
correction reaches), the full re-derivation from a snapshot, and the history written
again, now or later in chunks (`restate`).

A part of the repository (`SqlRepo` takes it in).
"""

from __future__ import annotations

import json
from typing import Any

from core.domain.calendar import DAY
from core.domain.events import Event, MatchConfirmed
from core.domain.ledger import Rederived
from core.domain.model import Correction, PlayerId
from core.domain.ripple import ripple
from core.domain.ripple_history import Original, Rippled
from core.domain.standing import Change, PlayerState
from core.domain.state import LadderState, standing_changes
from storage.sql import tuning
from storage.sql.codec import decode_event
from storage.sql.history import (
    INSERT_CHANGES,
    RESTATE_FLAGS,
    Cached,
    StoredHistory,
    history_rows,
    players_key,
)
from storage.sql.part import RepoPart


class Rederivation(RepoPart):
    """Re-derivation after a correction (the repository supplies the rest)."""

    def _ripple(self, ladder: int, cached: Cached, from_seq: int, event: Event,
                prior: Correction | None) -> Rederived | None:
        """A correction beyond the journal's reach, re-derived by `core.domain.ripple` from the
        stored history, when that can say enough; else None (and `_rederive` replays).

        The standings, the history that changed and the frozen tables are rewritten at
        once, and the journal of the newest events is kept (mended), so a recent
        correction after it still rolls back.
        """
        old = cached.state
        upto = old.seq + 1  # the correction event, inserted but not folded yet
        original = self._rippling(ladder, from_seq)
        if original is None:
            return None
        match = original.match
        # Three columns of every later event: a row costs more the more columns it has,
        # and all but a few are skipped. The rest of those few is read by `rest`.
        rows = self.store.stream(
            self.conn, "SELECT seq, duel_a, duel_b FROM events "
            "WHERE ladder=? AND seq > ? AND seq < ? ORDER BY seq", (ladder, from_seq, upto))

        def rest(seq: int) -> tuple[int, int, int, Event | None]:
            at, match, flags, kind, body = self._one(
                "SELECT at, match, duel_flags, kind, CASE WHEN duel_a IS NULL THEN body END "
                "FROM events WHERE ladder=? AND seq=?", (ladder, seq))
            return at, match, flags, None if body is None else \
                decode_event(kind, at, json.loads(body))

        done = ripple(old, original, prior, cached.corrections[match], rows, rest,
                      StoredHistory(self.conn, ladder, self.dialect), cached.corrections)
        if done is None:
            return None
        old.apply(event, cached.corrections)
        # `_rederive` deleted the snapshots from the match on. One of the new standings
        # serves a restart; a correction between the two that neither the journal nor a
        # ripple can take replays from the one before the match.
        self._snapshot(ladder, old)
        self._write_rippled(ladder, from_seq, match, old, done)
        changed = list(done.before)

        def before(p: PlayerId) -> PlayerState | None:
            return done.before[p] if p in done.before else old.players.get(p)

        return Rederived(from_seq, (), standing_changes(before, old.order, old, changed))

    def _write_rippled(self, ladder: int, from_seq: int, match: int, state: LadderState,
                       done: Rippled) -> None:
        """What a ripple changed, written: the history of the events it re-derived (and
        none for the corrected match, if voided), the match's flags, the players it
        moved, and the frozen tables it restated."""
        rows_of: list[tuple[Any, ...]] = []
        for seq, (at, outcome) in done.outcomes.items():
            history_rows(ladder, seq, at, None, outcome, rows_of, [])
        self.conn.executemany("DELETE FROM changes WHERE ladder=? AND seq=?",
                              [(ladder, seq) for seq in
                               [*done.outcomes, *([from_seq] if done.voided else [])]])
        self.conn.executemany(INSERT_CHANGES, rows_of)
        if done.effect is not None:
            self.conn.execute(RESTATE_FLAGS, (int(done.effect[0]), done.effect[1], ladder, match))
        self._write_players(ladder, state, list(done.before))
        for label in done.frozen:
            self._write_season(ladder, label, state.frozen[label])
        if done.frozen:
            self.conn.execute("DELETE FROM hall_of_fame WHERE ladder=?", (ladder,))
            self._write_hall(ladder, 0, state.hall)

    def _rippling(self, ladder: int, from_seq: int) -> Original | None:
        """The corrected match as stored, if a ripple may follow it: a plain one-on-one
        game whose pair played no other, in a history that is not waiting for `restate`."""
        if self._one("SELECT restate_from FROM ladders WHERE id=?", (ladder,))[0] is not None:
            return None  # the history it reads waits for `restate`
        row = self._one("SELECT at, match, duel_a, duel_b, duel_flags, duel_moves, duel_played "
                        "FROM events WHERE ladder=? AND seq=?", (ladder, from_seq))
        if row is None or row[2] is None:
            return None
        at, match, a, b, flags, moves, played = row
        if self._one(f"SELECT 1 FROM matches{self.dialect.indexed_by('matches_by_players')} "
                     "WHERE ladder=? AND players_key=? AND id != ? LIMIT 1",
                     (ladder, players_key((a, b)), match)) is not None:
            return None  # the pair played again: anti-farming may count it differently
        return Original(from_seq, match, at, a, b, bool(flags & 1), not flags & 2, moves,
                        played)

    def _rederive(self, ladder: int, cached: Cached, from_seq: int, event: Event,
                  prior: Correction | None, one: bool = True) -> Rederived:
        """Re-derive the standings after a correction (`event`; `prior` is the match's
        final word before it) of the match at `from_seq` (and, unless `one`, of later
        ones: an import undone), up to the head.

        A recent correction rolls the standings back through their journal; one further
        back than it reaches follows its ripple (`_ripple`) where it can, else replays from
        the newest stored snapshot before it. The standings (players, seasons, Hall of
        Fame) are rewritten at once. Per-match history (rated flags, changes) and
        snapshots are rewritten at once for the recent part; a replay from far back leaves
        the older part to `restate`, marked in the ladder row.
        """
        old = cached.state
        upto = old.seq + 1  # the correction event itself, just inserted
        forward = old.undo_to(from_seq)
        # The snapshots from the match on hold the old standings, whichever way follows.
        self.conn.execute("DELETE FROM snapshots WHERE ladder=? AND seq >= ?", (ladder, from_seq))
        if forward is None and one:
            rippled = self._ripple(ladder, cached, from_seq, event, prior)
            if rippled is not None:
                return rippled
        state = old if forward is not None else self._snapshot_before(ladder, from_seq)
        start = self._history_start(ladder, from_seq, upto, state.settings.week_days)
        # Who can stand differently afterwards: the players of the events replayed, or,
        # when they are many more than the players, simply every player (a visit per
        # event costs more than comparing them all).
        every_player = forward is None and (upto - from_seq) * 2 > len(state.players)
        visit = _Visits(ladder, start, state, every_player)
        journal = None if forward is not None else max(from_seq, upto - tuning.UNDO_EVENTS)
        # Snapshots go with the history: stored now where it is written now; for the older
        # part `restate`, which folds it again anyway, stores them (a snapshot holds every
        # player and every frozen season: a third of a long re-derivation's time).
        self._stream(ladder, state, upto, cached.corrections, visit,
                     visit_from=start if every_player else from_seq,
                     snapshots=lambda seq: seq >= start, journal_from=journal)
        self._write_history(ladder, start, upto, visit.rows, visit.effects)
        if start > from_seq:
            self._mark_stale(ladder, from_seq, start)
        changed, moved = _what_moved(old, state, forward, visit.touched, every_player)
        self._write_standings(ladder, old, state, changed)
        cached.state = state
        # Storage keeps no per-event effects of a re-derivation (a long one would hold
        # millions): what moved is what the reply tells.
        return Rederived(from_seq, (), moved)

    def _history_start(self, ladder: int, from_seq: int, upto: int, week_days: float) -> int:
        """The first event whose history a re-derivation rewrites at once: the newest
        events, and those of the week the week table reads; older history waits for
        `restate`."""
        at = self._one("SELECT at FROM events WHERE ladder=? AND seq=?", (ladder, upto))[0]
        cutoff = at - round((week_days + 1) * DAY)
        return int(self._one(
            "SELECT seq FROM events WHERE ladder=? AND seq >= ? AND seq <= ? "
            "AND (seq >= ? OR at > ?) ORDER BY seq LIMIT 1",
            (ladder, from_seq, upto, upto - tuning.SYNC_RESTATE, cutoff))[0])

    def _write_standings(self, ladder: int, old: LadderState, state: LadderState,
                         changed: list[PlayerId]) -> None:
        """Rewrite what a re-derivation changed: the changed players, the frozen tables
        that differ, and the Hall of Fame if it does."""
        self._write_players(ladder, state, changed)
        for label, table in state.frozen.items():  # only the frozen tables it changed
            if old.frozen.get(label) != table:
                self._write_season(ladder, label, table)
        for label in old.frozen.keys() - state.frozen.keys():
            self.conn.execute("DELETE FROM seasons WHERE ladder=? AND season=?", (ladder, label))
        if state.hall != old.hall:
            self.conn.execute("DELETE FROM hall_of_fame WHERE ladder=?", (ladder,))
            self._write_hall(ladder, 0, state.hall)

    def _write_history(self, ladder: int, start: int, upto: int, rows: list[tuple[Any, ...]],
                       effects: list[tuple[Any, ...]]) -> None:
        """Replace the changes of events [start, upto] and restate their matches' flags.

        Most later matches are of players the correction did not reach: their rows stay
        as they are, and only the rows that differ are rewritten.
        """
        stored = {(r[1], r[2]): r for r in self._all(
            "SELECT ladder, seq, player, at, before, after, kind, match, rated, rd FROM changes "
            "WHERE ladder=? AND seq >= ? AND seq <= ?", (ladder, start, upto))}
        fresh = {(r[1], r[2]): r for r in rows}
        # A row that differs only in its ratings is updated in place: no index holds
        # them, so that costs a third of deleting and inserting it again.
        moved, gone, added = [], [], []
        for key, row in stored.items():
            new = fresh.get(key)
            if new == row:
                continue
            if new is not None and _same_but_ratings(new, row):
                moved.append((new[4], new[5], new[9], ladder, key[0], key[1]))
            else:
                gone.append((ladder, *key))
        for key, row in fresh.items():
            old = stored.get(key)
            if old is None or (old != row and not _same_but_ratings(row, old)):
                added.append(row)
        self.conn.executemany("UPDATE changes SET before=?, after=?, rd=? WHERE ladder=? "
                              "AND seq=? AND player=?", moved)
        self.conn.executemany("DELETE FROM changes WHERE ladder=? AND seq=? AND player=?",
                              gone)
        self.conn.executemany(INSERT_CHANGES, added)
        self.conn.executemany(RESTATE_FLAGS, effects)

    def _mark_stale(self, ladder: int, start: int, end: int) -> None:
        """Per-match history of events [start, end) waits for `restate`."""
        self.conn.execute(
            "UPDATE ladders SET "
            "restate_from = CASE WHEN restate_from < ? THEN restate_from ELSE ? END, "
            "restate_to = CASE WHEN restate_to > ? THEN restate_to ELSE ? END WHERE id=?",
            (start, start, end, end, ladder))

    def restate(self, ladder: int, chunk: int = tuning.RESTATE_CHUNK) -> bool:
        """Bring one chunk of stale per-match history (and its snapshots) up to date; True
        if more remains."""
        self.store.lock_ladder(self, ladder)
        row = self._one("SELECT restate_from, restate_to FROM ladders WHERE id=?", (ladder,))
        if row is None or row[0] is None:
            return False
        start, end = row
        stop = min(end, start + chunk)
        cached = self._cached(ladder)
        state = self._snapshot_before(ladder, start)
        rows: list[tuple[Any, ...]] = []
        effects: list[tuple[Any, ...]] = []

        def visit(seq: int, at: int, event: Event | None, outcome: Any) -> None:
            history_rows(ladder, seq, at, event, outcome, rows, effects)

        self._stream(ladder, state, stop - 1, cached.corrections, visit, visit_from=start,
                     snapshots=lambda seq: seq >= start)
        self._write_history(ladder, start, stop - 1, rows, effects)
        if stop >= end:
            self.conn.execute("UPDATE ladders SET restate_from=NULL, restate_to=NULL WHERE id=?",
                              (ladder,))
            return False
        self.conn.execute("UPDATE ladders SET restate_from=? WHERE id=?", (stop, ladder))
        return True

    def stale_ladders(self) -> list[int]:
        """Ladders whose per-match history waits for `restate`."""
        return [r[0] for r in self._all("SELECT id FROM ladders WHERE restate_from IS NOT NULL")]


def _same_but_ratings(new: tuple[Any, ...], old: tuple[Any, ...]) -> bool:
    """Whether two rows of one change differ at most in its ratings and deviation."""
    return new[3] == old[3] and new[6:9] == old[6:9]


def _what_moved(old: LadderState, state: LadderState,
                forward: dict[PlayerId, PlayerState | None] | None,
                touched: set[PlayerId], every_player: bool
                ) -> tuple[list[PlayerId], tuple[Change, ...]]:
    """The players a re-derivation changed, and how their standings moved: against the
    states a rollback replaced (`forward`), else against the old standings."""
    if forward is not None:  # rolled back in place: compare with the states it replaced
        def before(p: PlayerId) -> PlayerState | None:
            return forward[p] if p in forward else old.players.get(p)

        changed = [p for p in touched | set(forward) if (s := state.players.get(p))
                   is not None and s != before(p)]
        return changed, standing_changes(before, old.order, state, changed)
    old_rungs = {p: i for i, p in enumerate(old.order)}
    new_rungs = {p: i for i, p in enumerate(state.order)}
    if every_player or state.settings.is_position:  # (on a position ladder, a move
        touched.update(state.players)  # shifts everyone between its two rungs)
    changed = [p for p in touched if (s := state.players.get(p)) is not None
               and (s != old.players.get(p) or new_rungs.get(p) != old_rungs.get(p))]
    return changed, standing_changes(old.players.get, old.order, state, changed)


class _Visits:
    """What a re-derivation's replay collects as it visits events: who can stand
    differently afterwards (unless that is every player), and the history rows of the
    events from `start` on."""

    __slots__ = ("effects", "every_player", "ladder", "rows", "start", "state", "touched")

    def __init__(self, ladder: int, start: int, state: LadderState, every_player: bool) -> None:
        self.ladder, self.start, self.state, self.every_player = ladder, start, state, every_player
        self.rows: list[tuple[Any, ...]] = []
        self.effects: list[tuple[Any, ...]] = []
        self.touched: set[PlayerId] = set()

    def __call__(self, seq: int, at: int, event: Event | None, outcome: Any) -> None:
        if self.every_player:  # nothing to track
            pass
        elif event is None:
            self.touched.update(outcome[1:3])
        else:
            self.touched.update(outcome.players)
            if isinstance(event, MatchConfirmed):  # the players of a voided match too
                self.touched.update(event.match.result.players)
            elif outcome.kind in ("decay", "season"):  # the others name their players
                self.touched.update(self.state.players)
        if seq >= self.start:
            history_rows(self.ladder, seq, at, event, outcome, self.rows, self.effects)
