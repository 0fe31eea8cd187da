"""The arguments of each command word, read into a typed command (`read_report` makes
`ReportResult` of `win @bob major`); `core.commands.registry` names which word each reads, and
`core.commands.reading.parse` reads a whole message. Mentions are resolved by the adapter's
`resolve` callback (a console name, a Telegram username, a Discord id); a mention nobody
knows is refused with what to do. Malformed commands raise `UsageError` with the
command's usage line.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable

from core.commands.values import (
    AcceptChallenge,
    Command,
    ConfirmResult,
    DeclineChallenge,
    DisputeResult,
    Help,
    IssueChallenge,
    JoinQueue,
    LeaveQueue,
    LinkAccount,
    Ready,
    ReportResult,
    ShowHistory,
    ShowPlayers,
    ShowProfile,
    ShowStandings,
    WithdrawChallenge,
    WithdrawReport,
)
from core.commands.words import (
    SCORE,
    Args,
    is_mention,
    oriented,
    quote,
    read_margin,
    read_match_id,
    read_moves,
    read_page,
    read_score,
)
from core.domain.model import Margin
from core.domain.records import UserRef
from core.i18n import t

MAX_TEXT = 2000
TABLES = ("season", "week", "ladder", "rating")


def command_word(text: str) -> str | None:
    """The command word of a message (`report` for `/report@MyBot win`), or None."""
    stripped = text.lstrip()
    if not stripped.startswith("/"):
        return None
    first = stripped.split(maxsplit=1)[0][1:]
    return first.split("@", 1)[0].lower()


def no_args(command: Command) -> Callable[[Args], Command]:
    def parser(args: Args) -> Command:
        args.done()
        return command

    return parser


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


_REPORT_KINDS = ("win", "loss", "draw", "ffa", "teams")
# What people type for the outcome in plain English.
_REPORT_WORDS = {"won": "win", "beat": "win", "lose": "loss", "lost": "loss", "tie": "draw",
                 "tied": "draw", "drew": "draw", "team": "teams"}


def _is_option(token: str) -> bool:
    low = token.lower()
    return read_margin(low) is not None or low.startswith("moves=") or \
        low in ("unrated", "draw", "again") or SCORE.fullmatch(token) is not None


def read_report(args: Args) -> Command:
    if not args.tokens:
        raise args.error(t("parse.report_what"))
    kind = args.pop().lower()
    me = (args.author,)
    margin: Margin | None = None
    moves: int | None = None
    rated = True
    draw = again = False
    score: tuple[int, int] | None = None
    sides: tuple[tuple[UserRef, ...], ...]
    if kind in ("win", "loss", "draw"):
        opponent = args.optional_mention() or args.reply_to
        if opponent is None and args.tokens and not _is_option(args.tokens[0]):
            opponent = args.mention(args.tokens[0])  # refuses a name written without @
        if opponent is None:  # the asker's match from the queue, if they have one
            sides = ()
        else:  # (oneself as the opponent is refused by core.commands.checks, on every path)
            sides = (me, (opponent,)) if kind != "loss" else ((opponent,), me)
        draw = kind == "draw"
    elif kind == "ffa":
        order = []
        while (user := args.optional_mention()) is not None:
            order.append(user)
        if len(order) < 2:
            raise args.error(t("parse.report_ffa"))
        sides = tuple((u,) for u in order)
    elif kind == "teams":
        teams: list[list[UserRef]] = [[]]
        while args.tokens and (is_mention(args.tokens[0]) or args.tokens[0].lower() == "vs"):
            token = args.pop()
            if token.lower() == "vs":
                teams.append([])
            else:
                teams[-1].append(args.mention(token))
        if len(teams) < 2 or any(not t for t in teams):
            raise args.error(t("parse.report_teams"))
        sides = tuple(tuple(t) for t in teams)
    else:
        guess = _REPORT_WORDS.get(kind) or next(
            iter(difflib.get_close_matches(kind[:32], _REPORT_KINDS, n=1)), None)
        raise args.error(t("parse.report_kind", kind=quote(kind),
                           hint=t("parse.did_you_mean_word", guess=guess) if guess else ""))
    while args.tokens:
        token = args.pop()
        low = token.lower()
        if (m := read_margin(low)) is not None and kind in ("win", "loss", "draw"):
            margin = m  # (a draw's is refused by core.commands.checks)
        elif low.startswith("moves="):
            moves = read_moves(args, token)
        elif low == "unrated":
            rated = False
        elif low == "again":
            again = True
        elif (typed := read_score(token)) is not None:
            if kind == "ffa":
                raise args.error(t("parse.score_ffa"))
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
                        loss=kind == "loss" and not sides)


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


def read_queue(args: Args) -> Command:
    if args.tokens and args.tokens[0].lower() == "leave":
        args.pop()
        args.done()
        return LeaveQueue()
    args.done()
    return JoinQueue()


def read_ready(args: Args) -> Command:
    match_id = read_match_id(args, required=False)
    args.done()
    return Ready(match_id)


def read_link(args: Args) -> Command:
    code = args.pop() if args.tokens else None
    args.done()
    return LinkAccount(code)


def read_standings(args: Args) -> Command:
    page = read_page(args)
    token = args.pop() if args.tokens else None
    table = token.lower() if token is not None else None
    if token is not None and table not in TABLES:
        raise args.error(t("parse.no_table", token=quote(token)), token)
    args.done()
    return ShowStandings(table, page)


def read_players(args: Args) -> Command:
    page = read_page(args)
    args.done()
    return ShowPlayers(page)


def read_profile(args: Args) -> Command:
    user = args.optional_mention()
    args.done()
    return ShowProfile(user)


def read_history(args: Args) -> Command:
    page = read_page(args)
    user = args.optional_mention()
    args.done()
    return ShowHistory(user, page)


def read_help(args: Args) -> Command:
    # `/help mod void` and `/help report win` mean the command's help: words after the
    # command word are its arguments, which the help of the command covers.
    topic = args.pop().lstrip("/").lower() if args.tokens else None
    args.tokens = []
    return Help(topic)
