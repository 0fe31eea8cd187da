"""The SQL of one ladder across platforms: accounts linked into one person, the ladders
another chat plays under its own name, and the one-time codes that make both.

A part of the repository (`SqlRepo` takes it in), written so SQLite and PostgreSQL
read the same statements.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any

from core.domain.model import Timestamp
from core.domain.records import LadderInfo
from storage.sql.dialect import Dialect


class SharingTables:
    """The `links`, `codes` and `shares` tables (the repository supplies the connection,
    its ladder query and the store's ladder lookup)."""

    conn: Any
    store: Any
    dialect: Dialect
    _ladder: Callable[[Any], LadderInfo]
    _one: Callable[..., Any]
    _all: Callable[..., list[Any]]

    # ---- linked accounts
    def lock_people(self, users: Sequence[str]) -> None:
        """Hold what these accounts are, against another process's link or join."""
        self.store.lock_people(self, users)

    def linked(self, user: str) -> tuple[str, ...]:
        """The other accounts of the person `user` is (none if not linked)."""
        rows = self._all('SELECT "user" FROM links WHERE person IN (SELECT person FROM links '
                         'WHERE "user"=?) AND "user"<>? ORDER BY "user"', (user, user))
        return tuple(row[0] for row in rows)

    def link(self, person: str, other: str) -> None:
        """Make `other` an account of the person whose first account is `person`."""
        self.conn.executemany('INSERT INTO links ("user", person) VALUES (?, ?)',
                              [(person, person), (other, person)])

    def unlink(self, user: str) -> None:
        """Separate every account of the person `user` is."""
        self.conn.execute('DELETE FROM links WHERE person IN (SELECT person FROM links '
                          'WHERE "user"=?)', (user,))

    def played_by(self, user: str) -> list[int]:
        """The ladders where the account has a player (a member or not), by id."""
        return [row[0] for row in self._all(
            'SELECT DISTINCT ladder FROM player_names WHERE "user"=? ORDER BY ladder',
            (user,))]

    # ---- one-time codes
    def add_code(self, code: str, kind: str, subject: str, expires: Timestamp,
                 now: Timestamp) -> None:
        """Keep a new code (and forget the ones that expired)."""
        self.conn.execute("DELETE FROM codes WHERE expires <= ?", (now,))
        self.conn.execute("INSERT INTO codes (code, kind, subject, expires) VALUES (?, ?, ?, ?)",
                          (code, kind, subject, expires))

    def take_code(self, code: str, kind: str, now: Timestamp) -> str | None:
        """The subject of a code of `kind` that has not expired; it is used up either
        way (None: no such code now)."""
        row = self._one(f"SELECT kind, subject, expires FROM codes WHERE code=?"
                        f"{self.dialect.for_update}", (code,))
        if row is None:
            return None
        self.conn.execute("DELETE FROM codes WHERE code=?", (code,))
        return str(row[1]) if row[0] == kind and row[2] > now else None

    # ---- shared ladders
    _SHARE = ("SELECT chat, ladder, name, is_default, channel, mod_role, EXISTS (SELECT 1 FROM "
              "shares o WHERE o.chat = shares.chat AND o.ladder <> shares.ladder) OR EXISTS "
              "(SELECT 1 FROM ladders o WHERE o.chat = shares.chat) FROM shares")

    def _home(self, ladder: int) -> LadderInfo | None:
        """The ladder as its home chat sees it, locked as a command there would lock it."""
        found = self.store.find_ladder(self, "id=?", (ladder,))
        return self._ladder(found) if found is not None else None

    @staticmethod
    def _view(home: LadderInfo, row: Any) -> LadderInfo:
        """Another chat's view of a ladder: its share `row` over the `home` one."""
        return dataclasses.replace(home, chat=row[0], name=row[2], is_default=bool(row[3]),
                                   channel=row[4], mod_role=row[5], shared=True,
                                   home=home.chat, several=bool(row[6]))

    def _shared(self, rows: list[Any]) -> list[LadderInfo]:
        return [self._view(home, row) for row in rows
                if (home := self._home(row[1])) is not None]

    def shared_ladder(self, chat: str, name: str | None) -> LadderInfo | None:
        """A ladder another chat shared with `chat`, by its name here (None: if it is
        this chat's default)."""
        row = self._one(f"{self._SHARE} WHERE chat=? AND is_default=1", (chat,)) \
            if name is None else self._one(f"{self._SHARE} WHERE chat=? AND name=?",
                                           (chat, name))
        found = self._shared([row] if row is not None else [])
        return found[0] if found else None

    def shared_ladders(self, chat: str) -> list[LadderInfo]:
        """The ladders other chats shared with `chat`, by ladder id."""
        return self._shared(self._all(f"{self._SHARE} WHERE chat=? ORDER BY ladder", (chat,)))

    def plays_shared(self, chat: str) -> bool:
        """Whether the chat plays a ladder with another chat (read without locking any)."""
        return bool(self._one("SELECT EXISTS (SELECT 1 FROM shares WHERE chat=?) OR EXISTS "
                              "(SELECT 1 FROM shares s JOIN ladders l ON l.id = s.ladder "
                              "WHERE l.chat=?)", (chat, chat))[0])

    def plays_none(self, chat: str) -> bool:
        """Whether the chat has no ladder, of its own or shared (read without locking any):
        the next one it gets is its default."""
        return not self._one("SELECT EXISTS (SELECT 1 FROM ladders WHERE chat=?) OR EXISTS "
                             "(SELECT 1 FROM shares WHERE chat=?)", (chat, chat))[0]

    def views(self, ladder: int) -> list[LadderInfo]:
        """The ladder as each chat that plays it sees it: its home chat's first."""
        home = self._home(ladder)
        if home is None:
            return []
        rows = self._all(f"{self._SHARE} WHERE ladder=? ORDER BY chat", (ladder,))
        return [home, *(self._view(home, row) for row in rows)]

    def share(self, ladder: int, chat: str, name: str) -> None:
        """Let `chat` play the ladder as `name` (its default if it has no ladder yet)."""
        first = self.plays_none(chat)
        self.conn.execute("INSERT INTO shares (chat, name, ladder, is_default) VALUES "
                          "(?, ?, ?, ?)", (chat, name, ladder, int(first)))

    def unshare(self, ladder: int, chat: str | None = None) -> list[str]:
        """Stop one chat (None: every other chat) playing the ladder; the chats that
        stopped."""
        rows = self._all("SELECT chat, name FROM shares WHERE ladder=? ORDER BY chat",
                         (ladder,))
        gone = [(c, n) for c, n in rows if chat is None or c == chat]
        for c, n in gone:
            self.conn.execute("DELETE FROM shares WHERE chat=? AND ladder=?", (c, ladder))
            self.conn.execute("DELETE FROM outbox WHERE chat=? AND ladder=?", (c, n))
        return [c for c, _ in gone]
