"""The commands a chat can give, as typed values: what `core.commands.parsing` makes of a message
and Discord's typed options alike, and what `core.service.dispatch` runs."""

from __future__ import annotations

from dataclasses import dataclass

from core.domain.model import Margin
from core.domain.records import UserRef

# ------------------------------------------------------------------ commands


@dataclass(frozen=True, slots=True)
class Help:
    """Show the command list, or one command's usage."""

    topic: str | None = None


@dataclass(frozen=True, slots=True)
class CreateLadder:
    """Create a ladder in this chat from a preset and settings."""

    name: str
    preset: str
    options: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True, slots=True)
class ChangeSettings:
    """Change settings of the ladder."""

    options: tuple[tuple[str, str], ...]


@dataclass(frozen=True, slots=True)
class ShowLadder:
    """Show the ladder's preset and settings."""


@dataclass(frozen=True, slots=True)
class ListLadders:
    """List the chat's ladders."""


@dataclass(frozen=True, slots=True)
class MakeDefault:
    """Make a ladder the chat's default."""

    name: str


@dataclass(frozen=True, slots=True)
class RenameLadder:
    """Moderator: give the ladder another name (its history stays)."""

    name: str


@dataclass(frozen=True, slots=True)
class DeleteLadder:
    """Moderator: delete a ladder; without `confirmed`, say what it deletes and how to."""

    name: str
    confirmed: bool = False


@dataclass(frozen=True, slots=True)
class ShareLadder:
    """Moderator: a one-time code that lets another chat play this ladder."""


@dataclass(frozen=True, slots=True)
class JoinShare:
    """Moderator: play here, as `name`, the ladder another chat's code (`code`) shares."""

    code: str
    name: str


@dataclass(frozen=True, slots=True)
class Unshare:
    """Moderator: stop sharing the ladder (at its home: with every other chat; elsewhere:
    stop playing it here)."""


@dataclass(frozen=True, slots=True)
class LinkAccount:
    """Without a code: ask for a one-time code; with one: join this account to the one
    on the other platform that asked for it."""

    code: str | None = None


@dataclass(frozen=True, slots=True)
class UnlinkAccount:
    """Separate this account from the one it is linked to."""


@dataclass(frozen=True, slots=True)
class PinStandings:
    """Moderator: post the standings here and keep that message up to date."""


@dataclass(frozen=True, slots=True)
class UnpinStandings:
    """Moderator: stop keeping the live standings message up to date."""


@dataclass(frozen=True, slots=True)
class Join:
    """Join the ladder."""


@dataclass(frozen=True, slots=True)
class Leave:
    """Leave the ladder."""


@dataclass(frozen=True, slots=True)
class IssueChallenge:
    """Challenge another player, or anyone (`opponent` None: an open challenge)."""

    opponent: UserRef | None = None


@dataclass(frozen=True, slots=True)
class AcceptChallenge:
    """Accept a challenge (the oldest one, or the one from `challenger`)."""

    challenger: UserRef | None = None


@dataclass(frozen=True, slots=True)
class DeclineChallenge:
    """Decline a challenge, which the rules allow only for a valid reason."""

    reason: str = ""
    challenger: UserRef | None = None


@dataclass(frozen=True, slots=True)
class WithdrawChallenge:
    """Take back one's own challenge while it is unanswered (`/challenge cancel`)."""

    opponent: UserRef | None = None


@dataclass(frozen=True, slots=True)
class CancelChallenge:
    """Moderator: cancel any unfinished challenge (`/mod cancel CHALLENGE_ID reason`)."""

    challenge_id: int
    reason: str


@dataclass(frozen=True, slots=True)
class SetAvailability:
    """Mark oneself available or unavailable for challenges."""

    available: bool


@dataclass(frozen=True, slots=True)
class ReportResult:
    """Report a game; `sides` lists sides in finishing order (first won unless draw), or
    none for the asker's match from the queue (`/report win` alone)."""

    sides: tuple[tuple[UserRef, ...], ...]
    draw: bool = False
    margin: Margin | None = None
    moves: int | None = None
    rated: bool = True
    again: bool = False  # a new game, though it matches one the other side just reported
    score: tuple[int, int] | None = None  # games won, the winner's first (best-of-N)
    # No sides: the asker's match the queue formed, their team first unless `loss`.
    loss: bool = False


