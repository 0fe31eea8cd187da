"""The event log of the SQL store: events appended and folded into the standings, the
cached standings of recently used ladders, snapshots, and the projections each event
writes (players, season tables, the Hall of Fame, decay beside the fold).

A part of the repository (`SqlRepo` takes it in).
"""

from __future__ import annotations

import json
import threading
from collections import Counter, deque
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from core.domain.batch import fold_rows, plain_event
from core.domain.collector import paused
from core.domain.events import (
    DecayDay,
    Event,
    MatchConfirmed,
    RulesSwitched,
    collect_corrections,
    corrections_of,
)
from core.domain.ledger import Rederived
from core.domain.model import Correction, PlayerId, Timestamp
from core.domain.settings import Settings
from core.domain.standing import Applied
from core.domain.state import LadderState
from core.domain.tables import HallEntry, TableRow
from storage.sql import tuning
from storage.sql.codec import (
    decode_event,
    dumps,
    encode_event,
    settings_from_json,
    settings_to_json,
    state_from_json,
    state_to_json,
)
from storage.sql.heads import Heads
from storage.sql.history import (
    CHANGES_INTO,
    Cached,
    decay_args,
    duel_columns,
    stored_changes,
)
from storage.sql.part import insert_rows


class EventLog(Heads):
    """The event log and what each event writes (the repository supplies the rest)."""

    # ---- the log
    def base_settings(self, ladder: int) -> Settings:
        return settings_from_json(
            self._one("SELECT base_settings FROM ladders WHERE id=?", (ladder,))[0])

    def events(self, ladder: int, until: Timestamp | None = None) -> list[Event]:
        sql = "SELECT kind, at, body FROM events WHERE ladder=?"
        args: tuple[Any, ...] = (ladder,)
        if until is not None:
            sql += " AND at <= ?"
            args += (until,)
        return [decode_event(k, at, json.loads(b)) for k, at, b in self._all(sql + " ORDER BY seq",
                                                                           args)]

    # Without statistics SQLite reads the whole ladder's log by its primary key here;
    # the partial index finds the one event (`match IS NOT NULL` makes it usable).
    @property
    def _match_event(self) -> str:
        return (f"SELECT seq FROM events{self.dialect.indexed_by('events_match')} WHERE "
                "ladder=? AND match=? AND match IS NOT NULL AND kind='match'")

    @property
    def _first_event(self) -> str:  # the first event of the matches numbered from ? to ?
        # (min() answers one row, NULL where none of them was confirmed)
        return (f"SELECT min(seq) FROM events{self.dialect.indexed_by('events_match')} WHERE "
                "ladder=? AND match BETWEEN ? AND ? AND match IS NOT NULL AND kind='match'")

    def _cached(self, ladder: int, whole: bool = True) -> Cached:
        """The ladder's standings, from the cache, its head or a replay of its log; read
        in part (storage/sql/heads.py) only where not `whole`."""
        self.store.lock_ladder(self, ladder)
        # Another process may have written since: the log's length tells.
        stored_seq = self.store.known(self, "seq", ladder)
        cached: Cached | None = self.store.cache.get(ladder)
        if cached is None or cached.state.seq != stored_seq:
            cached = self._from_head(ladder, stored_seq) or self._replayed(ladder, stored_seq)
            self.store.cache.put(ladder, cached)
        if whole:
            self._complete(ladder, cached)
        return cached

    def _replayed(self, ladder: int, stored_seq: int) -> Cached:
        state = self._snapshot_before(ladder, stored_seq + 1)
        corrections = self._corrections(ladder)
        # Journal the newest events as they are folded, so that a recent correction
        # right after a restart rolls back instead of replaying from a snapshot.
        state.undo = None
        self._stream(ladder, state, stored_seq, corrections,
                     journal_from=max(state.seq + 1, stored_seq - tuning.UNDO_EVENTS + 1))
        if state.undo is None:
            state.undo = deque(maxlen=tuning.UNDO_EVENTS)
        return Cached(state, corrections)

    def _corrections(self, ladder: int) -> dict[int, Correction]:
        """The final correction of each corrected match of the ladder."""
        return collect_corrections(
            decode_event(k, at, json.loads(b)) for k, at, b in self._all(
                f"SELECT kind, at, body FROM events{self.dialect.indexed_by('events_corrections')}"
                " WHERE ladder=? AND kind IN ('void', 'result') ORDER BY seq", (ladder,)))

    def _snapshot_before(self, ladder: int, seq: int) -> LadderState:
        """The newest stored snapshot taken before event `seq` (else a new ladder)."""
        row = self._one("SELECT body FROM snapshots WHERE ladder=? AND seq < ? "
                        "ORDER BY seq DESC LIMIT 1", (ladder, seq))
        return state_from_json(row[0], lambda labels: self._frozen(ladder, labels)) \
            if row is not None else LadderState(self.base_settings(ladder))

    def _frozen(self, ladder: int, labels: list[str]) -> dict[str, tuple[TableRow, ...]]:
        """The stored tables of these closed seasons, for a snapshot that names them.

        What `seasons` holds for a season closed before a snapshot is what the snapshot's
        standings held: a correction that changes such a table is of a match before the
        snapshot, and so deletes it.
        """
        return {label: tuple(self.season_table(ladder, label)) for label in labels}

    _STREAM = ("SELECT seq, at, kind, CASE WHEN duel_a IS NULL THEN body END, match, duel_a, "
               "duel_b, duel_flags, duel_moves, duel_played FROM events "
               "WHERE ladder=? AND seq > ? AND seq <= ? ORDER BY seq")

    def _stream(self, ladder: int, state: LadderState, upto: int,
                corrections: Mapping[int, Correction],
                visit: Callable[[int, int, Event | None, Any], None] | None = None,
                visit_from: int = 0, snapshots: Callable[[int], bool] | None = None,
                journal_from: int | None = None) -> None:
        """Fold the stored events after `state.seq`, up to `upto`, into `state`.

        Plain one-on-one matches are folded from their columns, in runs (`fold_rows`:
        the rulebook folds at once what it can, the rest one by one); everything else is
        decoded. `visit(seq, at, event, outcome)` sees every event from `visit_from` on:
        `event` is None for a plain match folded from its columns, whose outcome is
        `apply_duel`'s tuple (with the match id first), else the event and its
        `Applied`. Snapshots are stored, at the usual spacing, where `snapshots(seq)`
        holds; from `journal_from` on, the standings journal what they fold (see
        `undo_to`).
        """
        every = self.store.snapshot_interval(len(state.players))
        runs = _Runs(state, visit)
        pending, seqs, flush = runs.pending, runs.seqs, runs.flush  # (locals: per event)
        # (seq >= first_visited: visited; a plain local, as this loop runs per event)
        first_visited = visit_from if visit is not None else upto + 1
        with paused():  # (core.domain.collector: a long fold builds much that stays)
            for seq, at, kind, body, match, a, b, flags, moves, played in self.store.stream(
                    self.conn, self._STREAM, (ladder, state.seq, upto)):
                if seq == journal_from:
                    flush()
                    state.undo = deque(maxlen=tuning.UNDO_EVENTS)
                visited = seq >= first_visited
                if a is not None and match not in corrections:
                    if visited != bool(seqs) and pending:
                        flush()
                    pending.append((at, a, b, bool(flags & 1), not flags & 2, moves,
                                    played, match))
                    if visited:
                        seqs.append((seq, at))
                    if len(pending) >= tuning.LONGEST_BATCH:
                        flush()
                else:
                    flush()
                    if a is not None:  # body was left out of the read: rebuild the event
                        event: Event = plain_event((at, a, b, bool(flags & 1), not flags & 2,
                                                    moves, played, match))
                    else:
                        event = decode_event(kind, at, json.loads(body))
                    outcome: Any = state.apply(event, corrections)
                    if visited:
                        assert visit is not None
                        visit(seq, at, event, outcome)
                if snapshots is not None and seq % every == 0 and snapshots(seq):
                    flush()
                    self._snapshot(ladder, state)
            flush()

    def state(self, ladder: int) -> LadderState:
        return self._cached(ladder).state

    def append(self, ladder: int, events: Sequence[Event]) -> list[Applied | Rederived]:
        cached = self._cached(ladder, whole=False)
        self.touched.add(ladder)
        before = cached.state
        marks = (before.settings, before.season, before.last_decay)
        results: list[Applied | Rederived] = []
        for event in events:
            self._ready(ladder, cached, event)
            state = cached.state
            seq = state.seq + 1
            kind, body, key = encode_event(event)
            match = event.match.id if isinstance(event, MatchConfirmed) else None
            self.conn.execute(
                "INSERT INTO events (ladder, seq, at, kind, body, match, key, duel_a, duel_b, "
                "duel_flags, duel_moves, duel_played) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (ladder, seq, event.at, kind, dumps(body), match, key, *duel_columns(event)),
            )
            if isinstance(event, RulesSwitched):
                results.append(self._switch(ladder, cached, event))
                continue
            found = corrections_of(event)
            if found:
                first = min(found)
                prior = cached.corrections.get(first) if len(found) == 1 else None
                cached.corrections.update(found)
                row = self._one(self._first_event, (ladder, first, max(found)))
                if row[0] is not None:
                    results.append(self._rederive(ladder, cached, row[0], event, prior,
                                                  one=len(found) == 1))
                    continue
            if isinstance(event, DecayDay) and self._bulk_decay(state):
                applied = self._decay_beside(ladder, state, event, cached.corrections)
            else:
                applied = state.apply(event, cached.corrections)
                self._project(ladder, state, seq, event, applied)
            if seq % self.store.snapshot_interval(self.held_players(cached)) == 0:
                self._complete(ladder, cached)
                self._snapshot(ladder, state)
            results.append(applied)
        self._keep_marks(ladder, cached.state, marks)
        return results

    def _switch(self, ladder: int, cached: Cached, event: RulesSwitched) -> Rederived:
        """The whole history read anew under the event's settings, as if the ladder had
        been made with them (their journal holds the old rules' standings: not used)."""
        self.conn.execute("UPDATE ladders SET base_settings=? WHERE id=?",
                          (settings_to_json(event.settings), ladder))
        self.settings_read.pop(ladder, None)
        cached.state.undo = None
        done: Rederived = self._rederive(ladder, cached, 1, event, None, one=False)
        return done

    def _keep_marks(self, ladder: int, state: LadderState, marks: tuple[Any, ...]) -> None:
        """Store the ladder's settings, season and last decay day where they are no longer
        `marks` (serializing settings is costly: only when they changed)."""
        if (state.settings, state.season, state.last_decay) != marks:
            self.settings_read.pop(ladder, None)
            self.conn.execute(
                "UPDATE ladders SET settings=?, season=?, last_decay=? WHERE id=?",
                (settings_to_json(state.settings), state.season, state.last_decay, ladder))

    def _snapshot(self, ladder: int, state: LadderState) -> None:
        self.conn.execute("INSERT INTO snapshots (ladder, seq, body) VALUES (?, ?, ?) "
                          "ON CONFLICT (ladder, seq) DO UPDATE SET body=excluded.body",
                          (ladder, state.seq, state_to_json(state)))

    def _project(self, ladder: int, state: LadderState, seq: int, event: Event,
                 applied: Applied) -> None:
        rows = stored_changes(ladder, seq, event, applied)
        if rows:
            insert_rows(self.conn, CHANGES_INTO, rows)
        if applied.kind == "decay":
            self._decay_players(ladder, state)
        else:
            self._write_players(ladder, state, applied.players)
        # A new match's record is saved by the caller with its effect; only a re-derivation
        # rewrites the records of matches already stored.
        if applied.season is not None:
            self._write_season(ladder, applied.season.season, applied.season.table)
            start = self._one("SELECT count(*) FROM hall_of_fame WHERE ladder=?", (ladder,))[0]
            self._write_hall(ladder, start, applied.season.hall)

    def _decay_players(self, ladder: int, state: LadderState) -> None:
        """A decay day as one statement, the same formula as `core.domain.elo.decay_amount`
        (a big ladder's goes through `_decay_beside` instead)."""
        if state.settings.decays:
            self.conn.execute(self.dialect.decay, decay_args(ladder, state.settings))

    def _bulk_decay(self, state: LadderState) -> bool:
        """Whether a decay day of this ladder goes through `_decay_beside`."""
        bulk = tuning.BULK_DECAY if self.dialect.bulk_decay else None
        return bulk is not None and len(state.players) >= bulk and state.settings.decays

    def _decay_beside(self, ladder: int, state: LadderState, event: DecayDay,
                      corrections: Mapping[int, Correction]) -> Applied:
        """A decay day of a big ladder: folded into the standings on a helper thread
        while the database rewrites the stored ratings; returns the fold's `Applied`.

        Updating a million ratings through the leaderboard index and the histogram's
        trigger takes seconds; without them, then rebuilding the index, well under one
        (PITFALLS.md). The histogram is counted by the helper from the decayed standings,
        which equal the stored ratings by the same formula. sqlite3 lets go of the GIL
        while a statement runs, so the fold costs no time of its own: the two share
        nothing until the helper is joined, and a failure on either side fails the unit
        (whose cached standings are then dropped).
        """
        folded: list[tuple[Applied, Counter[int]] | BaseException] = []

        def fold() -> None:
            try:
                applied = state.apply(event, corrections)
                folded.append((applied, Counter(
                    int(p.rating) for p in state.players.values() if p.member)))
            except BaseException as error:  # raised again on the database thread
                folded.append(error)

        # Their definitions are read back from the schema, so they come back exactly as
        # the migrations made them.
        names = ("players_by_rating", "rating_counts_update")
        ddl = [self._one("SELECT sql FROM sqlite_master WHERE name=?", (n,))[0] for n in names]
        args = decay_args(ladder, state.settings)
        helper = threading.Thread(target=fold, name="decay-fold")
        helper.start()
        try:
            self.conn.execute("DROP TRIGGER rating_counts_update")
            self.conn.execute("DROP INDEX players_by_rating")
            self.conn.execute(self.dialect.decay, args)
            self.conn.execute(ddl[0])
        finally:
            helper.join()
        outcome = folded[0]
        if isinstance(outcome, BaseException):
            raise outcome
        applied, counts = outcome
        self.conn.execute("DELETE FROM rating_counts WHERE ladder=?", (ladder,))
        self.conn.executemany("INSERT INTO rating_counts (ladder, bucket, n) VALUES (?, ?, ?)",
                              [(ladder, bucket, n) for bucket, n in counts.items()])
        self.conn.execute(ddl[1])
        return applied

    def _write_season(self, ladder: int, season: str, table: Sequence[TableRow]) -> None:
        self.conn.execute("DELETE FROM seasons WHERE ladder=? AND season=?", (ladder, season))
        self.conn.executemany(
            "INSERT INTO seasons (ladder, season, place, player, gain, rated_games) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            [(ladder, season, place, r.player, r.value, r.rated_games)
             for place, r in enumerate(table, 1)])

    def _write_hall(self, ladder: int, start: int, entries: Sequence[HallEntry]) -> None:
        """Hall of Fame entries, numbered on from position `start`."""
        self.conn.executemany(
            "INSERT INTO hall_of_fame (ladder, pos, season, place, player, gain) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            [(ladder, start + i, e.season, e.place, e.player, e.gain)
             for i, e in enumerate(entries)])

    def _write_players(self, ladder: int, state: LadderState,
                       players: Sequence[PlayerId] | set[PlayerId]) -> None:
        if not players:
            return
        rungs = {p: i + 1 for i, p in enumerate(state.order)} if state.settings.is_position \
            else {}
        settings = state.settings
        book = state.rulebook
        self.conn.executemany(
            "UPDATE players SET member=?, rating=?, rung=?, games=?, rated_games=?, wins=?, "
            "losses=?, draws=?, rated_wins=?, last_played=?, season_gain=?, season_games=?, "
            "extra=?, held=? WHERE ladder=? AND id=?",
            [(int(s.member), s.rating, rungs.get(p), s.games, s.rated_games, s.wins, s.losses,
              s.draws, s.rated_wins, s.last_played, s.season_gain, s.season_games,
              dumps(s.extra) if s.extra else None, int(book.provisional(settings, s)),
              ladder, p)
             for p in players if (s := state.players.get(p)) is not None])


class _Runs:
    """Plain matches waiting to be folded together (`core.domain.batch.fold_rows`, which
    folds one by one what its rulebook cannot fold at once); anything else folds them
    first. Visited ones wait apart from the others, since their fold must say what each
    one did."""

    __slots__ = ("pending", "seqs", "state", "visit")

    def __init__(self, state: LadderState,
                 visit: Callable[[int, int, Event | None, Any], None] | None) -> None:
        self.state, self.visit = state, visit
        self.pending: list[tuple[Any, ...]] = []
        self.seqs: list[tuple[int, int]] = []  # (seq, at) of the visited ones waiting

    def flush(self) -> None:
        pending, seqs = self.pending, self.seqs
        if not pending:
            return
        if seqs:
            outcomes: list[Any] = []
            fold_rows(self.state, pending, outcomes)
            assert self.visit is not None
            for (seq, at), row, outcome in zip(seqs, pending, outcomes, strict=True):
                self.visit(seq, at, None, (row[7], row[1], row[2], *outcome))
            seqs.clear()
        else:
            fold_rows(self.state, pending)
        pending.clear()

