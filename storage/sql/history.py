"""The stored history as the SQL store writes and reads it: the rows of a change and of
a re-derived event, the narrow columns of a plain match, and a ripple's `History`
(core/domain/ripple_history.py) read from the changes table (the derivation before a
correction).
"""

from __future__ import annotations

import bisect
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from core.domain.events import Event, MatchConfirmed
from core.domain.model import Correction, PlayerId, Timestamp
from core.domain.settings import Settings
from core.domain.standing import Applied
from core.domain.state import LadderState
from storage.sql.dialect import Dialect
from storage.sql.projection import change_rows

if TYPE_CHECKING:
    from storage.sql.heads import Partial


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


def history_rows(ladder: int, seq: int, at: int, event: Event | None, outcome: Any,
                  rows: list[tuple[Any, ...]], effects: list[tuple[Any, ...]]) -> None:
    """The stored history of one re-derived event: its changes and its match's flags."""
    if event is None:  # a lean match: (match, a, b, rated, note, ra, na, rb, nb[, RDs])
        match, a, b, rated, note, ra, na, rb, nb, *rds = outcome
        da, db = rds or (None, None)
        rows.append((ladder, seq, a, at, ra, na, "match", match, int(rated), da))
        rows.append((ladder, seq, b, at, rb, nb, "match", match, int(rated), db))
        effects.append((int(rated), note, ladder, match))
        return
    rows += stored_changes(ladder, seq, event, outcome)
    effect = outcome.match
    if effect is not None and not effect.voided:
        effects.append((int(effect.rated), effect.note, ladder, effect.match_id))


# The columns of a stored change, as stored_changes gives them.
CHANGES_INTO = ("INSERT INTO changes (ladder, seq, player, at, before, after, kind, match, "
                "rated, rd)")
INSERT_CHANGES = f"{CHANGES_INTO} VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"


# A re-derived match's rated flag and note, as history_rows gives its effects.
RESTATE_FLAGS = ("UPDATE matches SET rated=?, note=? WHERE ladder=? AND id=? "
                 "AND confirmed_at IS NOT NULL")


def stored_changes(ladder: int, seq: int, event: Event, applied: Applied) -> list[tuple[Any, ...]]:
    return [(ladder, c.seq, c.player, c.at, c.before, c.after, c.kind, c.match, int(c.rated),
             c.rd) for c in change_rows(seq, event, applied)]


def decay_args(ladder: int, settings: Settings) -> tuple[Any, ...]:
    """The parameters of a store's `DECAY` statement for a ladder's decay day."""
    bottom = settings.floor if settings.floor is not None else 0.0
    return (bottom, settings.decay_min, float(settings.decay_divisor), ladder, bottom)


def players_key(players: Sequence[PlayerId]) -> str:
    """The sorted player ids of a match, the key reports of the same game share."""
    return ",".join(str(p) for p in sorted(players))


class StoredHistory:
    """A ripple's `History` from the changes table: the derivation before a correction."""

    def __init__(self, conn: sqlite3.Connection, ladder: int, dialect: Dialect) -> None:
        self.conn, self.ladder = conn, ladder
        self.by_player = dialect.indexed_by("changes_by_player")
        # Season closes are job events, found by their key (a few per year).
        self.closes = [r[0] for r in conn.execute(
            f"SELECT seq FROM events{dialect.indexed_by('events_job_key')} WHERE ladder=? AND "
            "key IS NOT NULL AND key >= 'season:' AND key < 'season;' ORDER BY seq",
            (ladder,))]

    def outcome(self, seq: int) -> tuple[bool, dict[PlayerId, tuple[float, float]]] | None:
        rows = self.conn.execute(
            "SELECT player, before, after, rated FROM changes WHERE ladder=? AND seq=? "
            "AND kind='match'", (self.ladder, seq)).fetchall()
        if not rows or len({r[3] for r in rows}) != 1:
            return None
        return bool(rows[0][3]), {p: (before, after) for p, before, after, _ in rows}

    def rated_deltas(self, player: PlayerId, after: int, before: int) -> list[tuple[int, float]]:
        return [(seq, new - old) for seq, old, new in self.conn.execute(
            f"SELECT seq, before, after FROM changes{self.by_player} WHERE "
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
            f"SELECT seq FROM changes{self.by_player} WHERE ladder=? AND "
            "player=? AND kind='match' AND rated=1 ORDER BY seq LIMIT ?",
            (self.ladder, player, count))]

    def season_start(self, before: int) -> int:
        at = bisect.bisect_left(self.closes, before)
        return self.closes[at - 1] if at else 0

    def rating_before(self, player: PlayerId, seq: int) -> float | None:
        row = self.conn.execute(
            f"SELECT after FROM changes{self.by_player} WHERE ladder=? AND "
            "player=? AND seq < ? ORDER BY seq DESC LIMIT 1", (self.ladder, player, seq)
        ).fetchone()
        return None if row is None else float(row[0])


@dataclass
class Cached:
    state: LadderState
    corrections: dict[int, Correction]
    partial: Partial | None = None  # standings read in part (storage/sql/heads.py)
