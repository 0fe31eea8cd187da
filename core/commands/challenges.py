"""/challenge, /accept, /decline: challenges between players."""

from __future__ import annotations

from dataclasses import dataclass

from core.commands.base import Command, Spec
from core.commands.params import (
    NAME_LENGTH,
    OPTIONAL_REASON,
    Form,
    Kind,
    Param,
    user,
)
from core.commands.words import (
    Args,
)
from core.domain.records import UserRef, named
from core.i18n import N_


@dataclass(frozen=True, slots=True)
class IssueChallenge(Command):
    """Challenge another player, or anyone (`opponent` None: an open challenge)."""

    opponent: UserRef | None = None


@dataclass(frozen=True, slots=True)
class AcceptChallenge(Command):
    """Accept a challenge (the oldest one, or the one from `challenger`)."""

    waits = "challenge"

    challenger: UserRef | None = None


@dataclass(frozen=True, slots=True)
class DeclineChallenge(Command):
    """Decline a challenge, which the rules allow only for a valid reason."""

    waits = "challenge"

    reason: str = ""
    challenger: UserRef | None = None


@dataclass(frozen=True, slots=True)
class WithdrawChallenge(Command):
    """Take back one's own challenge while it is unanswered (`/challenge cancel`)."""

    opponent: UserRef | None = None


def read_challenge(args: Args) -> Command:
    if (args.peek() or "").lower() == "cancel":
        args.pop()
        named = args.optional_mention()
        args.done()
        return WithdrawChallenge(named)
    opponent = args.optional_mention() or args.reply_to
    args.done()
    return IssueChallenge(opponent)  # (no one named: an open challenge)


def read_accept(args: Args) -> Command:
    challenger = args.optional_mention()
    args.done()
    return AcceptChallenge(challenger)


def read_decline(args: Args) -> Command:
    challenger = args.optional_mention()
    return DeclineChallenge(args.rest(), challenger)


# Its words, as /help, the parser and Telegram's menus read them.
WORDS: tuple[Spec, ...] = (
    Spec("challenge", ("/challenge [@user]", "/challenge cancel [@user]"), N_("help.challenge"),
         N_("menu.challenge"), read_challenge,
         (IssueChallenge, WithdrawChallenge)),
    Spec("accept", ("/accept [@user]",), N_("help.accept"), N_("menu.accept"), read_accept,
         (AcceptChallenge,)),
    Spec("decline", ("/decline [reason]",), N_("help.decline"), N_("menu.decline"),
         read_decline, (DeclineChallenge,)),
)

# Its typed forms (Discord's slash commands).
FORMS: tuple[Form, ...] = (
    Form(("accept",), N_("menu.accept"), (Param("challenger", Kind.USER),),
         # (a challenger named: their challenge to you, or their open challenge to anyone)
         lambda v, _: AcceptChallenge(user(v, "challenger"))),
    Form(("challenge-cancel",), N_("menu.challenge_cancel"),
         (Param("opponent", Kind.USER, help=N_("menu.opt_challenged")),),
         lambda v, _: WithdrawChallenge(user(v, "opponent"))),
    Form(("challenge",), N_("menu.challenge"), (
        Param("opponent", Kind.USER, help=N_("menu.opt_challenged")),
        Param("opponent_name", high=NAME_LENGTH)),
         # (no opponent: an open challenge, taken by the first /accept naming the challenger)
         lambda v, _: IssueChallenge(user(v, "opponent") or (
             named(v["opponent_name"]) if v["opponent_name"] else None))),
    Form(("decline",), N_("menu.decline"), (OPTIONAL_REASON, Param("challenger", Kind.USER)),
         lambda v, _: DeclineChallenge(v["reason"], user(v, "challenger"))),
)
