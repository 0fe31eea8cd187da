"""The SQL repository: one unit of work's view of the database, over one connection
inside one transaction. It is made of parts (the event log, re-derivation, the records,
the projections' reads, the platforms' data, what follows the standings); this module
holds what joins them: the transaction's savepoints, the statement helpers, and the
ladders and players themselves.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, assert_never

from core.domain.model import PlayerId, Timestamp
from core.domain.names import look
from core.domain.records import (
    LadderInfo,
    PlayerInfo,
    UserRef,
)
from core.domain.settings import Settings
from core.ports.hints import (
    Ahead,
    AuditRead,
    ChangesRead,
    OpenMatchesRead,
    PageNamesRead,
    PlayerStateRead,
    RankRead,
    SamePlayersRead,
    StandingsRead,
    TimelineRead,
    UnfinishedChallengesRead,
)
from storage.sql.bulk import BulkLog
from storage.sql.codec import (
    settings_from_json,
    settings_to_json,
)
from storage.sql.deleted import export_file
from storage.sql.following import FollowingTables
from storage.sql.imports import ImportTables
from storage.sql.match_tables import MatchTables
from storage.sql.part import Read
from storage.sql.platform_data import PlatformTables
from storage.sql.reads import ProjectionReads
from storage.sql.rederive import Rederivation
from storage.sql.sharing import SharingTables
from storage.sql.tournaments import TournamentTables
from storage.sql.web_sessions import WebSessionTables

if TYPE_CHECKING:
    from storage.sql.units import SqlStore


class SettingsCache:
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


class SqlRepo(BulkLog, Rederivation, MatchTables, ProjectionReads, FollowingTables,
              PlatformTables, SharingTables, TournamentTables, ImportTables,
              WebSessionTables):
    """The Repo protocol in SQL, inside one transaction: over sqlite3's connection, and
    over PostgreSQL's sessions, which take sqlite3's methods (storage/postgres/session.py)."""

    def __init__(self, conn: sqlite3.Connection, store: SqlStore) -> None:
        self.conn = conn
        self.store = store
        self.dialect = store.dialect
        self.touched: set[int] = set()
        self.locked: set[int] = set()  # ladders this transaction holds (PostgreSQL)
        # Settings of ladders read whole under their lock: what `_ladder_settings` would
        # read again (until this transaction writes them, or rolls back).
        self.settings_read: dict[int, Settings] = {}
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
            self.settings_read.clear()
            self.conn.execute(f"ROLLBACK TO {name}")
            self.conn.execute(f"RELEASE {name}")
            self.store.cache.forget(self.touched)
            self.touched = outer
            raise
        self.conn.execute(f"RELEASE {name}")
        self.touched = outer | self.touched

    def _one(self, sql: str, args: Sequence[Any] = ()) -> Any:
        return self.conn.execute(sql, args).fetchone()

    def _all(self, sql: str, args: Sequence[Any] = ()) -> list[Any]:
        return list(self.conn.execute(sql, args).fetchall())

    def _ahead(self, sql: str, args: Sequence[Any] = ()) -> None:
        self.store.read_ahead(self, sql, args)

    # ---- ladders
    # (whether the chat plays others too, read with the row: a chat's ladders are indexed)
    _LADDER = ("SELECT id, chat, name, settings, created_at, clock, is_default, channel, public, "
               "season, last_decay, next_due, mod_role, EXISTS (SELECT 1 FROM shares s WHERE "
               "s.ladder = ladders.id), EXISTS (SELECT 1 FROM ladders o WHERE o.chat = "
               "ladders.chat AND o.id <> ladders.id) OR EXISTS (SELECT 1 FROM shares o WHERE "
               "o.chat = ladders.chat), EXISTS (SELECT 1 FROM tournaments t WHERE t.ladder = "
               "ladders.id AND t.live = 1) FROM ladders")

    def _ladder(self, row: Any) -> LadderInfo:
        return LadderInfo(row[0], row[1], row[2], self.store.settings(row[3]), row[4], row[5],
                          bool(row[6]), row[7], bool(row[8]), row[9], row[10], row[11], row[12],
                          bool(row[13]), several=bool(row[14]),
                          contested=bool(row[15]))

    def due_ladders(self, now: Timestamp) -> list[LadderInfo]:
        sql = f"{self._LADDER} WHERE next_due IS NOT NULL AND next_due <= ? ORDER BY id"
        rows = self._all(sql, (now,))
        if [r for r in rows if self.store.lock_ladder(self, r[0])]:  # in id order: no deadlock
            rows = self._all(sql, (now,))
        return [self._ladder(r) for r in rows]

    def every_ladder(self) -> list[LadderInfo]:
        return [self._ladder(r) for r in self._all(f"{self._LADDER} ORDER BY id")]

    def ladders(self, chat: str) -> list[LadderInfo]:
        own = [self._ladder(r) for r in self._all(f"{self._LADDER} WHERE chat=? ORDER BY id",
                                                  (chat,))]
        return own + self.shared_ladders(chat)

    @staticmethod
    def _ladder_where(chat: str, name: str | None) -> tuple[str, tuple[Any, ...]]:
        """Where the chat's ladder `name` is (None: its default)."""
        return ("chat=? AND is_default=1", (chat,)) if name is None \
            else ("chat=? AND name=?", (chat, name))

    def ladder(self, chat: str, name: str | None) -> LadderInfo | None:
        row = self.store.find_ladder(self, *self._ladder_where(chat, name))
        if row is None:
            return self.shared_ladder(chat, name)
        found = self._ladder(row)
        if self.store.holds(self, found.id):
            self.settings_read[found.id] = found.settings
        return found

    def add_ladder(self, chat: str, name: str, settings: Settings, at: Timestamp,
                   channel: str | None) -> LadderInfo:
        first = self.plays_none(chat)  # (not ladders(): it would lock the shared ones)
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
                      mod_role: str | None = None, name: str | None = None,
                      chat: str | None = None) -> None:
        # ("" clears next_due and mod_role: stored as NULL.)
        shared = {"clock": clock, "public": public, "next_due": next_due}
        own = {"is_default": is_default, "channel": channel, "name": name, "mod_role": mod_role}
        for column, value in [*shared.items(), *own.items()]:
            if value is None:
                continue
            value = value or None if column in ("next_due", "mod_role") else value
            if chat is None or column in shared:
                self.conn.execute(f"UPDATE ladders SET {column}=? WHERE id=?", (value, ladder))
                continue
            # What each chat has of its own: the ladder's row is its home chat's, a share's
            # another chat's (one of the two statements finds a row).
            self.conn.execute(f"UPDATE ladders SET {column}=? WHERE id=? AND chat=?",
                              (value, ladder, chat))
            self.conn.execute(f"UPDATE shares SET {column}=? WHERE ladder=? AND chat=?",
                              (value, ladder, chat))

    # Every table of a ladder's, children first (ladders itself last).
    _LADDER_TABLES = ("match_players", "changes", "matches", "challenges", "seasons",
                      "hall_of_fame", "audit", "snapshots", "heads", "head_pairs", "events",
                      "players", "player_names", "rating_counts", "queues", "tournaments",
                      "imports", "following", "role_holdings")

    def delete_ladder(self, ladder: int) -> None:
        row = self._one("SELECT chat, name FROM ladders WHERE id=?", (ladder,))
        self.unshare(ladder)  # its shares, and the other chats' announcements
        for table in self._LADDER_TABLES:
            self.conn.execute(f"DELETE FROM {table} WHERE ladder=?", (ladder,))
        if row is not None:  # announcements not yet delivered go with it
            self.conn.execute("DELETE FROM outbox WHERE chat=? AND ladder=?", (row[0], row[1]))
        self.conn.execute("DELETE FROM ladders WHERE id=?", (ladder,))
        self.store.cache.forget({ladder})  # SQLite may give the id to the next new ladder

    def keep_export(self, chat: str, name: str, text: str, at: Timestamp) -> str:
        return export_file(self.store.home, chat, name, text, at)

    # ---- players
    # "user" is quoted: a reserved word in PostgreSQL, an ordinary name in SQLite.
    # Who a player is (player_names) is kept apart from how they stand (players).
    _NAMED = "player_names n JOIN players p ON p.ladder = n.ladder AND p.id = n.id"
    _PLAYER = (f'SELECT n.ladder, n.id, n."user", n.name, p.member, n.available, n.banned, '
               f'n.removed FROM {_NAMED}')

    _PLAYER_FOR = f'{_PLAYER} WHERE n.ladder=? AND n."user"=?'

    @staticmethod
    def _player(row: Any) -> PlayerInfo:
        return PlayerInfo(row[0], row[1], row[2], row[3], bool(row[4]), bool(row[5]),
                          bool(row[6]), bool(row[7]))

    def player_for(self, ladder: int, user: str) -> PlayerInfo | None:
        row = self._one(self._PLAYER_FOR, (ladder, user))
        if row is None:
            return None
        self.store.saw(("player", ladder, user), row[1])
        return self._player(row)

    def expect_players(self, ladder: int, users: Sequence[str],
                       then: Callable[[list[PlayerId]], None] | None = None) -> None:
        for user in users:
            self._ahead(self._PLAYER_FOR, (ladder, user))
        if then is None:
            return
        # What follows, by the ids this process saw these users' players have (a user's
        # player keeps its id).
        ids = [self.store.guess(("player", ladder, user)) for user in users]
        if ids and None not in ids:
            then(ids)

    def expect_ladder(self, chat: str, name: str | None,
                      then: Callable[[LadderInfo], None]) -> None:
        self.store.expect_ladder(self, self._ladder_where(chat, name), then)

    def expect(self, *reads: Ahead) -> None:
        for named in reads:
            for read in self._reads_of(named):
                self._ahead(*read)

    def _reads_of(self, named: Ahead) -> list[Read]:
        """The statements of a named read: each is its method's own."""
        match named:
            case PlayerStateRead(ladder, player):
                return self._player_state_reads(ladder, player)
            case ChangesRead(ladder, player, limit):
                return self._changes_reads(ladder, player, limit)
            case RankRead(ladder, table, player, at):
                return self._rank_reads(ladder, table, player, at)
            case StandingsRead(ladder, table, at, limit, settings):
                return self._standings_reads(ladder, table, at, limit, settings)
            case PageNamesRead(ladder, table, limit):
                return self._page_names_reads(ladder, table, limit)
            case TimelineRead(ladder):
                return self._timeline_reads(ladder)
            case AuditRead(ladder, player, limit):
                return self._audit_reads(ladder, player, limit)
            case OpenMatchesRead(ladder):
                return self._open_matches_reads(ladder)
            case UnfinishedChallengesRead(ladder):
                return self._unfinished_challenges_reads(ladder)
            case SamePlayersRead(ladder, players, since):
                return self._same_players_reads(ladder, players, since)
        assert_never(named)

    def players(self, ladder: int,
                ids: Sequence[PlayerId] | None = None) -> dict[PlayerId, PlayerInfo]:
        if ids is None:
            rows = self._all(f"{self._PLAYER} WHERE n.ladder=?", (ladder,))
        else:
            rows = [row for sql, args in self._players_reads(ladder, ids)
                    for row in self._all(sql, args)]
        return {row[1]: self._player(row) for row in rows}

    def _players_reads(self, ladder: int,
                       ids: Sequence[PlayerId]) -> list[tuple[str, tuple[Any, ...]]]:
        """The reads of `players(ladder, ids)` (a part may send them ahead)."""
        unique = sorted(set(ids))
        chunks = [unique[start:start + 500] for start in range(0, len(unique), 500)]
        return [(f"{self._PLAYER} WHERE n.ladder=? AND n.id IN ({','.join('?' * len(chunk))})",
                 (ladder, *chunk)) for chunk in chunks]

    def add_player(self, ladder: int, user: UserRef) -> PlayerInfo:
        pid = self._one("SELECT coalesce(max(id), 0) + 1 FROM players WHERE ladder=?",
                        (ladder,))[0]
        start = self._ladder_settings(ladder).start
        self.conn.execute(
            'INSERT INTO player_names (ladder, id, "user", name, look) VALUES (?, ?, ?, ?, ?)',
            (ladder, pid, user.key, user.name, look(user.name)))
        self.conn.execute("INSERT INTO players (ladder, id, member, rating) VALUES (?, ?, 0, ?)",
                          (ladder, pid, start))
        return PlayerInfo(ladder, pid, user.key, user.name, member=False)

    def update_player(self, ladder: int, player: PlayerId, *, name: str | None = None,
                      available: bool | None = None, banned: bool | None = None,
                      removed: bool | None = None, user: str | None = None) -> None:
        if user is not None:
            self.conn.execute('UPDATE player_names SET "user"=? WHERE ladder=? AND id=?',
                              (user, ladder, player))
        if name is not None:
            self.conn.execute("UPDATE player_names SET name=?, look=? WHERE ladder=? AND id=?",
                              (name, look(name), ladder, player))
        for column, flag in (("available", available), ("banned", banned),
                             ("removed", removed)):
            if flag is not None:
                self.conn.execute(f"UPDATE player_names SET {column}=? WHERE ladder=? AND id=?",
                                  (int(flag), ladder, player))

    def player_by_look(self, ladder: int, look: str) -> PlayerInfo | None:
        self._fill_looks(ladder)
        row = self._one(f"{self._PLAYER} WHERE n.ladder=? AND n.look=?", (ladder, look))
        return self._player(row) if row is not None else None

    def looks_taken(self, ladder: int, look: str, but: PlayerId | None = None) -> bool:
        self._fill_looks(ladder)
        return bool(self._one("SELECT EXISTS (SELECT 1 FROM player_names WHERE ladder=? AND "
                              "look=? AND id<>?)", (ladder, look, -1 if but is None else but))[0])

    def _fill_looks(self, ladder: int) -> None:
        """What the names of a ladder's players from before schema 20 look like, once."""
        # (through the look index: by the primary key, every player of the ladder is read)
        rows = self._all("SELECT id, name FROM player_names"
                         f"{self.dialect.indexed_by('player_names_look')} "
                         "WHERE ladder=? AND look=''", (ladder,))
        if rows:
            self.conn.executemany("UPDATE player_names SET look=? WHERE ladder=? AND id=?",
                                  [(look(name), ladder, pid) for pid, name in rows])

    def _ladder_settings(self, ladder: int) -> Settings:
        if ladder in self.settings_read:
            return self.settings_read[ladder]
        settings: Settings = self.store.settings(
            self._one("SELECT settings FROM ladders WHERE id=?", (ladder,))[0])
        return settings
