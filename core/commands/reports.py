"""/report, /confirm, /dispute, /withdraw: a game reported and what becomes of it."""

from __future__ import annotations

import difflib
from dataclasses import dataclass

from core.commands.base import Command, Spec
from core.commands.params import (
    CHOICE,
    MOVES,
    NAME_LENGTH,
    OPTIONAL_MATCH,
    OPTIONAL_REASON,
    UNRATED,
    Form,
    Kind,
    Param,
    Values,
    user,
)
from core.commands.tournaments import NAME_LENGTH as TOURNAMENT_NAME
from core.commands.words import (
    MAX_TEXT,
    SCORE,
    Args,
    is_mention,
    oriented,
    quote,
    read_margin,
    read_match_id,
    read_moves,
    read_score,
)
from core.domain.errors import UsageError
from core.domain.model import Margin
from core.domain.records import UserRef, named
from core.domain.settings import MAX_BESTOF
from core.i18n import N_, t


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
    # The tournament game it counts for, where two could (None: the one pairing them),
    # or NO_TOURNAMENT: a ladder game only, though a tournament pairs them.
    tournament: str | None = None


NO_TOURNAMENT = "none"


@dataclass(frozen=True, slots=True)
class ConfirmResult(Command):
    """Confirm a pending report."""

    waits = "answer"

    match_id: int | None = None


@dataclass(frozen=True, slots=True)
class DisputeResult(Command):
    """Dispute a pending report; a moderator decides."""

    waits = "answer"

    match_id: int | None = None
    reason: str = ""


@dataclass(frozen=True, slots=True)
class WithdrawReport(Command):
    """Take back a report of one's own side while it waits for the opponent."""

    waits = "own"

    match_id: int | None = None


_REPORT_KINDS = ("win", "loss", "draw", "ffa", "teams")


# What people type for the outcome in plain English.
_REPORT_WORDS = {"won": "win", "beat": "win", "lose": "loss", "lost": "loss", "tie": "draw",
                 "tied": "draw", "drew": "draw", "team": "teams"}


def _is_option(token: str) -> bool:
    low = token.lower()
    return read_margin(low) is not None or low.startswith("moves=") or \
        low in ("unrated", "draw", "again") or SCORE.fullmatch(token) is not None or \
        low.startswith("tournament=")


def read_report(args: Args) -> Command:
    """`/report KIND [sides] [options]` read from a line."""
    if not args.tokens:
        raise args.error(t("parse.report_what"))
    kind = args.pop().lower()
    margin: Margin | None = None
    moves: int | None = None
    rated = True
    again = False
    score: tuple[int, int] | None = None
    tournament: str | None = None
    sides = _read_sides(args, kind)
    draw = kind == "draw"
    while args.tokens:
        token = args.pop()
        low = token.lower()
        if (m := read_margin(low)) is not None and kind in ("win", "loss", "draw"):
            if margin is not None:
                raise args.error(t("parse.two_margins"))
            margin = m  # (a draw's is refused by core.commands.checks)
        elif low.startswith("moves="):
            moves = read_moves(args, token)
        elif low == "unrated":
            rated = False
        elif low == "again":
            again = True
        elif low.startswith("tournament=") and kind in ("win", "loss", "draw"):
            tournament = token.split("=", 1)[1]
        elif (typed := read_score(token)) is not None:
            if kind == "ffa":
                raise args.error(t("parse.score_ffa"))
            if score is not None:
                raise args.error(t("parse.two_scores"))
            score = typed
        elif low == "draw" and kind == "teams":
            draw = True
        elif is_mention(token) and kind in ("win", "loss", "draw"):
            raise args.error(t("parse.one_opponent"))
        else:
            raise args.stray(token)
    if score is not None:
        score = oriented(score, draw)
    return ReportResult(sides, draw, margin, moves, rated, again, score,
                        loss=kind == "loss" and not sides, tournament=tournament)


def _read_sides(args: Args, kind: str) -> tuple[tuple[UserRef, ...], ...]:
    """The sides a report's kind names, in order (the winner first); () for the asker's
    match from the queue."""
    if kind in ("win", "loss", "draw"):
        opponent = args.optional_mention() or args.reply_to
        if opponent is None and args.tokens and not _is_option(args.tokens[0]):
            opponent = args.mention(args.tokens[0])  # refuses a name written without @
        if opponent is None:  # the asker's match from the queue, if they have one
            return ()
        # (oneself as the opponent is refused by core.commands.checks, on every path)
        me = (args.author,)
        return (me, (opponent,)) if kind != "loss" else ((opponent,), me)
    if kind == "ffa":
        order = []
        while (user := args.optional_mention()) is not None:
            order.append(user)
        if len(order) < 2:
            raise args.error(t("parse.report_ffa"))
        return tuple((u,) for u in order)
    if kind == "teams":
        teams: list[list[UserRef]] = [[]]
        while args.tokens and (is_mention(args.tokens[0]) or args.tokens[0].lower() == "vs"):
            token = args.pop()
            if token.lower() == "vs":
                teams.append([])
            else:
                teams[-1].append(args.mention(token))
        if len(teams) < 2 or any(not t for t in teams):
            raise args.error(t("parse.report_teams"))
        return tuple(tuple(t) for t in teams)
    guess = _REPORT_WORDS.get(kind) or next(
        iter(difflib.get_close_matches(kind[:32], _REPORT_KINDS, n=1)), None)
    raise args.error(t("parse.report_kind", kind=quote(kind),
                       hint=t("parse.did_you_mean_word", guess=guess) if guess else ""))


