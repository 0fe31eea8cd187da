"""The `web_sessions` and `known_moderators` tables (core.ports.web_sessions)."""

from __future__ import annotations

from typing import Any

from core.domain.model import Timestamp
from core.domain.web_session import WebSession


class WebSessionTables:
    """The dashboard's sessions (SqlRepo supplies `conn`)."""

    conn: Any

    def save_session(self, session: WebSession, now: Timestamp) -> None:
        self.conn.execute("DELETE FROM web_sessions WHERE expires <= ?", (now,))
        self.conn.execute(
            'INSERT INTO web_sessions (token, "user", name, csrf, created, expires) '
            "VALUES (?, ?, ?, ?, ?, ?)",
            (session.token, session.user, session.name, session.csrf, session.created,
             session.expires))

    def web_session(self, token: str, now: Timestamp) -> WebSession | None:
        row = self.conn.execute(
            'SELECT token, "user", name, csrf, created, expires FROM web_sessions '
            "WHERE token=? AND expires > ?", (token, now)).fetchone()
        return WebSession(*row) if row is not None else None

    def end_session(self, token: str) -> None:
        self.conn.execute("DELETE FROM web_sessions WHERE token=?", (token,))

    def note_moderator(self, user: str, chat: str, at: Timestamp) -> None:
        self.conn.execute('INSERT INTO known_moderators ("user", chat, at) VALUES (?, ?, ?) '
                          'ON CONFLICT ("user", chat) DO UPDATE SET at=excluded.at',
                          (user, chat, at))

    def moderated_chats(self, user: str) -> list[str]:
        return [row[0] for row in self.conn.execute(
            'SELECT chat FROM known_moderators WHERE "user"=? ORDER BY chat', (user,))]
