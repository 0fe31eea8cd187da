"""Records the service reads and writes through a repository: ladders, players,
matches as reported, challenges, the audit trail, and who is asking."""

from __future__ import annotations

from dataclasses import dataclass

from core.domain.chart import ChartData
from core.domain.errors import LadderError
from core.domain.model import Match, PlayerId, Result, Timestamp
from core.domain.settings import Settings
from core.domain.tournament.chart import BracketChart
from core.i18n import N_, Message, Text, decode, t

# The notes that say a match is unrated in their own words.
SAYS_UNRATED = frozenset({"note.marked_unrated", "note.farmed", "note.too_short", "note.gap",
                          "note.glicko2_duels"})
MatchStatus = str  # "pending" | "confirmed" | "disputed" | "voided"
# "open" | "accepted" | "declined" | "played" | "forfeited" | "lapsed" | "cancelled"
ChallengeStatus = str


@dataclass(frozen=True, slots=True)
class UserRef:
    """A chat user: a platform-wide key (e.g. `telegram:123`) and a display name."""

    key: str
    name: str


NAMED = "name:"  # a user key for a player named by their ladder name (one on no platform
# of the asker's: a Telegram player, picked on Discord)


def named(name: str) -> UserRef:
    """A player named by their ladder name, as typed (`@bob` or `bob`)."""
    bare = name.strip().lstrip("@")
    return UserRef(f"{NAMED}{bare}", bare)


@dataclass(frozen=True, slots=True)
class Context:
    """Who sent a command, where, and when (the clock is passed in, never read)."""

    chat: str
    user: UserRef
    at: Timestamp
    moderator: bool = False
    message_id: str | None = None  # lets a redelivered message be answered, not redone
    reply_to: UserRef | None = None  # the author of the message this one replies to
    channel: str | None = None  # where in the chat it was said (Discord channel id)
    locale: str | None = None  # the sender's own language (Discord's locale, Telegram's
    # language_code), for what only they see
    alone: bool = False  # only the sender reads the replies here (a private chat)
    ephemeral: bool = False  # a private reply reaches the sender alone here (Discord's
    # ephemeral replies; a private chat's, too)
    roles: RoleAccess | None = None  # a Discord server's roles, read for a command that
    # sets the roles a ladder gives (None: the chat has none, or they were not read)
    roles_held: frozenset[str] = frozenset()  # the sender's own roles (Discord's role ids),
    # for a ladder's moderators' role: `moderator` is for every ladder of the chat
    attachment: bytes | None = None  # a file sent with the command (a Discord attachment,
    # a Telegram document), as the adapter read it
    web: bool = False  # given on the dashboard's pages (the audit says so)

    def moderates(self, ladder: LadderInfo | None) -> bool:
        """Whether the sender moderates `ladder`: every ladder of the chat (its
        administrators), or this one by its moderators' role. Asked of the ladder a command
        acts on, once it is known, never of another the command was typed beside."""
        role = ladder.mod_role if ladder is not None else None
        return self.moderator or (role is not None and role in self.roles_held)


@dataclass(frozen=True, slots=True)
class LadderInfo:
    """A ladder and its chat-level properties."""

    id: int
    chat: str
    name: str
    settings: Settings
    created_at: Timestamp
    clock: Timestamp  # jobs have run up to this instant
    is_default: bool = False
    channel: str | None = None
    public: bool = False
    season: str | None = None  # the open season (YYYY-MM), from the standings
    last_decay: str | None = None  # the last decay day applied (ISO date)
    next_due: Timestamp | None = None  # when a job next falls due (None: nothing scheduled)
    mod_role: str | None = None  # a chat role whose members moderate (Discord role id)
    shared: bool = False  # another chat plays it too (/ladder share)
    home: str | None = None  # the chat it was made in, when this is another chat's view
    several: bool = False  # the chat plays another ladder too (its own or shared)
    contested: bool = False  # it has a tournament open or running (a result may count)


@dataclass(frozen=True, slots=True)
class PlayerInfo:
    """A ladder member (or former member) as the chat knows them."""

    ladder: int
    id: PlayerId
    user: str
    name: str
    member: bool = True
    available: bool = True
    banned: bool = False  # /mod ban: may not /join until /mod unban
    removed: bool = False  # off the ladder by a moderator's /mod remove or /mod ban


