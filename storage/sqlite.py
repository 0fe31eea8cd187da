"""The SQLite store: event log, projections and operational state, through aiosqlite.

A unit of work is one transaction (BEGIN IMMEDIATE ... COMMIT) run as a single call on
the database thread. The standings of recently used ladders stay in memory between
commands; each transaction checks the stored log length first, so another process
writing the same database is noticed, and a rolled-back transaction drops what it
touched from memory.
"""

from __future__ import annotations

import asyncio
import bisect
import fcntl
import json
import logging
import os
import random
import sqlite3
import threading
import time
from collections import Counter, OrderedDict, deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO, TypeVar

import aiosqlite

from core.batch import fold_rows, plain_event
from core.calendar import DAY
from core.collector import paused
from core.events import DecayDay, Event, MatchConfirmed, collect_corrections, correction_of
from core.ledger import Rederived
from core.model import Correction, PlayerId, Timestamp
from core.ports import DAY_RANKS
from core.records import (
    AuditEntry,
    ChallengeRecord,
    ChangeRecord,
    LadderInfo,
    MatchRecord,
    PlayerInfo,
    UserRef,
)
from core.ripple import Original, ripple
from core.settings import Settings
from core.state import Applied, LadderState, PlayerState, standing_changes
from core.tables import HallEntry, TableRow, gain_table
from storage import dbthread, files
from storage.codec import (
    decode_event,
    dumps,
    encode_event,
    result_from_json,
    result_to_json,
    settings_from_json,
    settings_to_json,
    state_from_json,
    state_to_json,
)
from storage.following import FollowingTables
from storage.platform_data import PlatformTables
from storage.projection import change_rows
from storage.schema import (  # noqa: F401 - (their names, as the rest of the bot knows them)
    SchemaTooNew,
    configure,
    migrate,
    migrations,
    prepare,
    refuse_newer,
)

T = TypeVar("T")

log = logging.getLogger(__name__)

SNAPSHOT_EVERY = 1000  # events between stored snapshots at the least...
SNAPSHOT_PER_PLAYER = 5  # ...and more for big ladders: a snapshot holds every player
UNDO_EVENTS = 5000  # events a correction can roll back through (see LadderState.undo)
LONGEST_BATCH = 1 << 16  # plain matches folded together at most, when replaying
BULK_DECAY = 20_000  # from this many players, decay rebuilds the index instead
SYNC_RESTATE = 20_000  # a correction rewrites this much history at once; older, later
RESTATE_CHUNK = 50_000  # events of history restated per transaction
CACHED_LADDERS = 32
GROUP_LIMIT = 64  # units of work committed together at most
TRIES = 6  # attempts at a transaction that failed for a transient reason
ALL_ROWS = 1 << 62  # LIMIT meaning none, in both SQLite (-1) and PostgreSQL (no negatives)


def duel_columns(event: Event) -> tuple[int | None, ...]:
    """The narrow columns of a plain one-on-one match event (all None for other events)."""
    if isinstance(event, MatchConfirmed):
        m = event.match
        r = m.result
        if r.is_duel and r.margin is None and r.score is None and m.challenge_id is None \
                and not m.forfeit:
            return (r.sides[0][0], r.sides[1][0], int(r.draw) | (0 if r.rated else 2),
                    r.moves, m.played_at)
    return (None, None, None, None, None)


def _history_rows(ladder: int, seq: int, at: int, event: Event | None, outcome: Any,
                  rows: list[tuple[Any, ...]], effects: list[tuple[Any, ...]]) -> None:
    """The stored history of one re-derived event: its changes and its match's flags."""
    if event is None:  # a lean match: (match, a, b, rated, note, ra, na, rb, nb)
        match, a, b, rated, note, ra, na, rb, nb = outcome
        rows.append((ladder, seq, a, at, ra, na, "match", match, int(rated)))
        rows.append((ladder, seq, b, at, rb, nb, "match", match, int(rated)))
        effects.append((int(rated), note, ladder, match))
        return
    rows += _change_rows(ladder, seq, event, outcome)
    effect = outcome.match
    if effect is not None and not effect.voided:
        effects.append((int(effect.rated), effect.note, ladder, effect.match_id))


# The columns of a stored change, as _change_rows gives them.
INSERT_CHANGES = ("INSERT INTO changes (ladder, seq, player, at, before, after, kind, match, "
                  "rated) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")


# A re-derived match's rated flag and note, as _history_rows gives its effects.
RESTATE_FLAGS = ("UPDATE matches SET rated=?, note=? WHERE ladder=? AND id=? "
                 "AND confirmed_at IS NOT NULL")


def _change_rows(ladder: int, seq: int, event: Event, applied: Applied) -> list[tuple[Any, ...]]:
    return [(ladder, c.seq, c.player, c.at, c.before, c.after, c.kind, c.match, int(c.rated))
            for c in change_rows(seq, event, applied)]


def decay_args(ladder: int, settings: Settings) -> tuple[Any, ...]:
    """The parameters of a store's `DECAY` statement for a ladder's decay day."""
    bottom = settings.floor if settings.floor is not None else 0.0
    return (bottom, settings.decay_min, float(settings.decay_divisor), ladder, bottom)


def players_key(players: Sequence[PlayerId]) -> str:
    """The sorted player ids of a match, the key reports of the same game share."""
    return ",".join(str(p) for p in sorted(players))


class _StoredHistory:
    """`core.ripple.History` from the changes table: the derivation before a correction."""

    def __init__(self, conn: sqlite3.Connection, ladder: int) -> None:
        self.conn, self.ladder = conn, ladder
        # Season closes are job events, found by their key (a few per year).
        self.closes = [r[0] for r in conn.execute(
            "SELECT seq FROM events INDEXED BY events_job_key WHERE ladder=? AND key IS NOT "
            "NULL AND key >= 'season:' AND key < 'season;' ORDER BY seq", (ladder,))]

    def outcome(self, seq: int) -> tuple[bool, dict[PlayerId, tuple[float, float]]] | None:
        rows = self.conn.execute(
            "SELECT player, before, after, rated FROM changes WHERE ladder=? AND seq=? "
            "AND kind='match'", (self.ladder, seq)).fetchall()
        if not rows or len({r[3] for r in rows}) != 1:
            return None
        return bool(rows[0][3]), {p: (before, after) for p, before, after, _ in rows}

    def rated_deltas(self, player: PlayerId, after: int, before: int) -> list[tuple[int, float]]:
        return [(seq, new - old) for seq, old, new in self.conn.execute(
            "SELECT seq, before, after FROM changes INDEXED BY changes_by_player WHERE "
            "ladder=? AND player=? AND seq > ? AND seq < ? AND kind='match' AND rated=1 "
            "ORDER BY seq", (self.ladder, player, after, before))]

    def latest(self, upto: int) -> Timestamp:
        at: Timestamp = self.conn.execute(
            "SELECT coalesce(max(at), 0) FROM events WHERE ladder=? AND seq <= ?",
            (self.ladder, upto)).fetchone()[0]
        return at

    def at(self, seq: int) -> Timestamp:
        at: Timestamp = self.conn.execute("SELECT at FROM events WHERE ladder=? AND seq=?",
                                          (self.ladder, seq)).fetchone()[0]
        return at

    def first_rated(self, player: PlayerId, count: int) -> list[int]:
        return [r[0] for r in self.conn.execute(
            "SELECT seq FROM changes INDEXED BY changes_by_player WHERE ladder=? AND "
            "player=? AND kind='match' AND rated=1 ORDER BY seq LIMIT ?",
            (self.ladder, player, count))]

    def season_start(self, before: int) -> int:
        at = bisect.bisect_left(self.closes, before)
        return self.closes[at - 1] if at else 0

    def rating_before(self, player: PlayerId, seq: int) -> float | None:
        row = self.conn.execute(
            "SELECT after FROM changes INDEXED BY changes_by_player WHERE ladder=? AND "
            "player=? AND seq < ? ORDER BY seq DESC LIMIT 1", (self.ladder, player, seq)
        ).fetchone()
        return None if row is None else float(row[0])