@dataclass(frozen=True, slots=True)
class ConfirmResult:
    """Confirm a pending report."""

    match_id: int | None = None


@dataclass(frozen=True, slots=True)
class DisputeResult:
    """Dispute a pending report; a moderator decides."""

    match_id: int | None = None
    reason: str = ""


@dataclass(frozen=True, slots=True)
class WithdrawReport:
    """Take back a report of one's own side while it waits for the opponent."""

    match_id: int | None = None


@dataclass(frozen=True, slots=True)
class ShowStandings:
    """Show a table (default: the ladder's main ranking), a page of it."""

    table: str | None = None
    page: int = 1


@dataclass(frozen=True, slots=True)
class ShowProfile:
    """Show a player's profile."""

    user: UserRef | None = None


@dataclass(frozen=True, slots=True)
class ShowHistory:
    """Show recent matches and corrections (the ladder's, or a player's), a page of them."""

    user: UserRef | None = None
    page: int = 1


@dataclass(frozen=True, slots=True)
class ShowPlayers:
    """List the ladder's members, a page of them."""

    page: int = 1


@dataclass(frozen=True, slots=True)
class ShowHallOfFame:
    """Show the Hall of Fame."""


@dataclass(frozen=True, slots=True)
class Suggest:
    """List fair opponents for the asker now."""


@dataclass(frozen=True, slots=True)
class JoinQueue:
    """Take a place in the ladder's queue (or see who waits, when in it already)."""


@dataclass(frozen=True, slots=True)
class LeaveQueue:
    """Give up a place in the queue, or drop out of a ready check."""


@dataclass(frozen=True, slots=True)
class Ready:
    """Say ready for the match the queue formed (its number, where given)."""

    match_id: int | None = None


@dataclass(frozen=True, slots=True)
class ResultSpec:
    """A moderator's new result: players named in finishing order, or a draw."""

    order: tuple[UserRef, ...]
    draw: bool = False
    margin: Margin | None = None
    moves: int | None = None
    rated: bool | None = None  # None: as reported
    score: tuple[int, int] | None = None  # None: as reported (the winner's games first)


@dataclass(frozen=True, slots=True)
class VoidMatch:
    """Moderator: void a match."""

    match_id: int
    reason: str


@dataclass(frozen=True, slots=True)
class SetResult:
    """Moderator: change (or decide) a match's result."""

    match_id: int
    result: ResultSpec
    reason: str


@dataclass(frozen=True, slots=True)
class AddPlayer:
    """Moderator: put someone on the ladder, as their own /join would."""

    user: UserRef
    reason: str = ""


@dataclass(frozen=True, slots=True)
class BanPlayer:
    """Moderator: take a player off the ladder and keep them off (the record stays)."""

    user: UserRef
    reason: str


@dataclass(frozen=True, slots=True)
class UnbanPlayer:
    """Moderator: let a banned player /join again."""

    user: UserRef
    reason: str


@dataclass(frozen=True, slots=True)
class RemovePlayer:
    """Moderator: take a player off the ladder, as their own /leave would."""

    user: UserRef
    reason: str


@dataclass(frozen=True, slots=True)
class AdjustRating:
    """Moderator: move a rating by points, or a player by rungs."""

    user: UserRef
    amount: float
    reason: str


@dataclass(frozen=True, slots=True)
class CloseSeason:
    """Moderator: close the season now."""

    reason: str = ""


Command = (
    Help | CreateLadder | ChangeSettings | ShowLadder | ListLadders | MakeDefault
    | RenameLadder | DeleteLadder | PinStandings | UnpinStandings | Join | Leave
    | IssueChallenge | AcceptChallenge | DeclineChallenge | WithdrawChallenge | CancelChallenge
    | SetAvailability | ReportResult | ConfirmResult | DisputeResult | WithdrawReport
    | ShowStandings | ShowProfile | ShowHistory | ShowHallOfFame | ShowPlayers | Suggest
    | JoinQueue | LeaveQueue | Ready | VoidMatch
    | SetResult | AdjustRating | RemovePlayer | AddPlayer | BanPlayer | UnbanPlayer | CloseSeason
    | ShareLadder | JoinShare | Unshare | LinkAccount | UnlinkAccount
)

@dataclass(frozen=True, slots=True)
class Parsed:
    """A command and the ladder it names (`ladder=NAME`), if any."""

    command: Command
    ladder: str | None = None
