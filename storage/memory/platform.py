"""The in-memory twin's part for the platforms' own data: the @handles a platform taught
the bot, the outbox of announcements, each ladder's queue, tournaments and imports, and the
messages already answered (as storage/sql/platform_data.py)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from core.domain.import_batch import ImportBatch
from core.domain.model import PlayerId, Timestamp
from core.domain.records import Announcement, LadderInfo, PlayerInfo, QueueState, UserRef
from core.domain.tournament.record import Tournament
from core.domain.web_session import WebSession


@dataclass
class PlatformData:
    """The twin's tables: handles by (platform, handle), the outbox by id."""

    handles: dict[tuple[str, str], UserRef] = field(default_factory=dict)
    # id -> (attempts, next_at, announcement)
    outbox: dict[int, tuple[int, Timestamp, Announcement]] = field(default_factory=dict)
    next_item: int = 1
    seen: dict[tuple[str, str], str] = field(default_factory=dict)  # answered messages
    queues: dict[int, QueueState] = field(default_factory=dict)  # each ladder's queue
    # each ladder's tournaments by id
    tournaments: dict[int, dict[int, Tournament]] = field(default_factory=dict)
    imports: dict[int, dict[int, ImportBatch]] = field(default_factory=dict)  # by ladder, id
    sessions: dict[str, WebSession] = field(default_factory=dict)  # the dashboard's, by token
    moderators: dict[tuple[str, str], Timestamp] = field(default_factory=dict)  # (user, chat)


class MemoryPlatform:
    """The platforms' Repo methods over `PlatformData` (the repository supplies
    `platform`, its ladders and their players)."""

    @property
    def platform(self) -> PlatformData:
        """The twin's tables of these (the repository holds them)."""
        raise NotImplementedError
    every_ladder: Callable[[], list[LadderInfo]]
    players: Callable[..., dict[PlayerId, PlayerInfo]]

    def learn_handle(self, platform: str, handle: str, user: UserRef, at: Timestamp) -> None:
        self.platform.handles[(platform, handle.lower())] = user

    def find_handle(self, platform: str, handle: str) -> UserRef | None:
        return self.platform.handles.get((platform, handle.lower()))

    def user_ladders(self, user: str) -> list[LadderInfo]:
        return [lad for lad in self.every_ladder()
                if any(p.user == user and p.member for p in self.players(lad.id).values())]

    def enqueue(self, announcements: Sequence[Announcement], at: Timestamp) -> None:
        for announcement in announcements:
            self.platform.outbox[self.platform.next_item] = (0, at, announcement)
            self.platform.next_item += 1

    def outbox_due(self, now: Timestamp, limit: int = 50) -> list[tuple[int, int, Announcement]]:
        return [(item, attempts, a) for item, (attempts, at, a)
                in sorted(self.platform.outbox.items()) if at <= now][:limit]

    def queue(self, ladder: int) -> QueueState:
        return self.platform.queues.get(ladder, QueueState())

    def save_queue(self, ladder: int, state: QueueState) -> None:
        self.platform.queues[ladder] = state

    def tournaments(self, ladder: int) -> list[Tournament]:
        return [t for _, t in sorted(self.platform.tournaments.get(ladder, {}).items())]

    def save_tournament(self, tournament: Tournament) -> None:
        self.platform.tournaments.setdefault(tournament.ladder, {})[tournament.id] = tournament

    def imports(self, ladder: int) -> list[ImportBatch]:
        return [b for _, b in sorted(self.platform.imports.get(ladder, {}).items())]

    def save_import(self, batch: ImportBatch) -> None:
        self.platform.imports.setdefault(batch.ladder, {})[batch.id] = batch

    def outbox_done(self, item: int) -> None:
        self.platform.outbox.pop(item, None)

    def outbox_retry(self, item: int, next_at: Timestamp, error: str) -> None:
        attempts, _, announcement = self.platform.outbox[item]
        self.platform.outbox[item] = (attempts + 1, next_at, announcement)

    def seen(self, chat: str, message_id: str) -> str | None:
        return self.platform.seen.get((chat, message_id))

    def remember(self, chat: str, message_id: str, reply: str, at: Timestamp) -> None:
        self.platform.seen[(chat, message_id)] = reply

    def save_session(self, session: WebSession, now: Timestamp) -> None:
        kept = self.platform.sessions
        for token in [t for t, s in kept.items() if s.expires <= now]:
            del kept[token]
        kept[session.token] = session

    def web_session(self, token: str, now: Timestamp) -> WebSession | None:
        found = self.platform.sessions.get(token)
        return found if found is not None and found.expires > now else None

    def end_session(self, token: str) -> None:
        self.platform.sessions.pop(token, None)

    def note_moderator(self, user: str, chat: str, at: Timestamp) -> None:
        self.platform.moderators[user, chat] = at

    def moderated_chats(self, user: str) -> list[str]:
        return sorted(chat for who, chat in self.platform.moderators if who == user)
