"""The SQL of the platforms' own data: the @handles a platform taught the bot, the
outbox of announcements, each ladder's queue, and the messages already answered (a
redelivered one is answered again, not redone).

A part of the repository (`SqlRepo` takes it in), written so SQLite and PostgreSQL
read the same statements.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from core.domain.model import Timestamp
from core.domain.records import Announcement, LadderInfo, QueueState, UserRef
from storage.sql.codec import queue_from_json, queue_to_json


class PlatformTables:
    """The `handles`, `outbox`, `queues` and `seen_messages` tables (the repository
    supplies the connection, its ladder query, and the store's message lock)."""

    conn: Any
    store: Any
    _LADDER: str
    _NAMED: str  # players joined to their names
    _ladder: Callable[[Any], LadderInfo]
    _one: Callable[..., Any]
    _all: Callable[..., list[Any]]

    def learn_handle(self, platform: str, handle: str, user: UserRef, at: Timestamp) -> None:
        """Remember which user a @handle names on a platform."""
        self.conn.execute(
            'INSERT INTO handles (platform, handle, "user", name, seen_at) VALUES (?, ?, ?, ?, ?) '
            'ON CONFLICT (platform, handle) DO UPDATE SET "user"=excluded."user", '
            "name=excluded.name, seen_at=excluded.seen_at",
            (platform, handle.lower(), user.key, user.name, at))

    def find_handle(self, platform: str, handle: str) -> UserRef | None:
        """The user a @handle names, if the bot has seen it."""
        row = self._one('SELECT "user", name FROM handles WHERE platform=? AND handle=?',
                        (platform, handle.lower()))
        return UserRef(row[0], row[1]) if row is not None else None

    def user_ladders(self, user: str) -> list[LadderInfo]:
        """Ladders of every chat the user is a member of."""
        return [self._ladder(r) for r in self._all(
            f'{self._LADDER} WHERE id IN (SELECT n.ladder FROM {self._NAMED} WHERE n."user"=? '
            "AND p.member=1) ORDER BY id", (user,))]

    def enqueue(self, announcements: Sequence[Announcement], at: Timestamp) -> None:
        """Keep announcements until a platform has posted them."""
        self.conn.executemany(
            "INSERT INTO outbox (chat, ladder, channel, text, created_at, next_at, ready, "
            "language, notify, confirm) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [(a.chat, a.ladder, a.channel, a.text, at, at, a.ready, a.language,
              " ".join(a.notify), a.confirm) for a in announcements])

    def outbox_due(self, now: Timestamp, limit: int = 50) -> list[tuple[int, int, Announcement]]:
        """(id, attempts, announcement) waiting to be posted, oldest first."""
        return [(r[0], r[1], Announcement(r[2], r[3], r[5], r[4], r[6], r[7],
                                          tuple(r[8].split()), r[9]))
                for r in self._all(
                    "SELECT id, attempts, chat, ladder, channel, text, ready, language, notify, "
                    "confirm FROM outbox WHERE next_at <= ? ORDER BY id LIMIT ?", (now, limit))]

    # ---- the queue
    def queue(self, ladder: int) -> QueueState:
        row = self._one("SELECT state FROM queues WHERE ladder=?", (ladder,))
        return QueueState() if row is None else queue_from_json(row[0])

    def save_queue(self, ladder: int, state: QueueState) -> None:
        self.conn.execute("INSERT INTO queues (ladder, state) VALUES (?, ?) ON CONFLICT "
                          "(ladder) DO UPDATE SET state=excluded.state",
                          (ladder, queue_to_json(state)))

    def outbox_done(self, item: int) -> None:
        """An announcement was posted."""
        self.conn.execute("DELETE FROM outbox WHERE id=?", (item,))

    def outbox_retry(self, item: int, next_at: Timestamp, error: str) -> None:
        """Posting failed: try again later."""
        self.conn.execute("UPDATE outbox SET attempts=attempts + 1, next_at=?, last_error=? "
                          "WHERE id=?", (next_at, error[:500], item))

    # ---- redelivered messages
    def seen(self, chat: str, message_id: str) -> str | None:
        # A message redelivered to another process waits here for the first to finish.
        self.store.lock_message(self, chat, message_id)
        row = self._one("SELECT reply FROM seen_messages WHERE chat=? AND message=?",
                        (chat, message_id))
        return row[0] if row is not None else None

    def remember(self, chat: str, message_id: str, reply: str, at: Timestamp) -> None:
        self.conn.execute("INSERT INTO seen_messages (chat, message, reply, at) "
                          "VALUES (?, ?, ?, ?) ON CONFLICT (chat, message) DO UPDATE SET "
                          "reply=excluded.reply, at=excluded.at", (chat, message_id, reply, at))