@dataclass
class _Cached:
    state: LadderState
    corrections: dict[int, Correction]


class _Settings:
    """Parsed settings by their JSON text: a ladder row is read on every command."""

    def __init__(self) -> None:
        self._by_text: dict[str, Settings] = {}

    def __call__(self, text: str) -> Settings:
        found = self._by_text.get(text)
        if found is None:
            if len(self._by_text) > 256:
                self._by_text.clear()
            found = self._by_text[text] = settings_from_json(text)
        return found


class SqliteRepo(FollowingTables, PlatformTables):
    """The Repo protocol over one sqlite3 connection inside one transaction."""

    def __init__(self, conn: sqlite3.Connection, store: SqliteStore) -> None:
        self.conn = conn
        self.store = store
        self.touched: set[int] = set()
        self.locked: set[int] = set()  # ladders this transaction holds (PostgreSQL)
        self._savepoints = 0

    # ---- transactions
    @contextmanager
    def savepoint(self) -> Iterator[None]:
        self._savepoints += 1
        name = f"sp{self._savepoints}"
        self.conn.execute(f"SAVEPOINT {name}")
        outer, self.touched = self.touched, set()
        try:
            yield
        except BaseException:
            self.conn.execute(f"ROLLBACK TO {name}")
            self.conn.execute(f"RELEASE {name}")
            self.store.forget(self.touched)
            self.touched = outer
            raise
        self.conn.execute(f"RELEASE {name}")
        self.touched = outer | self.touched

    def _one(self, sql: str, args: Sequence[Any] = ()) -> Any:
        return self.conn.execute(sql, args).fetchone()

    def _all(self, sql: str, args: Sequence[Any] = ()) -> list[Any]:
        return self.conn.execute(sql, args).fetchall()

    # ---- ladders
    _LADDER = ("SELECT id, chat, name, settings, created_at, clock, is_default, channel, public, "
               "season, last_decay, next_due, mod_role FROM ladders")

    def _ladder(self, row: Any) -> LadderInfo:
        return LadderInfo(row[0], row[1], row[2], self.store.settings(row[3]), row[4], row[5],
                          bool(row[6]), row[7], bool(row[8]), row[9], row[10], row[11], row[12])

    def due_ladders(self, now: Timestamp) -> list[LadderInfo]:
        sql = f"{self._LADDER} WHERE next_due IS NOT NULL AND next_due <= ? ORDER BY id"
        rows = self._all(sql, (now,))
        if [r for r in rows if self.store.lock_ladder(self, r[0])]:  # in id order: no deadlock
            rows = self._all(sql, (now,))
        return [self._ladder(r) for r in rows]

    def every_ladder(self) -> list[LadderInfo]:
        return [self._ladder(r) for r in self._all(f"{self._LADDER} ORDER BY id")]

    def ladders(self, chat: str) -> list[LadderInfo]:
        return [self._ladder(r) for r in self._all(f"{self._LADDER} WHERE chat=? ORDER BY id",
                                                   (chat,))]

    def ladder(self, chat: str, name: str | None) -> LadderInfo | None:
        if name is None:
            row = self._one(f"{self._LADDER} WHERE chat=? AND is_default=1", (chat,))
        else:
            row = self._one(f"{self._LADDER} WHERE chat=? AND name=?", (chat, name))
        if row is not None and self.store.lock_ladder(self, row[0]):
            # Another process may have changed it while we waited for the lock.
            row = self._one(f"{self._LADDER} WHERE id=?", (row[0],))
        return self._ladder(row) if row is not None else None

    def add_ladder(self, chat: str, name: str, settings: Settings, at: Timestamp,
                   channel: str | None) -> LadderInfo:
        first = self._one("SELECT count(*) FROM ladders WHERE chat=?", (chat,))[0] == 0
        text = settings_to_json(settings)
        self.conn.execute(
            "INSERT INTO ladders (chat, name, base_settings, settings, created_at, clock, "
            "is_default, channel) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (chat, name, text, text, at, at, int(first), channel),
        )
        found = self.ladder(chat, name)
        assert found is not None
        return found

    def update_ladder(self, ladder: int, *, clock: Timestamp | None = None,
                      is_default: bool | None = None, channel: str | None = None,
                      public: bool | None = None, next_due: Timestamp | None = None,
                      mod_role: str | None = None, name: str | None = None) -> None:
        for column, value in (("clock", clock), ("is_default", is_default),
                              ("channel", channel), ("public", public), ("name", name)):
            if value is not None:
                self.conn.execute(f"UPDATE ladders SET {column}=? WHERE id=?", (value, ladder))
        if next_due is not None:
            self.conn.execute("UPDATE ladders SET next_due=? WHERE id=?",
                              (next_due or None, ladder))
        if mod_role is not None:
            self.conn.execute("UPDATE ladders SET mod_role=? WHERE id=?",
                              (mod_role or None, ladder))

    # Every table of a ladder's, children first (ladders itself last).
    _LADDER_TABLES = ("match_players", "changes", "matches", "challenges", "seasons",
                      "hall_of_fame", "audit", "snapshots", "events", "players",
                      "player_names", "rating_counts", "queues", "following",
                      "role_holdings")

    def delete_ladder(self, ladder: int) -> None:
        row = self._one("SELECT chat, name FROM ladders WHERE id=?", (ladder,))
        for table in self._LADDER_TABLES:
            self.conn.execute(f"DELETE FROM {table} WHERE ladder=?", (ladder,))
        if row is not None:  # announcements not yet delivered go with it
            self.conn.execute("DELETE FROM outbox WHERE chat=? AND ladder=?", (row[0], row[1]))
        self.conn.execute("DELETE FROM ladders WHERE id=?", (ladder,))
        self.store.forget({ladder})  # SQLite may give the id to the next new ladder

    def keep_export(self, chat: str, name: str, text: str, at: Timestamp) -> str:
        return files.export_file(self.store.home, chat, name, text, at)

    # ---- players
    # "user" is quoted: a reserved word in PostgreSQL, an ordinary name in SQLite.
    # Who a player is (player_names) is kept apart from how they stand (players).
    _NAMED = "player_names n JOIN players p ON p.ladder = n.ladder AND p.id = n.id"
    _PLAYER = (f'SELECT n.ladder, n.id, n."user", n.name, p.member, n.available, n.banned, '
               f'n.removed FROM {_NAMED}')

    @staticmethod
    def _player(row: Any) -> PlayerInfo:
        return PlayerInfo(row[0], row[1], row[2], row[3], bool(row[4]), bool(row[5]),
                          bool(row[6]), bool(row[7]))

    def player_for(self, ladder: int, user: str) -> PlayerInfo | None:
        row = self._one(f'{self._PLAYER} WHERE n.ladder=? AND n."user"=?', (ladder, user))
        return self._player(row) if row is not None else None

    def players(self, ladder: int,
                ids: Sequence[PlayerId] | None = None) -> dict[PlayerId, PlayerInfo]:
        if ids is None:
            rows = self._all(f"{self._PLAYER} WHERE n.ladder=?", (ladder,))
        else:
            unique = sorted(set(ids))
            rows = []
            for start in range(0, len(unique), 500):
                chunk = unique[start:start + 500]
                marks = ",".join("?" * len(chunk))
                rows += self._all(f"{self._PLAYER} WHERE n.ladder=? AND n.id IN ({marks})",
                                  (ladder, *chunk))
        return {row[1]: self._player(row) for row in rows}

    def add_player(self, ladder: int, user: UserRef) -> PlayerInfo:
        pid = self._one("SELECT coalesce(max(id), 0) + 1 FROM players WHERE ladder=?",
                        (ladder,))[0]
        start = self._ladder_settings(ladder).start
        self.conn.execute(
            'INSERT INTO player_names (ladder, id, "user", name) VALUES (?, ?, ?, ?)',
            (ladder, pid, user.key, user.name))
        self.conn.execute("INSERT INTO players (ladder, id, member, rating) VALUES (?, ?, 0, ?)",
                          (ladder, pid, start))
        return PlayerInfo(ladder, pid, user.key, user.name, member=False)

    def update_player(self, ladder: int, player: PlayerId, *, name: str | None = None,
                      available: bool | None = None, banned: bool | None = None,
                      removed: bool | None = None) -> None:
        if name is not None:
            self.conn.execute("UPDATE player_names SET name=? WHERE ladder=? AND id=?",
                              (name, ladder, player))
        for column, flag in (("available", available), ("banned", banned),
                             ("removed", removed)):
            if flag is not None:
                self.conn.execute(f"UPDATE player_names SET {column}=? WHERE ladder=? AND id=?",
                                  (int(flag), ladder, player))

    def _ladder_settings(self, ladder: int) -> Settings:
        settings: Settings = self.store.settings(
            self._one("SELECT settings FROM ladders WHERE id=?", (ladder,))[0])
        return settings

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
    _MATCH_EVENT = ("SELECT seq FROM events INDEXED BY events_match WHERE ladder=? AND match=? "
                    "AND match IS NOT NULL AND kind='match'")

    def _cached(self, ladder: int) -> _Cached:
        self.store.lock_ladder(self, ladder)
        # Another process may have written since: the log's length tells.
        stored_seq = self._one("SELECT coalesce(max(seq), 0) FROM events WHERE ladder=?",
                               (ladder,))[0]
        cached = self.store.cache_get(ladder)
        if cached is not None and cached.state.seq == stored_seq:
            return cached
        state = self._snapshot_before(ladder, stored_seq + 1)
        corrections = collect_corrections(
            decode_event(k, at, json.loads(b)) for k, at, b in self._all(
                "SELECT kind, at, body FROM events INDEXED BY events_corrections WHERE ladder=? "
                "AND kind IN ('void', 'result') ORDER BY seq", (ladder,)))
        # Journal the newest events as they are folded, so that a recent correction
        # right after a restart rolls back instead of replaying from a snapshot.
        state.undo = None
        self._stream(ladder, state, stored_seq, corrections,
                     journal_from=max(state.seq + 1, stored_seq - UNDO_EVENTS + 1))
        if state.undo is None:
            state.undo = deque(maxlen=UNDO_EVENTS)
        cached = _Cached(state, corrections)
        self.store.cache_put(ladder, cached)
        return cached

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
        # Plain matches wait here to be folded together (`core.batch.fold_rows`, which
        # folds one by one what its rulebook cannot fold at once); anything else folds
        # them first. Visited ones wait apart from the others, since their fold must say
        # what each one did.
        pending: list[tuple[Any, ...]] = []
        seqs: list[tuple[int, int]] = []  # (seq, at) of the visited ones waiting

        def flush() -> None:
            if not pending:
                return
            if seqs:
                outcomes: list[Any] = []
                fold_rows(state, pending, outcomes)
                assert visit is not None
                for (seq, at), row, outcome in zip(seqs, pending, outcomes, strict=True):
                    visit(seq, at, None, (row[7], row[1], row[2], *outcome))
                seqs.clear()
            else:
                fold_rows(state, pending)
            pending.clear()

        # (seq >= first_visited: visited; a plain local, as this loop runs per event)
        first_visited = visit_from if visit is not None else upto + 1
        with paused():  # (core.collector: a long fold builds much that stays)
            for seq, at, kind, body, match, a, b, flags, moves, played in self.store.stream(
                    self.conn, self._STREAM, (ladder, state.seq, upto)):
                if seq == journal_from:
                    flush()
                    state.undo = deque(maxlen=UNDO_EVENTS)
                visited = seq >= first_visited
                if a is not None and match not in corrections:
                    if visited != bool(seqs) and pending:
                        flush()
                    pending.append((at, a, b, bool(flags & 1), not flags & 2, moves,
                                    played, match))
                    if visited:
                        seqs.append((seq, at))
                    if len(pending) >= LONGEST_BATCH:
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
        cached = self._cached(ladder)
        self.touched.add(ladder)
        before = cached.state
        marks = (before.settings, before.season, before.last_decay)
        results: list[Applied | Rederived] = []
        for event in events:
            state = cached.state
            seq = state.seq + 1
            kind, body, key = encode_event(event)
            match = event.match.id if isinstance(event, MatchConfirmed) else None
            self.conn.execute(
                "INSERT INTO events (ladder, seq, at, kind, body, match, key, duel_a, duel_b, "
                "duel_flags, duel_moves, duel_played) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (ladder, seq, event.at, kind, dumps(body), match, key, *duel_columns(event)),
            )
            found = correction_of(event)
            if found is not None:
                prior = cached.corrections.get(found[0])
                cached.corrections[found[0]] = found[1]
                row = self._one(self._MATCH_EVENT, (ladder, found[0]))
                if row is not None:
                    results.append(self._rederive(ladder, cached, row[0], event, prior))
                    continue
            if isinstance(event, DecayDay) and self._bulk_decay(state):
                applied = self._decay_beside(ladder, state, event, cached.corrections)
            else:
                applied = state.apply(event, cached.corrections)
                self._project(ladder, state, seq, event, applied)
            if seq % self.store.snapshot_interval(len(state.players)) == 0:
                self._snapshot(ladder, state)
            results.append(applied)
        state = cached.state
        if (state.settings, state.season, state.last_decay) != marks:
            # Serializing settings is costly: only when they (or the marks) changed.
            self.conn.execute(
                "UPDATE ladders SET settings=?, season=?, last_decay=? WHERE id=?",
                (settings_to_json(state.settings), state.season, state.last_decay, ladder))
        return results

    def _snapshot(self, ladder: int, state: LadderState) -> None:
        self.conn.execute("INSERT INTO snapshots (ladder, seq, body) VALUES (?, ?, ?) "
                          "ON CONFLICT (ladder, seq) DO UPDATE SET body=excluded.body",
                          (ladder, state.seq, state_to_json(state)))

    def _project(self, ladder: int, state: LadderState, seq: int, event: Event,
                 applied: Applied) -> None:
        rows = _change_rows(ladder, seq, event, applied)
        if rows:
            self.conn.executemany(INSERT_CHANGES, rows)
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
        """A decay day as one statement, the same formula as `core.elo.decay_amount`
        (a big ladder's goes through `_decay_beside` instead)."""
        if state.settings.decays:
            self.conn.execute(self.store.DECAY, decay_args(ladder, state.settings))

    def _bulk_decay(self, state: LadderState) -> bool:
        """Whether a decay day of this ladder goes through `_decay_beside`."""
        bulk = self.store.BULK_DECAY
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
            self.conn.execute(self.store.DECAY, args)
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

    def _ripple(self, ladder: int, cached: _Cached, from_seq: int, event: Event,
                prior: Correction | None) -> Rederived | None:
        """A correction beyond the journal's reach, re-derived by `core.ripple` from the
        stored history, when that can say enough; else None (and `_rederive` replays).

        The standings, the history that changed and the frozen tables are rewritten at
        once, and the journal of the newest events is kept (mended), so a recent
        correction after it still rolls back.
        """
        old = cached.state
        upto = old.seq + 1  # the correction event, inserted but not folded yet
        if self._one("SELECT restate_from FROM ladders WHERE id=?", (ladder,))[0] is not None:
            return None  # the history it reads waits for `restate`
        row = self._one("SELECT at, match, duel_a, duel_b, duel_flags, duel_moves, duel_played "
                        "FROM events WHERE ladder=? AND seq=?", (ladder, from_seq))
        if row is None or row[2] is None:
            return None
        at, match, a, b, flags, moves, played = row
        if self._one("SELECT 1 FROM matches INDEXED BY matches_by_players WHERE ladder=? "
                     "AND players_key=? AND id != ? LIMIT 1",
                     (ladder, players_key((a, b)), match)) is not None:
            return None  # the pair played again: anti-farming may count it differently
        original = Original(from_seq, match, at, a, b, bool(flags & 1), not flags & 2, moves,
                            played)
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
                      _StoredHistory(self.conn, ladder), cached.corrections)
        if done is None:
            return None
        old.apply(event, cached.corrections)
        # `_rederive` deleted the snapshots from the match on. One of the new standings
        # serves a restart; a correction between the two that neither the journal nor a
        # ripple can take replays from the one before the match.
        self._snapshot(ladder, old)
        rows_of: list[tuple[Any, ...]] = []
        for seq, (at, outcome) in done.outcomes.items():
            _history_rows(ladder, seq, at, None, outcome, rows_of, [])
        self.conn.executemany("DELETE FROM changes WHERE ladder=? AND seq=?",
                              [(ladder, seq) for seq in
                               [*done.outcomes, *([from_seq] if done.voided else [])]])
        self.conn.executemany(INSERT_CHANGES, rows_of)
        if done.effect is not None:
            self.conn.execute(RESTATE_FLAGS, (int(done.effect[0]), done.effect[1], ladder, match))
        changed = list(done.before)
        self._write_players(ladder, old, changed)
        for label in done.frozen:
            self._write_season(ladder, label, old.frozen[label])
        if done.frozen:
            self.conn.execute("DELETE FROM hall_of_fame WHERE ladder=?", (ladder,))
            self._write_hall(ladder, 0, old.hall)

        def before(p: PlayerId) -> PlayerState | None:
            return done.before[p] if p in done.before else old.players.get(p)

        return Rederived(from_seq, (), standing_changes(before, old.order, old, changed))

    def _rederive(self, ladder: int, cached: _Cached, from_seq: int, event: Event,
                  prior: Correction | None) -> Rederived:
        """Re-derive the standings after a correction (`event`; `prior` is the match's
        final word before it) of the match at `from_seq`, up to the head.

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
        if forward is None:
            rippled = self._ripple(ladder, cached, from_seq, event, prior)
            if rippled is not None:
                return rippled
        state = old if forward is not None else self._snapshot_before(ladder, from_seq)
        # History is rewritten at once for the newest events and for the week the week
        # table reads; older history waits for `restate`.
        at = self._one("SELECT at FROM events WHERE ladder=? AND seq=?", (ladder, upto))[0]
        cutoff = at - round((state.settings.week_days + 1) * DAY)
        start = self._one(  # the first event whose history is rewritten now
            "SELECT seq FROM events WHERE ladder=? AND seq >= ? AND seq <= ? "
            "AND (seq >= ? OR at > ?) ORDER BY seq LIMIT 1",
            (ladder, from_seq, upto, upto - SYNC_RESTATE, cutoff))[0]
        # Who can stand differently afterwards: the players of the events replayed, or,
        # when they are many more than the players, simply every player (a visit per
        # event costs more than comparing them all).
        every_player = forward is None and (upto - from_seq) * 2 > len(state.players)
        rows: list[tuple[Any, ...]] = []
        effects: list[tuple[Any, ...]] = []
        touched: set[PlayerId] = set()

        def visit(seq: int, at: int, event: Event | None, outcome: Any) -> None:
            if every_player:  # nothing to track
                pass
            elif event is None:
                touched.update(outcome[1:3])
            else:
                touched.update(outcome.players)
                if isinstance(event, MatchConfirmed):  # the players of a voided match too
                    touched.update(event.match.result.players)
                elif outcome.kind in ("decay", "season"):  # the others name their players
                    touched.update(state.players)
            if seq >= start:
                _history_rows(ladder, seq, at, event, outcome, rows, effects)

        journal = None if forward is not None else max(from_seq, upto - UNDO_EVENTS)
        # Snapshots go with the history: stored now where it is written now; for the older
        # part `restate`, which folds it again anyway, stores them (a snapshot holds every
        # player and every frozen season: a third of a long re-derivation's time).
        self._stream(ladder, state, upto, cached.corrections, visit,
                     visit_from=start if every_player else from_seq,
                     snapshots=lambda seq: seq >= start, journal_from=journal)
        self._write_history(ladder, start, upto, rows, effects)
        if start > from_seq:
            self._mark_stale(ladder, from_seq, start)
        if forward is not None:  # rolled back in place: compare with the states it replaced
            def before(p: PlayerId) -> PlayerState | None:
                return forward[p] if p in forward else old.players.get(p)

            changed = [p for p in touched | set(forward) if (s := state.players.get(p))
                       is not None and s != before(p)]
            moved = standing_changes(before, old.order, state, changed)
        else:
            old_rungs = {p: i for i, p in enumerate(old.order)}
            new_rungs = {p: i for i, p in enumerate(state.order)}
            if every_player or state.settings.is_position:  # (on a position ladder, a move
                touched.update(state.players)  # shifts everyone between its two rungs)
            changed = [p for p in touched if (s := state.players.get(p)) is not None
                       and (s != old.players.get(p) or new_rungs.get(p) != old_rungs.get(p))]
            moved = standing_changes(old.players.get, old.order, state, changed)
        self._write_players(ladder, state, changed)
        for label, table in state.frozen.items():  # only the frozen tables it changed
            if old.frozen.get(label) != table:
                self._write_season(ladder, label, table)
        for label in old.frozen.keys() - state.frozen.keys():
            self.conn.execute("DELETE FROM seasons WHERE ladder=? AND season=?", (ladder, label))
        if state.hall != old.hall:
            self.conn.execute("DELETE FROM hall_of_fame WHERE ladder=?", (ladder,))
            self._write_hall(ladder, 0, state.hall)
        cached.state = state
        # Storage keeps no per-event effects of a re-derivation (a long one would hold
        # millions): what moved is what the reply tells.
        return Rederived(from_seq, (), moved)

    def _write_history(self, ladder: int, start: int, upto: int, rows: list[tuple[Any, ...]],
                       effects: list[tuple[Any, ...]]) -> None:
        """Replace the changes of events [start, upto] and restate their matches' flags.

        Most later matches are of players the correction did not reach: their rows stay
        as they are, and only the rows that differ are rewritten.
        """
        stored = {(r[1], r[2]): r for r in self._all(
            "SELECT ladder, seq, player, at, before, after, kind, match, rated FROM changes "
            "WHERE ladder=? AND seq >= ? AND seq <= ?", (ladder, start, upto))}
        fresh = {(r[1], r[2]): r for r in rows}
        # A row that differs only in its ratings is updated in place: no index holds
        # them, so that costs a third of deleting and inserting it again.
        moved, gone, added = [], [], []
        for key, row in stored.items():
            new = fresh.get(key)
            if new == row:
                continue
            if new is not None and new[3] == row[3] and new[6:] == row[6:]:
                moved.append((new[4], new[5], ladder, key[0], key[1]))
            else:
                gone.append((ladder, *key))
        for key, row in fresh.items():
            old = stored.get(key)
            if old is None or (old != row and not (old[3] == row[3] and old[6:] == row[6:])):
                added.append(row)
        self.conn.executemany("UPDATE changes SET before=?, after=? WHERE ladder=? AND seq=? "
                              "AND player=?", moved)
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

    def restate(self, ladder: int, chunk: int = RESTATE_CHUNK) -> bool:
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
            _history_rows(ladder, seq, at, event, outcome, rows, effects)

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

    # ---- matches
    def new_match_id(self, ladder: int) -> int:
        # The next number after the stored ones: a read of the primary key, where a counter
        # in the ladder's row would be one more page written by every report.
        value: int = self._one("SELECT coalesce(max(id), 0) + 1 FROM matches WHERE ladder=?",
                               (ladder,))[0]
        return value

    _MATCH = ("SELECT ladder, id, status, reporter, reported_at, result, challenge, forfeit, "
              "confirmed_at, disputed_at, voided_at, note, rated FROM matches")

    @staticmethod
    def _match(row: Any) -> MatchRecord:
        return MatchRecord(row[0], row[1], row[2], row[3], row[4],
                           result_from_json(json.loads(row[5])), row[6], bool(row[7]), row[8],
                           row[9], row[10], row[11], None if row[12] is None else bool(row[12]))

    def save_match(self, record: MatchRecord) -> None:
        self.conn.execute(
            "INSERT INTO matches (ladder, id, status, reporter, reported_at, result, "
            "challenge, forfeit, confirmed_at, disputed_at, voided_at, note, rated, "
            "players_key) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (ladder, id) DO UPDATE SET status=excluded.status, "
            "reporter=excluded.reporter, reported_at=excluded.reported_at, "
            "result=excluded.result, challenge=excluded.challenge, forfeit=excluded.forfeit, "
            "confirmed_at=excluded.confirmed_at, disputed_at=excluded.disputed_at, "
            "voided_at=excluded.voided_at, note=excluded.note, rated=excluded.rated, "
            "players_key=excluded.players_key",
            (record.ladder, record.id, record.status, record.reporter, record.reported_at,
             dumps(result_to_json(record.result)), record.challenge, int(record.forfeit),
             record.confirmed_at, record.disputed_at, record.voided_at, record.note,
             None if record.rated is None else int(record.rated),
             players_key(record.result.players)))
        self.conn.executemany(
            "INSERT INTO match_players (ladder, player, match) VALUES (?, ?, ?) "
            "ON CONFLICT DO NOTHING",
            [(record.ladder, p, record.id) for p in record.result.players])

    def match(self, ladder: int, match_id: int) -> MatchRecord | None:
        row = self._one(f"{self._MATCH} WHERE ladder=? AND id=?", (ladder, match_id))
        return self._match(row) if row is not None else None

    def same_players(self, ladder: int, players: Sequence[PlayerId],
                     since: Timestamp) -> list[MatchRecord]:
        # Named, because without statistics the planner scans the ladder for this OR.
        return [self._match(r) for r in self._all(
            f"{self._MATCH} INDEXED BY matches_by_players WHERE ladder=? AND players_key=? AND "
            "(status IN ('pending', 'disputed') OR reported_at >= ?) ORDER BY id",
            (ladder, players_key(players), since))]

    def open_matches(self, ladder: int) -> list[MatchRecord]:
        return [self._match(r) for r in self._all(
            f"{self._MATCH} WHERE ladder=? AND status IN ('pending', 'disputed') ORDER BY id",
            (ladder,))]

    def matches(self, ladder: int, player: PlayerId | None = None,
                limit: int | None = None) -> list[MatchRecord]:
        cap = ALL_ROWS if limit is None else limit
        if player is None:
            rows = self._all(f"{self._MATCH} WHERE ladder=? ORDER BY id DESC LIMIT ?",
                             (ladder, cap))
        else:
            rows = self._all(
                f"{self._MATCH} WHERE ladder=? AND id IN (SELECT match FROM match_players "
                "WHERE ladder=? AND player=?) ORDER BY id DESC LIMIT ?",
                (ladder, ladder, player, cap))
        return [self._match(r) for r in rows]

    # ---- challenges
    def new_challenge_id(self, ladder: int) -> int:
        value: int = self._one("SELECT coalesce(max(id), 0) + 1 FROM challenges WHERE ladder=?",
                               (ladder,))[0]
        return value

    def save_challenge(self, record: ChallengeRecord) -> None:
        self.conn.execute(
            "INSERT INTO challenges (ladder, id, challenger, challenged, status, "
            "issued_at, answered_at, reminded, match, reason) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (ladder, id) DO UPDATE SET challenger=excluded.challenger, "
            "challenged=excluded.challenged, status=excluded.status, "
            "issued_at=excluded.issued_at, answered_at=excluded.answered_at, "
            "reminded=excluded.reminded, match=excluded.match, reason=excluded.reason",
            (record.ladder, record.id, record.challenger, record.challenged, record.status,
             record.issued_at, record.answered_at, int(record.reminded), record.match,
             record.reason))

    def unfinished_challenges(self, ladder: int) -> list[ChallengeRecord]:
        return [ChallengeRecord(r[0], r[1], r[2], r[3], r[4], r[5], r[6], bool(r[7]), r[8], r[9])
                for r in self._all(
                    "SELECT ladder, id, challenger, challenged, status, issued_at, answered_at, "
                    "reminded, match, reason FROM challenges WHERE ladder=? AND status IN "
                    "('open', 'accepted') ORDER BY id", (ladder,))]

    # ---- audit
    def add_audit(self, entry: AuditEntry) -> None:
        self.conn.execute(
            "INSERT INTO audit (ladder, id, at, by, action, reason, match, player, detail) "
            "VALUES (?, (SELECT coalesce(max(id), 0) + 1 FROM audit WHERE ladder=?), "
            "?, ?, ?, ?, ?, ?, ?)",
            (entry.ladder, entry.ladder, entry.at, entry.by, entry.action, entry.reason,
             entry.match, entry.player, entry.detail))

    def audit(self, ladder: int, player: PlayerId | None = None,
              limit: int = 20) -> list[AuditEntry]:
        sql = "SELECT ladder, at, by, action, reason, match, player, detail FROM audit " \
              "WHERE ladder=?"
        args: tuple[Any, ...] = (ladder,)
        if player is not None:
            sql += (" AND (player=? OR match IN (SELECT match FROM match_players "
                    "WHERE ladder=? AND player=?))")
            args += (player, ladder, player)
        return [AuditEntry(*r) for r in self._all(sql + " ORDER BY id DESC LIMIT ?",
                                                  (*args, limit))]

    # ---- projections
    def player_state(self, ladder: int, player: PlayerId) -> PlayerState | None:
        row = self._one(
            "SELECT rating, games, rated_games, wins, losses, draws, rated_wins, last_played, "
            "season_gain, season_games, member, extra FROM players WHERE ladder=? AND id=?",
            (ladder, player))
        if row is None:
            return None
        extra = tuple(json.loads(row[11])) if row[11] else ()
        return PlayerState(*row[:10], member=bool(row[10]), extra=extra)

    def hall_of_fame(self, ladder: int) -> list[HallEntry]:
        return [HallEntry(*r) for r in self._all(
            "SELECT season, place, player, gain FROM hall_of_fame WHERE ladder=? ORDER BY pos",
            (ladder,))]

    def season_table(self, ladder: int, season: str) -> list[TableRow]:
        return [TableRow(*r) for r in self._all(
            "SELECT player, gain, rated_games FROM seasons WHERE ladder=? AND season=? "
            "ORDER BY place", (ladder, season))]

    _CHANGE = "SELECT seq, at, player, before, after, kind, match, rated FROM changes"

    @staticmethod
    def _change(row: Any) -> ChangeRecord:
        return ChangeRecord(row[0], row[1], row[2], row[3], row[4], row[5], row[6], bool(row[7]))

    def changes(self, ladder: int, player: PlayerId,
                limit: int | None = None) -> list[ChangeRecord]:
        rows = self._all(f"{self._CHANGE} WHERE ladder=? AND player=? ORDER BY seq DESC LIMIT ?",
                         (ladder, player, ALL_ROWS if limit is None else limit))
        return [self._change(r) for r in reversed(rows)]

    def match_changes(self, ladder: int, match_id: int) -> list[ChangeRecord]:
        return [self._change(r) for r in self._all(
            f"{self._CHANGE} WHERE ladder=? AND seq IN ({self._MATCH_EVENT}) AND kind='match' "
            "ORDER BY seq, player", (ladder, ladder, match_id))]

    def week_sums(self, ladder: int, since: Timestamp,
                  until: Timestamp) -> dict[PlayerId, tuple[float, int]]:
        return {p: (g, n) for p, g, n in self._all(
            "SELECT player, sum(after - before), count(*) FROM changes WHERE ladder=? AND "
            "kind='match' AND rated=1 AND at > ? AND at <= ? GROUP BY player",
            (ladder, since, until))}

    def _table_sql(self, ladder: int, table: str, at: Timestamp,
                   settings: Settings) -> tuple[str, tuple[Any, ...]]:
        if table == "rating":
            return ("SELECT id, rating, rated_games, held FROM players WHERE ladder=? AND "
                    "member=1 ORDER BY rating DESC, id", (ladder,))
        if table == "rung":
            return ("SELECT id, rung, rated_games FROM players WHERE ladder=? AND member=1 "
                    "ORDER BY rung", (ladder,))
        if table == "ladder":
            since = at - round(settings.active_days * DAY)
            return ("SELECT id, rating, rated_games FROM players WHERE ladder=? AND member=1 "
                    "AND rated_games >= ? AND held=0 AND last_played > ? AND last_played <= ? "
                    "ORDER BY rating DESC, id", (ladder, settings.calibration, since, at))
        raise ValueError(table)

    def _gain_table(self, ladder: int, table: str, at: Timestamp,
                    settings: Settings) -> list[TableRow]:
        if table == "season":
            rows = self._all(
                "SELECT id, season_gain, season_games, rated_games FROM players WHERE ladder=? "
                "AND member=1 AND held=0 AND season_gain > 0", (ladder,))
            return gain_table(settings, rows, settings.season_min_games)
        sums = self.week_sums(ladder, at - round(settings.week_days * DAY), at)
        members = {p: games for p, games in self._all(
            "SELECT id, rated_games FROM players WHERE ladder=? AND member=1 AND held=0",
            (ladder,))}
        return gain_table(settings, [(p, g, n, members[p]) for p, (g, n) in sums.items()
                                     if p in members], settings.week_min_games)

    def standings(self, ladder: int, table: str, at: Timestamp,
                  limit: int | None = None) -> tuple[list[TableRow], int]:
        settings = self._ladder_settings(ladder)
        if table in ("season", "week"):
            rows = self._gain_table(ladder, table, at, settings)
            return (rows if limit is None else rows[:limit]), len(rows)
        sql, args = self._table_sql(ladder, table, at, settings)
        if table == "rating":  # the histogram knows how many members there are
            total = self._one("SELECT CAST(coalesce(sum(n), 0) AS BIGINT) FROM rating_counts "
                              "WHERE ladder=?", (ladder,))[0]
        else:
            total = self._one(f"SELECT count(*) FROM ({sql}) AS t", args)[0]
        listed = self._all(f"{sql} LIMIT ?", (*args, ALL_ROWS if limit is None else limit))
        return [TableRow(*r) for r in listed], total

    def rank(self, ladder: int, table: str, player: PlayerId, at: Timestamp) -> int | None:
        row = self._one("SELECT member, rating, rung, rated_games, last_played, held FROM "
                        "players WHERE ladder=? AND id=?", (ladder, player))
        if row is None or not row[0]:
            return None
        _, rating, rung, games, last, held = row
        if table == "rung":
            return int(rung) if rung is not None else None
        if table == "rating":
            return 1 + self._rated_above(ladder, rating)
        settings = self._ladder_settings(ladder)
        if table == "ladder":
            since = at - round(settings.active_days * DAY)
            if games < settings.calibration or held or last is None or not since < last <= at:
                return None
            return 1 + self._one(
                "SELECT count(*) FROM players WHERE ladder=? AND member=1 AND rating > ? "
                "AND rated_games >= ? AND held=0 AND last_played > ? AND last_played <= ?",
                (ladder, rating, settings.calibration, since, at))[0]
        rows = self._gain_table(ladder, table, at, settings)
        mine = next((r for r in rows if r.player == player), None)
        return None if mine is None else 1 + sum(1 for r in rows if r.value > mine.value)

    def keep_day_ranks(self, ladder: int, table: str, at: Timestamp) -> None:
        rows, _ = self.standings(ladder, table, at, DAY_RANKS)
        self.conn.execute("UPDATE players SET day_rank=NULL WHERE ladder=? AND day_rank IS NOT "
                          "NULL", (ladder,))
        self.conn.executemany("UPDATE players SET day_rank=? WHERE ladder=? AND id=?",
                              [(place, ladder, r.player) for place, r in enumerate(rows, 1)])

    def day_ranks(self, ladder: int, players: Sequence[PlayerId]) -> dict[PlayerId, int]:
        marks = ",".join("?" * len(players))
        return {p: r for p, r in self._all(
            f"SELECT id, day_rank FROM players WHERE ladder=? AND day_rank IS NOT NULL "
            f"AND id IN ({marks})", (ladder, *players))} if players else {}

    def timeline(self, ladder: int) -> list[tuple[Timestamp, str, str]]:
        return [(at, kind, json.loads(body)["d" if kind == "decay" else "s"])
                for at, kind, body in self._all(
                    # Days and months are job events, keyed: read through the job index,
                    # not by scanning the whole log for two kinds.
                    "SELECT at, kind, body FROM events INDEXED BY events_job_key "
                    "WHERE ladder=? AND key IS NOT NULL "
                    "AND kind IN ('decay', 'season') ORDER BY seq", (ladder,))]

    def _rated_above(self, ladder: int, rating: float) -> int:
        """Members rated strictly higher: whole buckets above from the histogram, then the
        few in the player's own bucket, from the index."""
        bucket = int(rating)  # truncates toward zero, as CAST(... AS INTEGER) does
        above: int = self._one("SELECT CAST(coalesce(sum(n), 0) AS BIGINT) FROM rating_counts "
                               "WHERE ladder=? AND bucket > ?", (ladder, bucket))[0]
        # The bucket holds [b, b+1) for b > 0, (-1, 1) for b = 0 and (b-1, b] for b < 0.
        top = "rating < ?" if bucket >= 0 else "rating <= ?"
        within: int = self._one(
            f"SELECT count(*) FROM players WHERE ladder=? AND member=1 AND rating > ? AND {top}",
            (ladder, rating, bucket + 1 if bucket >= 0 else bucket))[0]
        return above + within

