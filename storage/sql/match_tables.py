"""The SQL of the records the commands keep: matches as reported, challenges, and the
moderators' audit trail.

A part of the repository (`SqlRepo` takes it in).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from core.domain.model import PlayerId, Timestamp
from core.domain.records import (
    AuditEntry,
    ChallengeRecord,
    MatchRecord,
)
from storage.sql import tuning
from storage.sql.codec import (
    dumps,
    result_from_json,
    result_to_json,
)
from storage.sql.history import (
    players_key,
)
from storage.sql.part import Read, RepoPart, insert_rows


class MatchTables(RepoPart):
    """Matches, challenges and the audit trail (the repository supplies the rest)."""

    # ---- matches
    def new_match_id(self, ladder: int) -> int:
        # (storage/sql/units.py's KNOWN says why it is read, and PostgreSQL's store has it
        # from the ladder's own read)
        value: int = self.store.known(self, "match", ladder)
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
        insert_rows(self.conn, "INSERT INTO match_players (ladder, player, match)",
                    [(record.ladder, p, record.id) for p in record.result.players],
                    " ON CONFLICT DO NOTHING")

    def void_matches(self, ladder: int, first: int, last: int, at: Timestamp) -> None:
        self.conn.execute("UPDATE matches SET status='voided', voided_at=?, rated=0 WHERE "
                          "ladder=? AND id BETWEEN ? AND ? AND status<>'voided'",
                          (at, ladder, first, last))

    def match(self, ladder: int, match_id: int) -> MatchRecord | None:
        row = self._one(f"{self._MATCH} WHERE ladder=? AND id=?", (ladder, match_id))
        return self._match(row) if row is not None else None

    def same_players(self, ladder: int, players: Sequence[PlayerId],
                     since: Timestamp) -> list[MatchRecord]:
        return [self._match(r) for r in self._all(*self._same_players_reads(ladder, players,
                                                                            since)[0])]

    def _same_players_reads(self, ladder: int, players: Sequence[PlayerId],
                            since: Timestamp) -> list[Read]:
        # Named, because without statistics the planner scans the ladder for this OR.
        return [(f"{self._MATCH}{self.dialect.indexed_by('matches_by_players')} WHERE "
                 "ladder=? AND players_key=? AND "
                 "(status IN ('pending', 'disputed') OR reported_at >= ?) ORDER BY id",
                 (ladder, players_key(players), since))]

    def open_matches(self, ladder: int) -> list[MatchRecord]:
        return [self._match(r) for r in self._all(*self._open_matches_reads(ladder)[0])]

    def _open_matches_reads(self, ladder: int) -> list[Read]:
        # Without statistics SQLite reads every match of the ladder by its primary key,
        # for the order (5 ms at 100,000 matches, on every plan of the ladder's jobs).
        return [(f"{self._MATCH}{self.dialect.indexed_by('matches_open')} WHERE ladder=? "
                 "AND status IN ('pending', 'disputed') ORDER BY id", (ladder,))]

    def matches(self, ladder: int, player: PlayerId | None = None,
                limit: int | None = None) -> list[MatchRecord]:
        cap = tuning.ALL_ROWS if limit is None else limit
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
                for r in self._all(*self._unfinished_challenges_reads(ladder)[0])]

    @staticmethod
    def _unfinished_challenges_reads(ladder: int) -> list[Read]:
        return [("SELECT ladder, id, challenger, challenged, status, issued_at, answered_at, "
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
        return [AuditEntry(*r) for r in self._all(*self._audit_reads(ladder, player, limit)[0])]

    @staticmethod
    def _audit_reads(ladder: int, player: PlayerId | None, limit: int) -> list[Read]:
        sql = "SELECT ladder, at, by, action, reason, match, player, detail FROM audit " \
              "WHERE ladder=?"
        args: tuple[Any, ...] = (ladder,)
        if player is not None:
            sql += (" AND (player=? OR match IN (SELECT match FROM match_players "
                    "WHERE ladder=? AND player=?))")
            args += (player, ladder, player)
        return [(sql + " ORDER BY id DESC LIMIT ?", (*args, limit))]
