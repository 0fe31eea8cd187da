"""The repository the service works through, inside one transaction.

Storage implements it twice: SQLite (the real one) and an in-memory twin for tests;
both pass the same contract tests. Every call is synchronous: the whole command runs
as one unit of work on the database's thread, committed or rolled back as one.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from contextlib import AbstractContextManager
from typing import Protocol, TypeVar

from core.domain.events import Event
from core.domain.ledger import Rederived
from core.domain.model import PlayerId, Timestamp
from core.domain.records import (
    Announcement,
    AuditEntry,
    ChallengeRecord,
    ChangeRecord,
    LadderInfo,
    MatchRecord,
    PinRecord,
    PlayerInfo,
    QueueState,
    RoleConfig,
    RoleHolding,
    UserRef,
)
from core.domain.settings import Settings
from core.domain.state import Applied, LadderState, PlayerState
from core.domain.tables import HallEntry, TableRow
from core.ports.hints import ReadHints

# Tables `standings` can read: a ladder's ranking by rating or rung, and the three
# tables of RULES.md section 3.
RANKINGS = ("rating", "rung", "season", "week", "ladder")
DAY_RANKS = 1000  # how much of a table's top keeps its start-of-day positions


class Repo(ReadHints, Protocol):
    """Everything the service reads and writes, for one chat-agnostic transaction."""

    def savepoint(self) -> AbstractContextManager[None]:
        """A nested transaction: an exception inside rolls back to where it began."""
        ...

    # ---- ladders
    def every_ladder(self) -> list[LadderInfo]:
        """Every ladder, as its home chat sees it, for the scheduler."""
        ...

    def ladders(self, chat: str) -> list[LadderInfo]:
        """The chat's ladders, oldest first, then those other chats share with it."""
        ...

    def ladder(self, chat: str, name: str | None) -> LadderInfo | None:
        """A ladder of the chat (its own or one shared with it, as the chat sees it) by
        name, or the chat's default when `name` is None."""
        ...

    def add_ladder(self, chat: str, name: str, settings: Settings, at: Timestamp,
                   channel: str | None) -> LadderInfo:
        """Create a ladder (the chat's default if it is the first)."""
        ...

    def update_ladder(self, ladder: int, *, clock: Timestamp | None = None,
                      is_default: bool | None = None, channel: str | None = None,
                      public: bool | None = None, next_due: Timestamp | None = None,
                      mod_role: str | None = None, name: str | None = None,
                      chat: str | None = None) -> None:
        """Change a ladder's properties (`next_due=0`, `mod_role=""` clear); the ones each
        chat has of its own (default, channel, name, moderators' role) as `chat` sees it,
        when given."""
        ...

    def due_ladders(self, now: Timestamp) -> list[LadderInfo]:
        """Ladders with a job due at or before `now`."""
        ...

    # ---- players
    def player_for(self, ladder: int, user: str) -> PlayerInfo | None:
        """The ladder's player for a chat user, if they ever joined."""
        ...

    def players(self, ladder: int,
                ids: Sequence[PlayerId] | None = None) -> dict[PlayerId, PlayerInfo]:
        """Players by id (all of the ladder's when `ids` is None)."""
        ...

    def delete_ladder(self, ladder: int) -> None:
        """Delete a ladder with everything it holds (its export is kept first)."""
        ...

    def keep_export(self, chat: str, name: str, text: str, at: Timestamp) -> str:
        """Keep a ladder's export (JSON text, as of `at`) beside the database; where it
        went."""
        ...

    def add_player(self, ladder: int, user: UserRef) -> PlayerInfo:
        """Give a chat user a player id on the ladder (membership comes from events)."""
        ...

    def update_player(self, ladder: int, player: PlayerId, *, name: str | None = None,
                      available: bool | None = None, banned: bool | None = None,
                      removed: bool | None = None) -> None:
        """Rename a player, or change their availability, ban or removal mark."""
        ...

    def looks_taken(self, ladder: int, look: str, but: PlayerId | None = None) -> bool:
        """Whether a player of the ladder (other than `but`) has a name that looks like
        this (core.domain.names.look)."""
        ...

    # ---- the log and the standings
    def state(self, ladder: int) -> LadderState:
        """Current standings. Callers must not change them."""
        ...

    def append(self, ladder: int, events: Sequence[Event]) -> list[Applied | Rederived]:
        """Append events to the log, fold them in and update every projection."""
        ...

    def events(self, ladder: int, until: Timestamp | None = None) -> list[Event]:
        """The ladder's log in order (up to an instant, if given)."""
        ...

    def base_settings(self, ladder: int) -> Settings:
        """The settings the ladder was created with (a replay starts from them)."""
        ...

    # ---- matches
    def new_match_id(self, ladder: int) -> int:
        """The next match number of the ladder."""
        ...

    def save_match(self, record: MatchRecord) -> None:
        """Insert or replace a match record."""
        ...

    def match(self, ladder: int, match_id: int) -> MatchRecord | None:
        """One match."""
        ...

    def open_matches(self, ladder: int) -> list[MatchRecord]:
        """Pending and disputed matches, oldest first."""
        ...

    def same_players(self, ladder: int, players: Sequence[PlayerId],
                     since: Timestamp) -> list[MatchRecord]:
        """Matches of exactly these players that are open or were reported since `since`,
        oldest first."""
        ...

    def matches(self, ladder: int, player: PlayerId | None = None,
                limit: int | None = None) -> list[MatchRecord]:
        """Matches newest first (of one player, if given); all when `limit` is None."""
        ...

    # ---- challenges
    def new_challenge_id(self, ladder: int) -> int:
        """The next challenge number of the ladder."""
        ...

    def save_challenge(self, record: ChallengeRecord) -> None:
        """Insert or replace a challenge."""
        ...

    def unfinished_challenges(self, ladder: int) -> list[ChallengeRecord]:
        """Open and accepted challenges, oldest first."""
        ...

    # ---- what follows the standings on the platforms (roles, a live message)
    def roles(self, ladder: int) -> RoleConfig:
        """The Discord roles the ladder gives (none where it was never set)."""
        ...

    def save_roles(self, ladder: int, config: RoleConfig) -> None:
        """Replace the ladder's role settings, ids and problem."""
        ...

    def role_holdings(self, ladder: int) -> dict[str, RoleHolding]:
        """What the bot last applied to each member for this ladder, by user key."""
        ...

    def save_holding(self, ladder: int, user: str, holding: RoleHolding | None) -> None:
        """Record what was applied to one member (None: nothing is held any more)."""
        ...

    def granted_elsewhere(self, ladder: int, user: str) -> frozenset[str]:
        """The role ids the chat's other ladders gave this user (kept when this one
        takes its own away)."""
        ...

    def pin(self, ladder: int) -> PinRecord | None:
        """The ladder's live standings message, if it has one."""
        ...

    def save_pin(self, ladder: int, pin: PinRecord | None) -> None:
        """Replace the ladder's live standings message (None: it has none)."""
        ...

    def followed(self) -> list[LadderInfo]:
        """The ladders with roles to keep or a live message (or roles still to take
        back after roles were turned off)."""
        ...

    # ---- the queue
    def queue(self, ladder: int) -> QueueState:
        """The ladder's queue as it stands (empty where it never had one)."""
        ...

    def save_queue(self, ladder: int, state: QueueState) -> None:
        """Replace the ladder's queue."""
        ...

    # ---- audit
    def add_audit(self, entry: AuditEntry) -> None:
        """Keep a moderator action."""
        ...

    def audit(self, ladder: int, player: PlayerId | None = None,
              limit: int = 20) -> list[AuditEntry]:
        """Moderator actions newest first (about one player, if given)."""
        ...

    # ---- projections (reads that never replay)
    def player_state(self, ladder: int, player: PlayerId) -> PlayerState | None:
        """A player's standing as stored."""
        ...

    def hall_of_fame(self, ladder: int) -> list[HallEntry]:
        """Every Hall of Fame place, oldest season first."""
        ...

    def changes(self, ladder: int, player: PlayerId,
                limit: int | None = None) -> list[ChangeRecord]:
        """A player's stored rating/rung changes, oldest first (the newest `limit`)."""
        ...

    def match_changes(self, ladder: int, match_id: int) -> list[ChangeRecord]:
        """The changes a confirmed match made."""
        ...

    def week_sums(self, ladder: int, since: Timestamp, until: Timestamp
                  ) -> dict[PlayerId, tuple[float, int]]:
        """Gain and rated games of rated matches in (since, until], per player."""
        ...

    def standings(self, ladder: int, table: str, at: Timestamp,
                  limit: int | None = None) -> tuple[list[TableRow], int]:
        """Rows of a table in display order (the first `limit`), and how many it has."""
        ...

    def rank(self, ladder: int, table: str, player: PlayerId, at: Timestamp) -> int | None:
        """A player's competition rank in a table (1 + those strictly ahead, so equal
        ratings share a rank; the rung on a position ladder), or None when not listed."""
        ...

    def keep_day_ranks(self, ladder: int, table: str, at: Timestamp) -> None:
        """Remember the positions in `table` now (its top `DAY_RANKS`) as the day's start."""
        ...

    def day_ranks(self, ladder: int, players: Sequence[PlayerId]) -> dict[PlayerId, int]:
        """Positions kept at the start of the day (players then outside the top: absent)."""
        ...

    def timeline(self, ladder: int) -> list[tuple[Timestamp, str, str]]:
        """(instant, "decay" or "season", day or season) of the log's time-driven events."""
        ...

    def season_table(self, ladder: int, season: str) -> list[TableRow]:
        """The frozen table of a closed season."""
        ...

    # ---- one ladder across platforms
    def lock_people(self, users: Sequence[str]) -> None:
        """Hold, to the end of the unit of work, what these accounts are on every ladder:
        a link and a join of one person read which players they have, then make one, and
        across processes each must see the other's (no-op where writers take turns)."""
        ...

    def linked(self, user: str) -> tuple[str, ...]:
        """The other accounts of the person `user` is (none if not linked)."""
        ...

    def link(self, person: str, other: str) -> None:
        """Make `other` an account of the person whose first account is `person`."""
        ...

    def unlink(self, user: str) -> None:
        """Separate every account of the person `user` is."""
        ...

    def played_by(self, user: str) -> list[int]:
        """The ladders where the account has a player (a member or not), by id."""
        ...

    def add_code(self, code: str, kind: str, subject: str, expires: Timestamp,
                 now: Timestamp) -> None:
        """Keep a new one-time code (and forget the ones that expired)."""
        ...

    def take_code(self, code: str, kind: str, now: Timestamp) -> str | None:
        """The subject of a code of `kind` that has not expired; it is used up either
        way (None: no such code now)."""
        ...

    def plays_shared(self, chat: str) -> bool:
        """Whether the chat plays a ladder with another chat (read without locking any)."""
        ...

    def views(self, ladder: int) -> list[LadderInfo]:
        """The ladder as each chat that plays it sees it: its home chat's first."""
        ...

    def share(self, ladder: int, chat: str, name: str) -> None:
        """Let `chat` play the ladder as `name` (its default if it has no ladder yet)."""
        ...

    def unshare(self, ladder: int, chat: str | None = None) -> list[str]:
        """Stop one chat (None: every other chat) playing the ladder; the chats that
        stopped."""
        ...

    # ---- redelivered messages
    def seen(self, chat: str, message_id: str) -> str | None:
        """The reply given to a message id already handled, if any."""
        ...

    def remember(self, chat: str, message_id: str, reply: str, at: Timestamp) -> None:
        """Keep the reply to a message id."""
        ...


