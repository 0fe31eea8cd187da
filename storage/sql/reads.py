"""The SQL store's reads of the projections: a player's standing, the tables, ranks,
day ranks, the Hall of Fame, changes and the timeline.

A part of the repository (`SqlRepo` takes it in).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from core.domain.calendar import DAY
from core.domain.model import PlayerId, Timestamp
from core.domain.records import (
    ChangeRecord,
)
from core.domain.settings import Settings
from core.domain.standing import PlayerState
from core.domain.tables import HallEntry, TableRow, gain_table
from core.ports.hints import PageNamesRead
from core.ports.repository import DAY_RANKS
from storage.sql import tuning
from storage.sql.codec import PLAYER_COLUMNS, stored_player
from storage.sql.part import Read, RepoPart

_PAGE = 200  # rows of a table read to be shown (a page, its names looked up next)


class ProjectionReads(RepoPart):
    """The projections as the commands read them (the repository supplies the rest)."""

    # ---- projections
    def player_state(self, ladder: int, player: PlayerId) -> PlayerState | None:
        row = self._one(*self._player_state_reads(ladder, player)[0])
        return None if row is None else stored_player(row)

    def hall_of_fame(self, ladder: int) -> list[HallEntry]:
        return [HallEntry(*r) for r in self._all(
            "SELECT season, place, player, gain FROM hall_of_fame WHERE ladder=? ORDER BY pos",
            (ladder,))]

    def season_table(self, ladder: int, season: str) -> list[TableRow]:
        return [TableRow(*r) for r in self._all(
            "SELECT player, gain, rated_games FROM seasons WHERE ladder=? AND season=? "
            "ORDER BY place", (ladder, season))]

    @staticmethod
    def _player_state_reads(ladder: int, player: PlayerId) -> list[Read]:
        return [(f"SELECT {PLAYER_COLUMNS} FROM players WHERE ladder=? AND id=?",
                 (ladder, player))]

    _CHANGE = "SELECT seq, at, player, before, after, kind, match, rated, rd FROM changes"

    @staticmethod
    def _change(row: Any) -> ChangeRecord:
        return ChangeRecord(row[0], row[1], row[2], row[3], row[4], row[5], row[6], bool(row[7]),
                            row[8])

    def changes(self, ladder: int, player: PlayerId,
                limit: int | None = None) -> list[ChangeRecord]:
        rows = self._all(*self._changes_reads(ladder, player, limit)[0])
        return [self._change(r) for r in reversed(rows)]

    def _changes_reads(self, ladder: int, player: PlayerId, limit: int | None) -> list[Read]:
        return [(f"{self._CHANGE} WHERE ladder=? AND player=? ORDER BY seq DESC LIMIT ?",
                 (ladder, player, tuning.ALL_ROWS if limit is None else limit))]

    def match_changes(self, ladder: int, match_id: int) -> list[ChangeRecord]:
        return [self._change(r) for r in self._all(
            f"{self._CHANGE} WHERE ladder=? AND seq IN ({self._match_event}) AND kind='match' "
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
            return ("SELECT id, rating, rated_games, held, extra FROM players WHERE ladder=? "
                    "AND member=1 ORDER BY rating DESC, id", (ladder,))
        if table == "rung":
            return ("SELECT id, rung, rated_games FROM players WHERE ladder=? AND member=1 "
                    "ORDER BY rung", (ladder,))
        if table == "ladder":
            since = at - round(settings.active_days * DAY)
            return ("SELECT id, rating, rated_games, held, extra FROM players WHERE ladder=? AND "
                    "member=1 AND rated_games >= ? AND held=0 AND last_played > ? AND "
                    "last_played <= ? "
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
        page, count = self._standings_reads(ladder, table, at, limit)
        self.expect(PageNamesRead(ladder, table, limit))  # (as this process last saw them)
        self._ahead(*page)  # (with the count, in one round trip)
        total = self._one(*count)[0]
        listed = [_row(*r) for r in self._all(*page)]
        shown = [r.player for r in listed]
        if limit is not None and limit <= _PAGE:
            self.store.saw(("page", ladder, table, limit), shown)
            for read in self._shown_reads(ladder, shown):
                self._ahead(*read)
        return listed, total

    def _page_names_reads(self, ladder: int, table: str, limit: int | None) -> list[Read]:
        """What a page of a table shows next of its players (`_shown_reads`), for the
        players this process last saw on it: the same players mostly, if not in order."""
        shown = self.store.guess(("page", ladder, table, limit))
        return self._shown_reads(ladder, shown) if shown else []

    def _shown_reads(self, ladder: int, shown: Sequence[PlayerId]) -> list[Read]:
        """A page of a table is shown next: its players' names and day ranks."""
        if not shown:
            return []
        return [*self._players_reads(ladder, shown), self._day_ranks_read(ladder, shown)]

    def _standings_reads(self, ladder: int, table: str, at: Timestamp, limit: int | None,
                         settings: Settings | None = None) -> list[Read]:
        """A table's page and its count (not of the gain tables, season and week), by
        the ladder's settings (or `settings`: a hint's, which reads nothing)."""
        if table in ("season", "week"):
            return []
        sql, args = self._table_sql(ladder, table, at, settings or self._ladder_settings(ladder))
        page = (f"{sql} LIMIT ?", (*args, tuning.ALL_ROWS if limit is None else limit))
        if table == "rating":  # the histogram knows how many members there are
            return [page, ("SELECT CAST(coalesce(sum(n), 0) AS BIGINT) FROM rating_counts "
                           "WHERE ladder=?", (ladder,))]
        return [page, (f"SELECT count(*) FROM ({sql}) AS t", args)]

    def rank(self, ladder: int, table: str, player: PlayerId, at: Timestamp) -> int | None:
        row = self._one(*self._rank_reads(ladder, table, player, at)[0])
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
            return 1 + int(self._one(
                "SELECT count(*) FROM players WHERE ladder=? AND member=1 AND rating > ? "
                "AND rated_games >= ? AND held=0 AND last_played > ? AND last_played <= ?",
                (ladder, rating, settings.calibration, since, at))[0])
        rows = self._gain_table(ladder, table, at, settings)
        mine = next((r for r in rows if r.player == player), None)
        return None if mine is None else 1 + sum(1 for r in rows if r.value > mine.value)

    @staticmethod
    def _rank_reads(ladder: int, table: str, player: PlayerId, at: Timestamp) -> list[Read]:
        # (the player's row: what else a rank reads depends on it)
        return [("SELECT member, rating, rung, rated_games, last_played, held FROM players "
                 "WHERE ladder=? AND id=?", (ladder, player))]

    def keep_day_ranks(self, ladder: int, table: str, at: Timestamp) -> None:
        rows, _ = self.standings(ladder, table, at, DAY_RANKS)
        self.conn.execute("UPDATE players SET day_rank=NULL WHERE ladder=? AND day_rank IS NOT "
                          "NULL", (ladder,))
        self.conn.executemany("UPDATE players SET day_rank=? WHERE ladder=? AND id=?",
                              [(place, ladder, r.player) for place, r in enumerate(rows, 1)])

    def day_ranks(self, ladder: int, players: Sequence[PlayerId]) -> dict[PlayerId, int]:
        return {p: r for p, r in self._all(*self._day_ranks_read(ladder, players))} \
            if players else {}

    @staticmethod
    def _day_ranks_read(ladder: int, players: Sequence[PlayerId]) -> Read:
        ids = sorted(set(players))  # (the same read, whatever the players' order)
        return (f"SELECT id, day_rank FROM players WHERE ladder=? AND day_rank IS NOT NULL "
                f"AND id IN ({','.join('?' * len(ids))})", (ladder, *ids))

    def timeline(self, ladder: int) -> list[tuple[Timestamp, str, str]]:
        return [(at, kind, json.loads(body)["d" if kind == "decay" else "s"])
                for at, kind, body in self._all(*self._timeline_reads(ladder)[0])]

    def _timeline_reads(self, ladder: int) -> list[Read]:
        # Days and months are job events, keyed: read through the job index, not by
        # scanning the whole log for two kinds.
        return [(f"SELECT at, kind, body FROM events{self.dialect.indexed_by('events_job_key')} "
                 "WHERE ladder=? AND key IS NOT NULL AND kind IN ('decay', 'season') "
                 "ORDER BY seq", (ladder,))]

    def _rated_above(self, ladder: int, rating: float) -> int:
        """Members rated strictly higher: whole buckets above from the histogram, then the
        few in the player's own bucket, from the index."""
        bucket = int(rating)  # truncates toward zero, as CAST(... AS INTEGER) does
        # The bucket holds [b, b+1) for b > 0, (-1, 1) for b = 0 and (b-1, b] for b < 0.
        top = "rating < ?" if bucket >= 0 else "rating <= ?"
        within = (f"SELECT count(*) FROM players WHERE ladder=? AND member=1 AND rating > ? "
                  f"AND {top}", (ladder, rating, bucket + 1 if bucket >= 0 else bucket))
        self._ahead(*within)  # (with the buckets above, in one round trip)
        above: int = self._one("SELECT CAST(coalesce(sum(n), 0) AS BIGINT) FROM rating_counts "
                               "WHERE ladder=? AND bucket > ?", (ladder, bucket))[0]
        return above + int(self._one(*within)[0])


def _row(player: PlayerId, value: float, games: int, held: int = 0,
         extra: str | None = None) -> TableRow:
    """A table's line as read (a rung table's has no `held` or `extra`)."""
    return TableRow(player, value, games, bool(held), tuple(json.loads(extra)) if extra else ())
