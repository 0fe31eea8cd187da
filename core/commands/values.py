"""The commands a chat can give, as typed values: what `core.commands.parsing` makes of a message
and Discord's typed options alike, and what `core.service.dispatch` runs."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from core.domain.model import Margin
from core.domain.records import UserRef

# ------------------------------------------------------------------ commands


@dataclass(frozen=True, slots=True)
class Command:
    """What every command is: its values are its fields; who may give it and how the
    service runs it are class attributes, read where the command is run."""

    moderator: ClassVar[bool] = False  # for the ladder's moderators (or the chat's)
    # About the chat's ladders as a whole, or the asker's accounts: it names its ladder
    # itself (`ladder=` is refused), or none.
    chat_wide: ClassVar[bool] = False
    names_ladder: ClassVar[bool] = False  # its `name` is the ladder the reply is about
    reschedules: ClassVar[bool] = False  # the ladder's jobs are planned again after it



@dataclass(frozen=True, slots=True)
class Help(Command):
    """Show the command list, or one command's usage."""

    topic: str | None = None


@dataclass(frozen=True, slots=True)
class CreateLadder(Command):
    """Create a ladder in this chat from a preset and settings."""

    moderator = True
    chat_wide = True
    names_ladder = True
    reschedules = True

    name: str
    preset: str
    options: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True, slots=True)
class ChangeSettings(Command):
    """Change settings of the ladder."""

    moderator = True
    reschedules = True

    options: tuple[tuple[str, str], ...]


@dataclass(frozen=True, slots=True)
class ShowLadder(Command):
    """Show the ladder's preset and settings."""


@dataclass(frozen=True, slots=True)
class ListLadders(Command):
    """List the chat's ladders."""

    chat_wide = True


@dataclass(frozen=True, slots=True)
class MakeDefault(Command):
    """Make a ladder the chat's default."""

    moderator = True
    chat_wide = True
    names_ladder = True

    name: str


@dataclass(frozen=True, slots=True)
class RenameLadder(Command):
    """Moderator: give the ladder another name (its history stays)."""

    moderator = True

    name: str


@dataclass(frozen=True, slots=True)
class DeleteLadder(Command):
    """Moderator: delete a ladder; without `confirmed`, say what it deletes and how to."""

    moderator = True
    chat_wide = True
    names_ladder = True

    name: str
    confirmed: bool = False


@dataclass(frozen=True, slots=True)
class ShareLadder(Command):
    """Moderator: a one-time code that lets another chat play this ladder."""

    moderator = True


@dataclass(frozen=True, slots=True)
class JoinShare(Command):
    """Moderator: play here, as `name`, the ladder another chat's code (`code`) shares."""

    moderator = True
    chat_wide = True

    code: str
    name: str


@dataclass(frozen=True, slots=True)
class Unshare(Command):
    """Moderator: stop sharing the ladder (at its home: with every other chat; elsewhere:
    stop playing it here)."""

    moderator = True


@dataclass(frozen=True, slots=True)
class LinkAccount(Command):
    """Without a code: ask for a one-time code; with one: join this account to the one
    on the other platform that asked for it."""

    chat_wide = True

    code: str | None = None


@dataclass(frozen=True, slots=True)
class UnlinkAccount(Command):
    """Separate this account from the one it is linked to."""

    chat_wide = True


@dataclass(frozen=True, slots=True)
class PinStandings(Command):
    """Moderator: post the standings here and keep that message up to date."""

    moderator = True


@dataclass(frozen=True, slots=True)
class UnpinStandings(Command):
    """Moderator: stop keeping the live standings message up to date."""

    moderator = True


@dataclass(frozen=True, slots=True)
class Join(Command):
    """Join the ladder."""


@dataclass(frozen=True, slots=True)
class Leave(Command):
    """Leave the ladder."""


@dataclass(frozen=True, slots=True)
class IssueChallenge(Command):
    """Challenge another player, or anyone (`opponent` None: an open challenge)."""

    opponent: UserRef | None = None


@dataclass(frozen=True, slots=True)
class AcceptChallenge(Command):
    """Accept a challenge (the oldest one, or the one from `challenger`)."""

    challenger: UserRef | None = None


