"""One command's view of a ladder: who asks, the repository, and shared wording."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass, field

from core.domain.bestof import score_text
from core.domain.calendar import local, month_label
from core.domain.elo import round_half_away
from core.domain.errors import NotAllowed, UnknownPlayer
from core.domain.events import Event
from core.domain.ledger import Rederived
from core.domain.model import PlayerId, Result, Timestamp
from core.domain.names import distinct, given, shown_name
from core.domain.records import (
    NAMED,
    AuditEntry,
    ChallengeRecord,
    Context,
    LadderInfo,
    MatchRecord,
    PlayerInfo,
    UserRef,
)
from core.domain.settings import Policy, Settings, fmt_number
from core.domain.standing import Applied, Change
from core.i18n import Message, Number, Text, joined, listed, plural, t
from core.ports.repository import Repo

PLATFORMS = {"discord": "Discord", "telegram": "Telegram"}
WEB = "web"  # how the audit marks what a moderator did on the dashboard
DISCORD = "discord:"  # a chat key's prefix on Discord, where a command's options are named
# The options a command's text takes as bare words, in order (`/standings season`).
_BARE = {"/standings": ("table",), "/history": ("player",), "/h2h": ("player", "other"),
         "/tournament": ("name",)}
_DISCORD_WORDS = {"/tournament": "/tournament show"}  # (a subcommand there)


def platform_of(key: str) -> str:
    """`Discord`, `Telegram`: the platform of a user or chat key (its prefix otherwise)."""
    prefix = key.split(":", 1)[0]
    return PLATFORMS.get(prefix, prefix)


def instant(ctx: Context, ladder: LadderInfo) -> Timestamp:
    """The instant of a command on a ladder: its message's, never before the ladder's
    clock (a ladder's log runs forward)."""
    return max(ctx.at, ladder.clock)


@dataclass
class Session:
    """A command in progress on one ladder."""

    repo: Repo
    ctx: Context
    ladder: LadderInfo
    policy: Policy = field(default_factory=Policy)
    _names: dict[PlayerId, str] = field(default_factory=dict)
    _players: dict[str, PlayerInfo | None] = field(default_factory=dict)
    # users its words call (a tournament round it opened): the reply, or the job's
    # announcement, calls them on the platforms
    calls: list[str] = field(default_factory=list)

    @property
    def settings(self) -> Settings:
        """The ladder's current settings."""
        return self.ladder.settings

    @property
    def join(self) -> str:
        """How to join this ladder: on a chat's other ladders, /join names it."""
        return self.said("/join")

    def said(self, word: str, named: bool = False, **options: object) -> str:
        """A command as this ladder's members type it on their platform, with `ladder`
        on a chat's other ladders (`named`: on any ladder of a chat of several, as a prompt
        to answer says it): `/standings season page=2 ladder=cup`, and on Discord its
        options' way, `/standings table:season page:2 ladder:cup`."""
        given = [(key, str(value)) for key, value in options.items() if value not in (None, "")]
        if not self.ladder.is_default or (named and self.several):
            given.append(("ladder", self.ladder.name))
        if self.ctx.chat.startswith(DISCORD):
            return " ".join([_DISCORD_WORDS.get(word, word),
                             *(f"{key}:{value}" for key, value in given)])
        bare = _BARE.get(word, ())
        return " ".join([word, *(value for key, value in given if key in bare),
                         *(f"{key}={value}" for key, value in given if key not in bare)])

    @property
    def several(self) -> bool:
        """Whether the chat plays other ladders than this one."""
        return self.ladder.several

    @property
    def season(self) -> str:
        """The season under way: before anyone joined, the one that will begin this month."""
        return self.ladder.season or month_label(self.now, self.settings.timezone)

    @property
    def now(self) -> Timestamp:
        """The instant of this command (never before the ladder's clock)."""
        return instant(self.ctx, self.ladder)

    def refresh(self) -> None:
        """Re-read the ladder after its settings or properties changed."""
        found = self.repo.ladder(self.ladder.chat, self.ladder.name)
        assert found is not None
        self.ladder = found

    # ---- players
    def player(self, user: UserRef) -> PlayerInfo | None:
        """A chat user's player on this ladder, if they ever joined (looked up once)."""
        if user.key not in self._players:
            found = find_player(self.repo, self.ladder.id, user.key)
            self._players[user.key] = found
            if found is not None:
                self._names[found.id] = found.name
        return self._players[user.key]

    def expect(self, users: Iterable[UserRef],
               then: Callable[[list[PlayerId]], None] | None = None) -> None:
        """Say which users' players are looked up next, and what `then` names is read
        after (see Repo.expect_players)."""
        wanted = list(dict.fromkeys(u.key for u in users))
        if len(wanted) > 1 and any(key not in self._players for key in wanted):
            self.repo.expect_players(self.ladder.id, wanted, then)

    def new_player(self, user: UserRef) -> PlayerInfo:
        """A player record for a user who has none on this ladder (a name no player has
        names nobody: it is refused)."""
        if user.key.startswith(NAMED):
            raise UnknownPlayer(t("parse.unknown_user", name=user.name))
        return self.repo.add_player(self.ladder.id, UserRef(user.key, self.told_apart(user.name)))

    def told_apart(self, name: str, player: PlayerId | None = None) -> str:
        """The name a player (new, or `player`) is shown by on this ladder: as given, or
        told apart from another's that looks like it ("alice (2)", core.domain.names)."""
        return distinct(name, lambda look: self.repo.looks_taken(self.ladder.id, look, player))

    def renamed(self, player: PlayerInfo, name: str) -> str:
        """Name the player as their account now shows them, if it changed; the name
        they are shown by."""
        if given(player.name, name):
            return player.name
        shown = self.told_apart(name, player.id)
        self.repo.update_player(self.ladder.id, player.id, name=shown)
        self._names[player.id] = shown
        return shown

    def me(self) -> PlayerInfo:
        """The asking user as a current member, or a refusal telling them to join."""
        player = self.player(self.ctx.user)
        if player is None:
            raise NotAllowed(t("me.not_joined", ladder=self.ladder.name, join=self.join))
        if not player.member:
            if player.banned:
                raise NotAllowed(t("me.banned", ladder=self.ladder.name,
                                   why=self.off_reason(player)))
            if player.removed:
                raise NotAllowed(t("me.removed", ladder=self.ladder.name,
                                   why=self.off_reason(player), join=self.join))
            raise NotAllowed(t("me.left", ladder=self.ladder.name, join=self.join))
        # A player is named as the account that joined shows its user (a linked account
        # of theirs, on another platform, may be called otherwise: it renames nobody).
        if player.user == self.ctx.user.key:
            shown = self.renamed(player, self.ctx.user.name)
            if shown != player.name:
                return dataclasses.replace(player, name=shown)
        return player

    def member(self, user: UserRef) -> PlayerInfo:
        """A mentioned user as a current member, or a refusal saying how to join."""
        player = self.player(user)
        if player is None:
            raise UnknownPlayer(t("member.not_joined", name=user.name, ladder=self.ladder.name,
                                  join=self.join))
        if not player.member:
            raise UnknownPlayer(t("member.left", name=user.name, ladder=self.ladder.name,
                                  join=self.join))
        return player

    def off_reason(self, player: PlayerInfo) -> Message:
        """` (by mod: cheating)`: who took a player off or banned them, and why."""
        for entry in self.repo.audit(self.ladder.id, player=player.id, limit=20):
            if entry.action in ("remove", "ban"):
                return t("member.off_reason", by=entry.by, reason=entry.reason)
        return ""

    def audit(self, action: str, reason: str, *, match: int | None = None,
              player: PlayerId | None = None, detail: str = "") -> None:
        """Log a moderator's action: who, when, why (shown in /history and /profile)."""
        by = self.ctx.user.name
        where = [platform_of(self.ctx.user.key)] if self.ladder.shared else []
        if self.ctx.web:
            where.append(WEB)
        if where:  # (which platform's moderator it was, and whether on the dashboard)
            by = f"{by} ({', '.join(where)})"
        self.repo.add_audit(AuditEntry(self.ladder.id, self.now, by, action, reason, match,
                                       player, detail))

    def waiting_on(self, player: PlayerId) -> tuple[list[MatchRecord], list[ChallengeRecord]]:
        """A player's open reports (pending or disputed) and unfinished challenges: what
        keeps them on the ladder until it is settled."""
        return ([m for m in self.repo.open_matches(self.ladder.id) if player in m.result.players],
                [c for c in self.repo.unfinished_challenges(self.ladder.id) if c.involves(player)])

    def page(self) -> str:
        """The public page of the ladder, if it is public and pages are served."""
        if self.ladder.public and self.policy.web_url:
            return f"{self.policy.web_url.rstrip('/')}/ladders/{self.ladder.id}"
        return ""

    def name(self, player: PlayerId) -> str:
        """Display name of a player id."""
        if player not in self._names:
            self._names.update(
                {p: info.name for p, info in self.repo.players(self.ladder.id, [player]).items()}
            )
        return self._names.get(player, f"player {player}")

    def names(self, players: Iterable[PlayerId]) -> None:
        """Load display names of many players at once."""
        wanted = [p for p in players if p not in self._names]
        if wanted:
            self._names.update(
                {p: info.name for p, info in self.repo.players(self.ladder.id, wanted).items()}
            )

    # ---- writing
    def append(self, *events: Event) -> list[Applied | Rederived]:
        """Append events to the ladder's log."""
        return self.repo.append(self.ladder.id, events)

    # ---- wording
    def when(self, at: Timestamp) -> str:
        """An instant in the ladder's time zone, to the minute."""
        moment = local(at, self.settings.timezone)
        zone = "" if self.settings.timezone == "UTC" else f" {moment.tzname()}"
        return moment.strftime("%Y-%m-%d %H:%M") + (zone or " UTC")

    def describe_result(self, result: Result) -> Text:
        """`alice beat bob (major)`, `finishing order: 1. a, 2. b`, `a and b drew with c
        and d`."""
        self.names(result.players)
        sides = [listed([self.name(p) for p in side]) for side in result.sides]
        teams = any(len(side) > 1 for side in result.sides)
        text: Text
        if result.draw:
            text = t("result.drew", a=sides[0], b=sides[1])
        elif len(sides) == 2:
            text = t("result.beat_teams" if teams else "result.beat", a=sides[0], b=sides[1])
        else:
            text = t("result.order", order=joined(
                *(t("result.place", place=i, side=side) for i, side in enumerate(sides, 1)),
                sep=", "))
        extras: list[Message] = []
        if result.score is not None:
            extras.append(score_text(result.score))
        if result.margin is not None and not result.draw:
            extras.append(result.margin.value)  # the word as the report gives it
        if result.moves is not None:
            extras.append(plural(result.moves, "move"))
        if not result.rated:
            extras.append(t("result.unrated"))
        return t("result.with", result=text, extras=joined(*extras, sep=", ")) if extras \
            else text

    def describe_changes(self, changes: Sequence[Change], limit: int = 12,
                         left: Collection[PlayerId] = ()) -> Message:
        """`alice 1000 -> 1020 (+20), bob (left) 1100 -> 1080 (-20)`, largest first when
        cut; `left` are the players to mark as having left the ladder."""
        if not changes:
            return ""
        shown = list(changes)
        if len(shown) > limit:
            shown = sorted(shown, key=lambda c: -abs(c.delta))[:limit]
        self.names(c.player for c in shown)
        parts = [self.change_text(c, c.player in left) for c in shown]
        more = len(changes) - len(shown)
        return joined(*parts, t("changes.more", count=more) if more else "", sep=", ")

    def change_text(self, change: Change, left: bool = False) -> Message:
        """One player's change, as ratings or rungs (`left`: marked as gone)."""
        name: Message = t("change.left", name=self.name(change.player)) if left \
            else self.name(change.player)
        if self.settings.is_position:
            before, after = int(change.before), int(change.after)
            if after == before:
                return t("change.stays", name=name, rung=after)
            return t("change.up" if after < before else "change.down", name=name,
                     before=before, after=after, by=abs(after - before))
        return t("change.rating", name=name, before=rating_text(change.before),
                 after=rating_text(change.after), delta=signed(change.delta))


def rating_text(rating: float) -> str:
    """A rating as shown: whole numbers (real ratings are shown rounded)."""
    return str(round_half_away(rating))


def signed(delta: float) -> Message:
    """`+20`, `-13`, `+20.5`, `0`; a fraction with its reader's decimal sign (`+20,5` in
    Russian and Dutch), as every other number of the reply."""
    if abs(delta) < 0.05:
        return "0"
    if float(delta).is_integer():
        text = fmt_number(delta)
        return text if delta < 0 else "+" + text
    return t("number.signed", sign="-" if delta < 0 else "+",
             number=Number(round(abs(delta), 1)))




def find_player(repo: Repo, ladder: int, user: str) -> PlayerInfo | None:
    """The ladder's player for a user key: the account's own, else that of an account
    linked to it (a linked person is one player), else, for a `name:` key, the player of
    that ladder name (a refusal if several have it)."""
    found = repo.player_for(ladder, user)
    if found is not None:
        return found
    if user.startswith(NAMED):
        name = user[len(NAMED):]
        typed = shown_name(name).casefold()  # (as the name was stored, core.domain.names)
        found_named = [p for p in repo.players(ladder).values() if p.name.casefold() == typed]
        if len(found_named) > 1:  # (names are not unique across platforms)
            raise UnknownPlayer(t("named.several", name=name, players=len(found_named)))
        return found_named[0] if found_named else None
    for other in repo.linked(user):
        found = repo.player_for(ladder, other)
        if found is not None:
            return found
    return None


def ensure(condition: bool, error: Exception) -> None:
    """Raise `error` unless `condition` holds."""
    if not condition:
        raise error


def participants_text(session: Session, players: Sequence[PlayerId]) -> Message:
    """`alice, bob and carol`."""
    session.names(players)
    return listed([session.name(p) for p in players])


def mention(user: UserRef) -> str:
    """How the bot addresses a user in a message."""
    return f"@{user.name}"