@dataclass(frozen=True, slots=True)
class MatchRecord:
    """A report and what became of it."""

    ladder: int
    id: int
    status: MatchStatus
    reporter: PlayerId
    reported_at: Timestamp
    result: Result
    challenge: int | None = None
    forfeit: bool = False
    confirmed_at: Timestamp | None = None
    disputed_at: Timestamp | None = None
    voided_at: Timestamp | None = None
    note: str = ""  # dispute reason, or why the match was unrated
    rated: bool | None = None  # as derived when confirmed; None while pending

    def unrated_text(self) -> Message:
        """How a confirmed unrated match reads: its reason where that says it is
        unrated ("marked unrated", "..., so unrated"), else "unrated (its reason)"."""
        if not self.note:
            return t("result.unrated")
        said = decode(self.note)
        if said.code in SAYS_UNRATED if isinstance(said, Text) else "unrated" in str(said):
            return said
        return t("result.unrated_because", note=said)

    def awaits(self, player: PlayerId) -> bool:
        """Whether this report waits for `player` to answer it: pending, `player` on a
        side other than the reporter's."""
        return self.status == "pending" and player in self.result.players and \
            self.result.side_of(player) != self.result.side_of(self.reporter)

    def reported_by_side_of(self, player: PlayerId) -> bool:
        """Whether this report is pending and `player`'s side made it (theirs to withdraw)."""
        return self.status == "pending" and player in self.result.players and \
            self.result.side_of(player) == self.result.side_of(self.reporter)

    def as_match(self) -> Match:
        """The value the rules fold."""
        return Match(self.id, self.reported_at, self.result, self.challenge, self.forfeit)

    def status_at(self, at: Timestamp) -> MatchStatus | None:
        """The status this match had at an instant (None: not reported yet)."""
        if self.reported_at > at:
            return None
        if self.voided_at is not None and self.voided_at <= at:
            return "voided"
        if self.confirmed_at is not None and self.confirmed_at <= at:
            return "confirmed"
        if self.disputed_at is not None and self.disputed_at <= at:
            return "disputed"
        return "pending"


@dataclass(frozen=True, slots=True)
class ChallengeRecord:
    """A challenge (on a position ladder, or a rating ladder with challenges)."""

    ladder: int
    id: int
    challenger: PlayerId
    challenged: PlayerId | None  # None: an open challenge nobody has taken yet
    status: ChallengeStatus
    issued_at: Timestamp
    answered_at: Timestamp | None = None
    reminded: bool = False
    match: int | None = None
    reason: str = ""

    @property
    def unfinished(self) -> bool:
        """Open or accepted, with no result yet."""
        return self.status in ("open", "accepted")

    def involves(self, player: PlayerId) -> bool:
        """True if `player` is either side of the challenge."""
        return player in (self.challenger, self.challenged)


@dataclass(frozen=True, slots=True)
class AuditEntry:
    """A moderator action, kept with who, when and why."""

    ladder: int
    at: Timestamp
    by: str
    action: str  # "void", "set", "adjust", "season-close", "settings", ... (`_ACTIONS`)
    reason: str
    match: int | None = None
    player: PlayerId | None = None
    detail: str = ""

    def message(self, at: str, name: str) -> Text:
        """The entry as /profile, /history and the web say it: `at`, when it was; `name`,
        the player it concerns."""
        return t(_ACTIONS.get(self.action, N_("audit.other")), at=at, by=self.by, name=name,
                 match=f"#{self.match}" if self.match is not None else "",
                 reason=decode(self.reason), detail=decode(self.detail), action=self.action)


# A moderator's action, by what they did.
_ACTIONS = {"void": N_("audit.void"), "set": N_("audit.set"), "adjust": N_("audit.adjust"),
            "season-close": N_("audit.season_close"), "settings": N_("audit.settings"),
            "remove": N_("audit.remove"), "cancel": N_("audit.cancel"), "ban": N_("audit.ban"),
            "unban": N_("audit.unban"), "add": N_("audit.add"), "rename": N_("audit.rename"),
            "share": N_("audit.share"), "unshare": N_("audit.unshare"),
            "tournament_create": N_("audit.tournament_create"),
            "tournament_start": N_("audit.tournament_start"),
            "tournament_cancel": N_("audit.tournament_cancel"),
            "import": N_("audit.import"), "undo_import": N_("audit.undo_import"),
            "claim": N_("audit.claim"), "rules": N_("audit.rules")}


@dataclass(frozen=True, slots=True)
class ChangeRecord:
    """One stored rating (or rung) change, as the history and week table read it."""

    seq: int
    at: Timestamp
    player: PlayerId
    before: float
    after: float
    kind: str  # "match", "decay", "adjust", "join", "leave"
    match: int | None = None
    rated: bool = False
    rd: float | None = None  # the rating's deviation after it, where the rulebook keeps one


@dataclass(frozen=True, slots=True)
class Announcement:
    """A message the bot posts to a ladder's chat without being asked."""

    chat: str
    ladder: str
    text: str
    channel: str | None = None
    ready: int | None = None  # a queue match's ready check: adapters offer its button
    language: str = "en"  # what its words (and its button) are said in
    notify: tuple[str, ...] = ()  # users it calls (a formed match's players), by user key
    confirm: int | None = None  # a pending report (said in a chat sharing the ladder):
    # adapters offer its Confirm/Dispute buttons


@dataclass(frozen=True, slots=True)
class QueueEntry:
    """A player waiting in a ladder's queue: their place (`since`) and when it lapses."""

    player: PlayerId
    since: Timestamp
    expires: Timestamp