def read_confirm(args: Args) -> Command:
    match_id = read_match_id(args, required=False)
    args.done()
    return ConfirmResult(match_id)


def read_dispute(args: Args) -> Command:
    match_id = read_match_id(args, required=False)
    return DisputeResult(match_id, args.rest())


def read_withdraw(args: Args) -> Command:
    match_id = read_match_id(args, required=False)
    args.done()
    return WithdrawReport(match_id)


def _report(values: Values, asker: UserRef) -> Command:
    """`/report result opponent ...` from its options."""
    opponent, name = user(values, "opponent"), values.get("opponent_name")
    if (opponent is None) == (name is None):  # one of the two names them
        raise UsageError(t("report.one_opponent"))
    result, score = values["result"], values.get("score")
    games = None if score is None else read_score(score.strip(), result == "draw")
    if score is not None and games is None:
        raise UsageError(t("parse.score", max=MAX_BESTOF))
    them = (opponent or named(name or ""),)
    sides = (them, (asker,)) if result == "loss" else ((asker,), them)
    margin = values.get("margin")
    return ReportResult(sides, result == "draw", Margin(margin) if margin else None,
                        values.get("moves"), not values["unrated"], values["again"], games,
                        tournament=values.get("tournament"))


def _report_ffa(values: Values, _: UserRef) -> str:
    moves = values.get("moves")
    return (f"/report ffa {values['players']}"
            + (f" moves={moves}" if moves is not None else "")
            + (" unrated" if values["unrated"] else ""))


def _report_teams(values: Values, _: UserRef) -> str:
    result, team1, team2 = values["result"], values["team1"], values["team2"]
    first, second = (team2, team1) if result == "team2" else (team1, team2)
    tail = (" draw" if result == "draw" else "") + (" unrated" if values["unrated"] else "")
    return f"/report teams {first} vs {second}{tail}"


# Its words, as /help, the parser and Telegram's menus read them.
WORDS: tuple[Spec, ...] = (
    Spec("report", ("/report win|loss|draw @user [2-1] [minor|major|overwhelming] [moves=N] "
                    "[unrated] [again] [tournament=NAME|none]", "/report ffa @1st @2nd ...",
                    "/report teams @a @b vs @c @d [2-1] [draw]"),
         N_("help.report"), N_("menu.report"), read_report, (ReportResult,)),
    Spec("confirm", ("/confirm [MATCH_ID]",), N_("help.confirm"), N_("menu.confirm"),
         read_confirm, (ConfirmResult,)),
    Spec("dispute", ("/dispute [MATCH_ID] [reason]",), N_("help.dispute"), N_("menu.dispute"),
         read_dispute, (DisputeResult,)),
    Spec("withdraw", ("/withdraw [MATCH_ID]",), N_("help.withdraw"), N_("menu.withdraw"),
         read_withdraw, (WithdrawReport,)),
)

# Its typed forms (Discord's slash commands).
FORMS: tuple[Form, ...] = (
    Form(("report",), N_("menu.report"), (
        Param("result", high=CHOICE, required=True,
              choices=(("win", None), ("loss", None), ("draw", None))),
        Param("opponent", Kind.USER), Param("opponent_name", high=NAME_LENGTH),
        Param("score", high=16), Param("margin", high=CHOICE,
                                       choices=tuple((m.value, None) for m in Margin)),
        MOVES, UNRATED, Param("again", Kind.BOOL, default=False),
        Param("tournament", high=TOURNAMENT_NAME, help=N_("menu.opt_report_tournament"))),
         _report),
    Form(("report-ffa",), N_("menu.report_ffa"), (
        Param("players", high=MAX_TEXT, required=True, help=N_("menu.opt_players")),
        MOVES, UNRATED), _report_ffa),
    Form(("report-teams",), N_("menu.report_teams"), (
        Param("team1", high=MAX_TEXT, required=True, help=N_("menu.opt_team1")),
        Param("team2", high=MAX_TEXT, required=True, help=N_("menu.opt_team2")),
        Param("result", high=CHOICE, required=True, help=N_("menu.opt_team_result"),
              choices=(("team1", N_("menu.choice_team1")), ("team2", N_("menu.choice_team2")),
                       ("draw", N_("menu.choice_draw")))),
        UNRATED), _report_teams),
    Form(("confirm",), N_("menu.confirm"), (OPTIONAL_MATCH,),
         lambda v, _: ConfirmResult(v["match"])),
    Form(("dispute",), N_("menu.dispute"), (OPTIONAL_REASON, OPTIONAL_MATCH),
         lambda v, _: DisputeResult(v["match"], v["reason"])),
    Form(("withdraw",), N_("menu.withdraw"), (OPTIONAL_MATCH,),
         lambda v, _: WithdrawReport(v["match"])),
)
