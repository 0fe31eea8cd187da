"""Chat text -> Command: the one parser every adapter uses.

`parse` turns `/report win @bob major` into a typed command. Mentions are resolved by
the adapter's `resolve` callback (a console name, a Telegram username, a Discord id);
a mention nobody knows is refused with what to do. Malformed commands raise
`UsageError` with the command's usage line.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable

from core.commands import (
    CHAT_LEVEL,
    AcceptChallenge,
    Command,
    ConfirmResult,
    DeclineChallenge,
    DisputeResult,
    Help,
    IssueChallenge,
    Join,
    Leave,
    Parsed,
    ReportResult,
    SetAvailability,
    ShowHallOfFame,
    ShowHistory,
    ShowPlayers,
    ShowProfile,
    ShowStandings,
    WithdrawChallenge,
    WithdrawReport,
)
from core.errors import UsageError
from core.i18n import Number, joined, t
from core.model import Margin
from core.parse_mod import parse_ladder, parse_mod
from core.records import UserRef
from core.words import (
    LADDER_NAME,
    Args,
    Resolver,
    is_mention,
    quote,
    read_margin,
    read_match_id,
    read_moves,
    read_page,
)

MAX_TEXT = 2000
TABLES = ("season", "week", "ladder", "rating")




# ------------------------------------------------------------------ parsing


def command_word(text: str) -> str | None:
    """The command word of a message (`report` for `/report@MyBot win`), or None."""
    stripped = text.lstrip()
    if not stripped.startswith("/"):
        return None
    first = stripped.split(maxsplit=1)[0][1:]
    return first.split("@", 1)[0].lower()


def parse(text: str, author: UserRef, resolve: Resolver,
          reply_to: UserRef | None = None) -> Parsed | None:
    """Parse a chat message; None when it is not a command at all."""
    if len(text) > MAX_TEXT:
        raise UsageError(t("parse.too_long", length=Number(len(text)), max=Number(MAX_TEXT)))
    word = command_word(text)
    if word is None:
        return None
    tokens = text.split()[1:]
    ladder: str | None = None
    kept = []
    for token in tokens:
        if token.lower().startswith("ladder="):
            ladder = token.split("=", 1)[1]
            if not LADDER_NAME.match(ladder):
                raise UsageError(t("parse.ladder_name"))
        else:
            kept.append(token)
    if word == "ladder" and ladder is not None and [t.lower() for t in kept] == ["default"]:
        kept, ladder = [*kept, ladder], None  # said as `/ladder default ladder=NAME`
    parser = _PARSERS.get(word)
    if parser is None:
        shown = word if len(word) <= 32 else word[:32] + "…"
        guess = _closest_command(word)
        hint = joined(t("parse.did_you_mean", guess=guess) if guess else "",
                      t("parse.lists_open") if word in ("challenges", "pending") else "", sep="")
        raise UsageError(t("parse.unknown_command", word=shown, hint=hint))
    args = Args(word, kept, author, resolve, reply_to)
    command = parser(args)
    if ladder is not None and isinstance(command, CHAT_LEVEL):
        # These name their ladder themselves (or none); ladder= would be silently ignored.
        raise args.error(t("parse.ladder_chat_level"))
    return Parsed(command, ladder)


_REPORT_KINDS = ("win", "loss", "draw", "ffa", "teams")
# What people type for the outcome in plain English.
_REPORT_WORDS = {"won": "win", "beat": "win", "lose": "loss", "lost": "loss", "tie": "draw",
                 "tied": "draw", "drew": "draw", "team": "teams"}


# Words other ladder bots use, and what they mean here (spelling alone misleads:
# /challenges is not /challenge, /unjoin is not /join).
_MEANT = {
    "leaderboard": "standings", "top": "standings", "rank": "standings",
    "ranking": "standings", "rankings": "standings", "table": "standings",
    "stats": "profile", "me": "profile", "challenges": "profile", "pending": "profile",
    "matches": "history", "games": "history", "results": "history",
    "register": "join", "signup": "join", "unjoin": "leave", "quit": "leave",
    "hof": "halloffame", "commands": "help",
}


def _closest_command(word: str) -> str | None:
    """The command a mistyped or borrowed word most likely meant (`/hall`, `/reprot`,
    `/leaderboard`), if any: its meaning here, else the one it begins, else the nearest by
    spelling."""
    if word in _MEANT:
        return _MEANT[word]
    if len(word) > 32:  # no command is that long; spare difflib a pasted wall of text
        return None
    names = [name for name in _PARSERS if name != "start"]  # (Telegram's own /help)
    begun = [name for name in names if name.startswith(word)]
    if len(word) >= 3 and len(begun) == 1:
        return begun[0]
    close = difflib.get_close_matches(word, names, n=1)
    return close[0] if close else None










def _no_args(command: Command) -> Callable[[Args], Command]:
    def parser(args: Args) -> Command:
        args.done()
        return command

    return parser


def _challenge(args: Args) -> Command:
    if (args.peek() or "").lower() == "cancel":
        args.pop()
        named = args.optional_mention()
        args.done()
        return WithdrawChallenge(named)
    opponent = args.optional_mention() or args.reply_to
    if opponent is None:
        raise args.error(t("parse.challenge_who"))
    args.done()
    return IssueChallenge(opponent)


def _accept(args: Args) -> Command:
    challenger = args.optional_mention()
    args.done()
    return AcceptChallenge(challenger)


def _decline(args: Args) -> Command:
    challenger = args.optional_mention()
    return DeclineChallenge(args.rest(), challenger)




def _is_option(token: str) -> bool:
    low = token.lower()
    return read_margin(low) is not None or low.startswith("moves=") or \
        low in ("unrated", "draw", "again")


def _report(args: Args) -> Command:
    if not args.tokens:
        raise args.error(t("parse.report_what"))
    kind = args.pop().lower()
    me = (args.author,)
    margin: Margin | None = None
    moves: int | None = None
    rated = True
    draw = again = False
    sides: tuple[tuple[UserRef, ...], ...]
    if kind in ("win", "loss", "draw"):
        opponent = args.optional_mention() or args.reply_to
        if opponent is None and args.tokens and not _is_option(args.tokens[0]):
            opponent = args.mention(args.tokens[0])  # refuses a name written without @
        if opponent is None:
            raise args.error(t("parse.report_opponent"))
        if opponent.key == args.author.key:
            raise args.error(t("parse.report_yourself"))
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
        if (m := read_margin(low)) is not None and kind in ("win", "loss"):
            margin = m
        elif low.startswith("moves="):
            moves = read_moves(args, token)
        elif low == "unrated":
            rated = False
        elif low == "again":
            again = True
        elif low == "draw" and kind == "teams":
            draw = True
        elif read_margin(low) is not None and kind == "draw":
            raise args.error(t("result.draw_margin"))
        elif is_mention(token) and kind in ("win", "loss", "draw"):
            raise args.error(t("parse.one_opponent"))
        else:
            raise args.stray(token)
    everyone = [u.key for side in sides for u in side]
    if len(set(everyone)) != len(everyone):
        raise args.error(t("parse.once"))
    if draw and len(sides) != 2:
        raise args.error(t("spec.draw_two"))
    return ReportResult(sides, draw, margin, moves, rated, again)




def _confirm(args: Args) -> Command:
    match_id = read_match_id(args, required=False)
    args.done()
    return ConfirmResult(match_id)


def _dispute(args: Args) -> Command:
    match_id = read_match_id(args, required=False)
    return DisputeResult(match_id, args.rest())


def _withdraw(args: Args) -> Command:
    match_id = read_match_id(args, required=False)
    args.done()
    return WithdrawReport(match_id)




def _standings(args: Args) -> Command:
    page = read_page(args)
    token = args.pop() if args.tokens else None
    table = token.lower() if token is not None else None
    if token is not None and table not in TABLES:
        raise args.error(t("parse.no_table", token=quote(token)), token)
    args.done()
    return ShowStandings(table, page)


def _players(args: Args) -> Command:
    page = read_page(args)
    args.done()
    return ShowPlayers(page)


def _profile(args: Args) -> Command:
    user = args.optional_mention()
    args.done()
    return ShowProfile(user)


def _history(args: Args) -> Command:
    page = read_page(args)
    user = args.optional_mention()
    args.done()
    return ShowHistory(user, page)


def _help(args: Args) -> Command:
    # `/help mod void` and `/help report win` mean the command's help: words after the
    # command word are its arguments, which the help of the command covers.
    topic = args.pop().lstrip("/").lower() if args.tokens else None
    args.tokens = []
    return Help(topic)






_PARSERS: dict[str, Callable[[Args], Command]] = {
    "ladder": parse_ladder,
    "join": _no_args(Join()),
    "leave": _no_args(Leave()),
    "challenge": _challenge,
    "accept": _accept,
    "decline": _decline,
    "available": _no_args(SetAvailability(True)),
    "unavailable": _no_args(SetAvailability(False)),
    "report": _report,
    "confirm": _confirm,
    "dispute": _dispute,
    "withdraw": _withdraw,
    "standings": _standings,
    "profile": _profile,
    "history": _history,
    "halloffame": _no_args(ShowHallOfFame()),
    "players": _players,
    "mod": parse_mod,
    "help": _help,
    "start": _help,  # Telegram sends /start when a user opens the bot
}