@dataclass(frozen=True, slots=True)
class DeclineChallenge(Command):
    """Decline a challenge, which the rules allow only for a valid reason."""

    reason: str = ""
    challenger: UserRef | None = None


@dataclass(frozen=True, slots=True)
class WithdrawChallenge(Command):
    """Take back one's own challenge while it is unanswered (`/challenge cancel`)."""

    opponent: UserRef | None = None


@dataclass(frozen=True, slots=True)
class CancelChallenge(Command):
    """Moderator: cancel any unfinished challenge (`/mod cancel CHALLENGE_ID reason`)."""

    moderator = True

    challenge_id: int
    reason: str


@dataclass(frozen=True, slots=True)
class SetAvailability(Command):
    """Mark oneself available or unavailable for challenges."""

    available: bool


@dataclass(frozen=True, slots=True)
class ReportResult(Command):
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
class ConfirmResult(Command):
    """Confirm a pending report."""

    match_id: int | None = None


@dataclass(frozen=True, slots=True)
class DisputeResult(Command):
    """Dispute a pending report; a moderator decides."""

    match_id: int | None = None
    reason: str = ""


@dataclass(frozen=True, slots=True)
class WithdrawReport(Command):
    """Take back a report of one's own side while it waits for the opponent."""

    match_id: int | None = None


@dataclass(frozen=True, slots=True)
class ShowStandings(Command):
    """Show a table (default: the ladder's main ranking), a page of it."""

    table: str | None = None
    page: int = 1


@dataclass(frozen=True, slots=True)
class ShowProfile(Command):
    """Show a player's profile."""

    user: UserRef | None = None


@dataclass(frozen=True, slots=True)
class ShowHistory(Command):
    """Show recent matches and corrections (the ladder's, or a player's), a page of them."""

    user: UserRef | None = None
    page: int = 1


@dataclass(frozen=True, slots=True)
class ShowPlayers(Command):
    """List the ladder's members, a page of them."""

    page: int = 1


@dataclass(frozen=True, slots=True)
class ShowHallOfFame(Command):
    """Show the Hall of Fame."""


@dataclass(frozen=True, slots=True)
class Suggest(Command):
    """List fair opponents for the asker now."""


@dataclass(frozen=True, slots=True)
class JoinQueue(Command):
    """Take a place in the ladder's queue (or see who waits, when in it already)."""


@dataclass(frozen=True, slots=True)
class LeaveQueue(Command):
    """Give up a place in the queue, or drop out of a ready check."""


@dataclass(frozen=True, slots=True)
class Ready(Command):
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
class VoidMatch(Command):
    """Moderator: void a match."""

    moderator = True

    match_id: int
    reason: str


@dataclass(frozen=True, slots=True)
class SetResult(Command):
    """Moderator: change (or decide) a match's result."""

    moderator = True

    match_id: int
    result: ResultSpec
    reason: str


@dataclass(frozen=True, slots=True)
class AddPlayer(Command):
    """Moderator: put someone on the ladder, as their own /join would."""

    moderator = True

    user: UserRef
    reason: str = ""


@dataclass(frozen=True, slots=True)
class BanPlayer(Command):
    """Moderator: take a player off the ladder and keep them off (the record stays)."""

    moderator = True

    user: UserRef
    reason: str


@dataclass(frozen=True, slots=True)
class UnbanPlayer(Command):
    """Moderator: let a banned player /join again."""

    moderator = True

    user: UserRef
    reason: str


@dataclass(frozen=True, slots=True)
class RemovePlayer(Command):
    """Moderator: take a player off the ladder, as their own /leave would."""

    moderator = True

    user: UserRef
    reason: str


@dataclass(frozen=True, slots=True)
class AdjustRating(Command):
    """Moderator: move a rating by points, or a player by rungs."""

    moderator = True

    user: UserRef
    amount: float
    reason: str


@dataclass(frozen=True, slots=True)
class CloseSeason(Command):
    """Moderator: close the season now."""

    moderator = True

    reason: str = ""



@dataclass(frozen=True, slots=True)
class Parsed:
    """A command and the ladder it names (`ladder=NAME`), if any."""

    command: Command
    ladder: str | None = None