@dataclass(frozen=True, slots=True)
class QueueMatch:
    """A match a full queue formed: its two teams and who has said they are ready; `on`
    once everyone has, waiting for its report. `since` keeps each player's place in the
    queue, for those who wait again when the ready check fails."""

    id: int
    formed_at: Timestamp
    teams: tuple[tuple[PlayerId, ...], tuple[PlayerId, ...]]
    since: tuple[Timestamp, ...]  # each player's place, in the order of `players`
    ready: tuple[PlayerId, ...] = ()
    on: bool = False

    @property
    def players(self) -> tuple[PlayerId, ...]:
        """Both teams' players, the first team first."""
        return self.teams[0] + self.teams[1]


@dataclass(frozen=True, slots=True)
class QueueState:
    """A ladder's queue: who waits, oldest place first, and the matches it formed that
    are still in their ready check or waiting for a report."""

    next_id: int = 1
    entries: tuple[QueueEntry, ...] = ()
    matches: tuple[QueueMatch, ...] = ()


@dataclass(frozen=True, slots=True)
class RoleConfig:
    """The Discord roles a ladder gives (`/ladder set roles=... champion_role=...`), the
    server's role ids of those it manages, by role key (`league:Fighter`, `top:10`,
    `champion`), and the last failure to apply them (a catalog code; None: none)."""

    leagues: bool = False
    top: int | None = None
    champion: str = ""  # whose: "season" (last season's winner), "tournament" (the
    # winner of the tournament that finished last), "" (no champion's role)
    ids: tuple[tuple[str, str], ...] = ()
    problem: str | None = None
    since: Timestamp | None = None  # when `problem` was first met

    @property
    def any(self) -> bool:
        """Whether the ladder gives any role."""
        return self.leagues or self.top is not None or bool(self.champion)


@dataclass(frozen=True, slots=True)
class RoleHolding:
    """What the bot last applied to one server member for one ladder: the role keys they
    should hold, and the ids of the roles the bot itself gave them (only those it ever
    takes away: a role a person gave by hand stays)."""

    wanted: frozenset[str] = frozenset()
    granted: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class RoleAccess:
    """What the bot may do with a Discord server's roles, as the adapter found it just
    before a command that sets roles: Manage Roles (or Administrator), the position of its
    highest role, and the server's roles by name (the highest position of each name)."""

    manage: bool
    top: int
    positions: tuple[tuple[str, int], ...] = ()
    count: int = 0  # roles the server has (Discord allows 250)


@dataclass(frozen=True, slots=True)
class PinRecord:
    """A live standings message (`/ladder pin`): where, which message once posted, a
    digest of what it shows, and when it was last posted or edited."""

    channel: str | None
    message: str | None = None
    shown: str = ""
    edited: Timestamp = 0
    language: str = "en"
    problem: str = ""  # why the last post or edit could not be made (a catalog code), if
    # it could not: tried again until it can (only a deleted message ends it)


@dataclass(frozen=True, slots=True)
class Paging:
    """A reply that is one page of more: adapters offer Previous and Next buttons, which
    run `kind` (standings, players, history) again for the page before or after."""

    kind: str
    page: int
    more: bool  # a page comes after this one
    table: str = ""  # the standings' table, as the command named it ("" its main)


@dataclass(frozen=True, slots=True)
class Reply:
    """What the bot answers: text, plus anything posted elsewhere and any buttons."""

    text: Message  # words once rendered (core.service.dispatch does, in the reader's language)
    error: bool = False
    private: bool = False  # shown only to the asker where the chat can (Discord ephemeral)
    secret: bool = False  # never shown where others read (a one-time code): where the chat
    # has no private replies, the adapter sends it to the asker's private chat instead
    announce: bool = False  # also post it in the ladder's announcement channel
    announcements: tuple[Announcement, ...] = ()
    confirm_match: int | None = None  # a pending report: adapters offer Confirm/Dispute
    ready: int | None = None  # a queue match's ready check: adapters offer Ready
    notify: tuple[str, ...] = ()  # users it calls (a formed match's players), by user key
    ladder: str | None = None
    chart: ChartData | BracketChart | None = None  # a picture to attach (adapters draw it)
    language: str = "en"  # what its words are said in (core.service.dispatch.spoken sets it)
    posted: int = 0  # announcements to other chats it left in the outbox (the gateway)
    local: bool = False  # no news for the other chats of a shared ladder (its own settings)
    pages: Paging | None = None  # one page of more: Previous and Next buttons
    # a command to give again on one of these ladders (its word, the ladders' names):
    # adapters may offer a button for each
    choices: tuple[str, tuple[str, ...]] | None = None
    # a dry run of the file sent with it (the ladder, and the preset of a new one): the
    # gateway keeps the file, under `kept`, for the Confirm import button that imports it
    previewed: tuple[str, str | None] | None = None
    kept: int | None = None

    @property
    def said(self) -> str:
        """Its words as rendered, which the adapters show: every reply that leaves the
        service is rendered (core.service.dispatch.spoken); one that is not is a bug."""
        assert isinstance(self.text, str), "a reply shown before it was rendered"
        return self.text


def refused(error: LadderError) -> Reply:
    """The reply to a refused command: for its asker (a private reply where the chat has
    them), changing nothing."""
    return Reply(error.reason, error=True, private=True)