@dataclass(frozen=True)
class _Failed:
    """A unit of work that raised: its exception, to re-raise in its caller."""

    error: Exception


class SqliteStore:
    """The database: one aiosqlite connection; each unit of work is atomic, in one
    transaction (shared with the units that queued up beside it).

    Several processes may share the file: SQLite serializes their transactions
    (BEGIN IMMEDIATE), a ladder's cached standings are checked against the log's length
    before use, and one process at a time runs the scheduled jobs (`leads_jobs`).
    """

    # What PostgreSQL does differently (storage/postgres.py) is in these few names.
    DIALECT = "sqlite"
    BEGIN = "BEGIN IMMEDIATE"
    # A unit of work that only reads takes no write lock: in WAL mode it reads beside a
    # writer, even one in another process.
    READ_BEGIN = "BEGIN DEFERRED"
    # A decay day for every member, the formula of core.elo.decay_amount (CAST truncates).
    DECAY = ("UPDATE players SET rating = rating - min(rating - ?, max(?, CAST(rating * rating "
             "/ ? AS INTEGER))) WHERE ladder=? AND member=1 AND rating > ?")
    BULK_DECAY: int | None = BULK_DECAY  # see _decay_players
    group_limit = GROUP_LIMIT

    def __init__(self, path: str | Path, *, snapshot_every: int = SNAPSHOT_EVERY,
                 snapshot_per_player: int = SNAPSHOT_PER_PLAYER, existing: bool = False,
                 readonly: bool = False) -> None:
        self.path = str(path)
        # `existing`: the file must be a Ladderbot database already: it is never created
        # (an older one is upgraded; what a unit of work writes, it may roll back).
        # `readonly`: that, and nothing is ever written (SQLite opens it read-only).
        self.existing = existing or readonly
        self.readonly = readonly
        self.snapshot_every = snapshot_every
        self.snapshot_per_player = snapshot_per_player
        self.settings = _Settings()
        self._cache: OrderedDict[int, _Cached] = OrderedDict()
        self._db: aiosqlite.Connection | None = None
        self._waiting: list[tuple[Callable[[SqliteRepo], Any], asyncio.Future[Any]]] = []
        self._drainer: asyncio.Task[None] | None = None
        self._jobs_lock: TextIO | None = None

    @property
    def is_open(self) -> bool:
        return self._db is not None

    @property
    def home(self) -> Path:
        """The folder for files that belong with the database (the console's charts)."""
        return Path(self.path).parent

    # ---- what other processes on the same database need
    def lock_ladder(self, repo: SqliteRepo, ladder: int) -> bool:
        """Serialize the ladder's units of work across processes; True if the lock was
        just taken (rows read before it may be stale). SQLite's write lock already does."""
        return False

    def lock_message(self, repo: SqliteRepo, chat: str, message: str) -> None:
        """Serialize the handling of one chat message across processes (no-op here)."""

    def transient(self, error: BaseException) -> bool:
        """Whether a failed transaction should simply be tried again."""
        return False

    def recover(self, conn: Any) -> None:
        """After a failed transaction, make the connection usable again (a server's
        connection may have been lost); on the database thread."""

    def stream(self, conn: Any, sql: str, args: Sequence[Any]) -> Iterator[Any]:
        """The rows of a long read, as the caller consumes them."""
        return iter(conn.execute(sql, args))

    async def leads_jobs(self) -> bool:
        """Whether this process runs the scheduled jobs: one process per database at a
        time, held until it exits (a lock file beside the database)."""
        if self.path == ":memory:" or self._jobs_lock is not None:
            return True

        def take() -> TextIO | None:
            lock = open(f"{self.path}.jobs", "a")  # noqa: SIM115 (held while we run)
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                lock.close()
                return None
            return lock

        self._jobs_lock = await asyncio.to_thread(take)
        return self._jobs_lock is not None

    async def open(self) -> SqliteStore:
        """Connect, configure and migrate; read-only, check what the file is instead.
        A file SQLite cannot read raises UnusableDatabase saying so."""
        if self.existing and not await asyncio.to_thread(os.path.isfile, self.path):
            raise files.UnusableDatabase(f"there is no database at {self.path}")
        read_only = self.path != ":memory:" and await asyncio.to_thread(files.on_read_only,
                                                                         self.path)
        if self.readonly or (self.existing and read_only):
            return await self._open_readonly()
        if read_only:
            raise files.UnusableDatabase(
                f"{self.path} is on a read-only file system, and this command writes to its "
                "database (ladderbot web and export read one there)")
        self._db = await aiosqlite.connect(self.path, isolation_level=None)
        try:
            await dbthread.call(self._db, lambda conn: prepare(conn, self.path, self.existing))
        except sqlite3.DatabaseError as error:
            await self.close()
            raise files.UnusableDatabase(f"{self.path}: {error}") from None
        except BaseException:
            await self.close()
            raise
        return self

    async def _open_readonly(self) -> SqliteStore:
        latest = migrations()[-1][0]
        self._db = await files.connect_readonly(
            self.path, lambda conn: files.require_current(conn, self.path, latest))
        return self

    async def close(self) -> None:
        """Close the connection (the WAL is checkpointed by SQLite)."""
        if self._jobs_lock is not None:
            self._jobs_lock.close()
            self._jobs_lock = None
        if self._db is not None:
            db, self._db = self._db, None
            await db.close()

    async def __aenter__(self) -> SqliteStore:
        return await self.open()

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    def snapshot_interval(self, players: int) -> int:
        """Events between stored snapshots of a ladder of this many players."""
        return max(self.snapshot_every, self.snapshot_per_player * players)

    async def restate_pending(self) -> int:
        """Bring stale per-match history up to date, a chunk per transaction."""
        done = 0
        for ladder in await self.run(lambda repo: repo.stale_ladders()):
            while await self.run(lambda repo, lad=ladder: repo.restate(lad)):
                done += 1
            done += 1
        return done

    # ---- the standings cache
    def cache_get(self, ladder: int) -> _Cached | None:
        cached = self._cache.get(ladder)
        if cached is not None:
            self._cache.move_to_end(ladder)
        return cached

    def cache_put(self, ladder: int, cached: _Cached) -> None:
        self._cache[ladder] = cached
        self._cache.move_to_end(ladder)
        while len(self._cache) > CACHED_LADDERS:
            self._cache.popitem(last=False)

    def forget(self, ladders: set[int]) -> None:
        """Drop standings a rolled-back transaction had changed."""
        for ladder in ladders:
            self._cache.pop(ladder, None)

    # ---- units of work
    def _unit(self, conn: Any, work: Callable[[SqliteRepo], T], commit: bool) -> T:
        """One unit of work alone in its own transaction."""
        outcome = self._attempts(conn, [work], commit)[0]
        if isinstance(outcome, _Failed):
            raise outcome.error
        return outcome  # type: ignore[no-any-return]

    def _attempts(self, conn: Any, works: Sequence[Callable[[SqliteRepo], Any]],
                  commit: bool = True) -> list[Any]:
        """`_group`, tried again after a transient failure (PostgreSQL: a deadlock between
        processes, a lost race for a new row): the transaction was rolled back whole."""
        for attempt in range(TRIES):
            try:
                return self._group(conn, works, commit)
            except Exception as error:
                self.recover(conn)
                if not self.transient(error) or attempt == TRIES - 1:
                    raise
                log.info("transaction tried again after: %s", error)
                time.sleep(random.uniform(0, 0.005 * 2 ** attempt))  # on the database thread
        raise AssertionError("unreachable")

    def _group(self, conn: Any, works: Sequence[Callable[[SqliteRepo], Any]],
               commit: bool = True) -> list[Any]:
        """Units of work in one transaction, each in its own savepoint.

        A unit that raises is rolled back to its savepoint alone; the others commit
        together. Nothing is acknowledged before COMMIT, so a crash at any point leaves
        the database as before every unit of the group.
        """
        conn.execute(self.BEGIN if commit else self.READ_BEGIN)
        outcomes: list[Any] = []
        touched: set[int] = set()
        try:
            for work in works:
                repo = SqliteRepo(conn, self)
                conn.execute("SAVEPOINT unit")
                try:
                    outcomes.append(work(repo))
                except Exception as error:
                    conn.execute("ROLLBACK TO unit")
                    self.forget(repo.touched)
                    if self.transient(error):  # the whole transaction is tried again
                        raise
                    outcomes.append(_Failed(error))
                else:
                    touched |= repo.touched
                conn.execute("RELEASE unit")
            conn.execute("COMMIT" if commit else "ROLLBACK")
            if not commit:
                self.forget(touched)
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            self.forget(touched)
            raise
        return outcomes

    async def run(self, work: Callable[[SqliteRepo], T], *, commit: bool = True) -> T:
        """Run `work` in one transaction, in one call on the database thread.

        Units of work that arrive while the database thread is busy wait in a queue and
        then run together, as one group commit (see `_group`).
        """
        if not self.is_open:
            raise RuntimeError("the store is not open")
        if not commit:
            return await self._call(lambda conn: self._unit(conn, work, False))
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._waiting.append((work, future))
        if self._drainer is None or self._drainer.done():
            self._drainer = asyncio.get_running_loop().create_task(self._drain())
        outcome = await future
        if isinstance(outcome, _Failed):
            raise outcome.error
        return outcome  # type: ignore[no-any-return]

    async def _drain(self) -> None:
        """Run waiting units of work, as many per transaction as have queued up."""
        while self._waiting:
            batch = self._waiting[:self.group_limit]
            del self._waiting[:self.group_limit]
            works = [work for work, _ in batch]
            try:
                outcomes = await self._call(lambda conn, w=works: self._attempts(conn, w))
            except BaseException as error:  # the transaction itself failed: all of them did
                outcomes = [_Failed(error if isinstance(error, Exception)
                                    else RuntimeError(repr(error)))] * len(batch)
            for (_, future), outcome in zip(batch, outcomes, strict=True):
                if not future.done():
                    future.set_result(outcome)

    async def _call(self, fn: Callable[[Any], T]) -> T:
        """Run `fn(connection)` on the database thread."""
        if self._db is None:
            raise RuntimeError("the store is not open")
        return await dbthread.call(self._db, fn)

    async def backup(self, target: str | Path) -> None:
        """A consistent online copy of the database (SQLite's backup API), taken on the
        database thread between units of work."""
        await self._call(lambda conn: files.copy_database(conn, Path(target)))