T = TypeVar("T")


class Store(Protocol):
    """A database: runs units of work, each one transaction."""

    def run(self, work: Callable[[Repo], T], *, commit: bool = True,
            key: str | None = None) -> Awaitable[T]:
        """Run `work` in one transaction; roll back if it raises or `commit` is False.
        Units of one `key` (a chat) may be run one at a time (PostgreSQL's store)."""
        ...


class PlatformRepo(Repo, Protocol):
    """The repository as the chat adapters and the scheduler use it: the core's, and the
    platforms' own data (the handles they teach, the outbox)."""

    def learn_handle(self, platform: str, handle: str, user: UserRef, at: Timestamp) -> None:
        """Remember which user a @handle names on a platform."""
        ...

    def find_handle(self, platform: str, handle: str) -> UserRef | None:
        """The user a @handle names, if the bot has seen it."""
        ...

    def user_ladders(self, user: str) -> list[LadderInfo]:
        """Ladders of every chat the user is a member of."""
        ...

    def enqueue(self, announcements: Sequence[Announcement], at: Timestamp) -> None:
        """Keep announcements until a platform has posted them."""
        ...

    def outbox_due(self, now: Timestamp, limit: int = 50) -> list[tuple[int, int, Announcement]]:
        """(id, attempts, announcement) waiting to be posted, oldest first."""
        ...

    def outbox_done(self, item: int) -> None:
        """An announcement was posted."""
        ...

    def outbox_retry(self, item: int, next_at: Timestamp, error: str) -> None:
        """Posting failed: try again later."""
        ...


class PlatformStore(Protocol):
    """The database as the chat adapters and the scheduler use it (SQLite, PostgreSQL
    and the in-memory twin alike)."""

    def run(self, work: Callable[[PlatformRepo], T], *, commit: bool = True,
            key: str | None = None) -> Awaitable[T]:
        """Run `work` in one transaction; roll back if it raises or `commit` is False.
        Units of one `key` (a chat) may be run one at a time (PostgreSQL's store)."""
        ...

    async def leads_jobs(self) -> bool:
        """Whether this process runs the scheduled jobs (one at a time on one database)."""
        ...

    async def restate_pending(self) -> int:
        """Write the history a correction left for later; how many ladders had some."""
        ...
