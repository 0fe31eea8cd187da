"""Chat text -> Command: the one parser every adapter uses.

`parse` turns `/report win @bob major` into a typed command. Mentions are resolved by
the adapter's `resolve` callback (a console name, a Telegram username, a Discord id);
a mention nobody knows is refused with what to do. Malformed commands raise
`UsageError` with the command's usage line.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable

from core.commands import (
    CHAT_LEVEL,
    AcceptChallenge,
    AddPlayer,
    AdjustRating,
    BanPlayer,
    CancelChallenge,
    ChangeSettings,
    CloseSeason,
    Command,
    ConfirmResult,
    CreateLadder,
    DeclineChallenge,
    DeleteLadder,
    DisputeResult,
    Help,
    IssueChallenge,
    Join,
    Leave,
    ListLadders,
    MakeDefault,
    Parsed,
    RemovePlayer,
    RenameLadder,
    ReportResult,
    ResultSpec,
    SetAvailability,
    SetResult,
    ShowHallOfFame,
    ShowHistory,
    ShowLadder,
    ShowPlayers,
    ShowProfile,
    ShowStandings,
    UnbanPlayer,
    VoidMatch,
    WithdrawChallenge,
    WithdrawReport,
)
from core.errors import UnknownPlayer, UsageError
from core.helptext import usage
from core.model import Margin
from core.numerals import is_digits, parse_number
from core.records import UserRef
from core.settings import MAX_MOVES

MAX_TEXT = 2000
MAX_REASON = 300
MAX_ADJUST = 10_000
LADDER_NAME = re.compile(r"^[A-Za-z0-9_-]{1,32}$")
TABLES = ("season", "week", "ladder", "rating")
MAX_PAGE = 100_000

Resolver = Callable[[str], UserRef | None]


def _usage_error(word: str, problem: str, stray: str = "") -> UsageError:
    return UsageError(f"{problem}\n{usage(word)}", stray)


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
        raise UsageError(
            f"That message is {len(text):,} characters long; commands are limited to "
            f"{MAX_TEXT:,} characters."
        )
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
                raise UsageError("ladder=NAME takes a ladder name (letters, digits, - and _).")
        else:
            kept.append(token)
    if word == "ladder" and ladder is not None and [t.lower() for t in kept] == ["default"]:
        kept, ladder = [*kept, ladder], None  # said as `/ladder default ladder=NAME`
    parser = _PARSERS.get(word)
    if parser is None:
        shown = word if len(word) <= 32 else word[:32] + "…"
        guess = _closest_command(word)
        hint = f" Did you mean /{guess}?" if guess else ""
        if word in ("challenges", "pending"):
            hint += " It lists your open reports and challenges."
        raise UsageError(f"I don't know the command /{shown}.{hint} /help lists the commands.")
    args = _Args(word, kept, author, resolve, reply_to)
    command = parser(args)
    if ladder is not None and isinstance(command, CHAT_LEVEL):
        # These name their ladder themselves (or none); ladder= would be silently ignored.
        raise args.error("ladder=NAME picks the ladder of /ladder set and /ladder info; "
                         "/ladder create NAME and /ladder default NAME take the name itself.")
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


class _Args:
    """Tokens of one command, consumed left to right."""

    def __init__(self, word: str, tokens: list[str], author: UserRef, resolve: Resolver,
                 reply_to: UserRef | None) -> None:
        self.word = word
        self.tokens = tokens
        self.author = author
        self.resolve = resolve
        self.reply_to = reply_to

    def error(self, problem: str, stray: str = "") -> UsageError:
        return _usage_error(self.word, problem, stray)

    def stray(self, token: str) -> UsageError:
        """A word the command does not take."""
        return self.error(f"I don't understand {_quote(token)}.", token)

    def peek(self) -> str | None:
        return self.tokens[0] if self.tokens else None

    def pop(self) -> str:
        return self.tokens.pop(0)

    def rest(self) -> str:
        text = " ".join(self.tokens)
        self.tokens = []
        if len(text) > MAX_REASON:
            raise self.error(f"Keep the reason under {MAX_REASON} characters.")
        return text

    def done(self) -> None:
        if self.tokens:
            raise self.stray(self.tokens[0])

    def mention(self, token: str) -> UserRef:
        if not is_mention(token):
            raise self.error(f"{_quote(token)} is not a player; name players as @name.")
        name = token[1:].rstrip(",.;:!?)")
        user = self.resolve(name) if name else None
        if user is None:
            raise UnknownPlayer(
                f"I don't know @{_clip(name)} yet: ask @{_clip(name)} to /join first "
                "(or to say something here so I can learn who they are)."
            )
        return user

    def optional_mention(self) -> UserRef | None:
        token = self.peek()
        if token is not None and is_mention(token):
            return self.mention(self.pop())
        return None


def is_mention(token: str) -> bool:
    """True for `@name` tokens."""
    return token.startswith("@") and len(token) > 1


def _clip(text: str, limit: int = 40) -> str:
    return text if len(text) <= limit else text[:limit] + "…"


def _quote(token: str) -> str:
    return f"'{_clip(token)}'"


def _options(args: _Args) -> tuple[tuple[str, str], ...]:
    pairs = []
    for token in args.tokens:
        key, eq, value = token.partition("=")
        if not eq or not key or not value:
            raise args.error(f"Settings are written key=value; {_quote(token)} is not.")
        pairs.append((key.lower(), value))
    args.tokens = []
    return tuple(pairs)


def _ladder(args: _Args) -> Command:
    sub = (args.pop().lower() if args.tokens else "info")
    if sub == "create":
        if not args.tokens:
            raise args.error("Name the new ladder.")
        name = args.pop()
        if not LADDER_NAME.match(name):
            raise args.error("A ladder name is 1-32 letters, digits, - or _.")
        options = _options(args)
        presets = [v for k, v in options if k == "preset"]
        if not presets:
            raise args.error("Say which rulebook: preset=warlight|fame|duel|nhwc|dutch.")
        if len(presets) > 1:
            raise args.error("Give preset= once.")
        return CreateLadder(name, presets[0].lower(), tuple(p for p in options if p[0] != "preset"))
    if sub == "set":
        options = _options(args)
        if not options:
            raise args.error("Give at least one key=value; /help settings lists them.")
        return ChangeSettings(options)
    if sub in ("info", "show", "settings"):
        args.done()
        return ShowLadder()
    if sub == "list":
        args.done()
        return ListLadders()
    if sub == "rename":
        if len(args.tokens) != 1 or not LADDER_NAME.match(args.tokens[0]):
            raise args.error("Give the new name: 1-32 letters, digits, - or _.")
        return RenameLadder(args.pop())
    if sub == "delete":
        if not args.tokens or not LADDER_NAME.match(args.tokens[0]):
            raise args.error("Name the ladder to delete: /ladder delete NAME.")
        name = args.pop()
        confirmed = bool(args.tokens) and args.tokens[0].lower() == "confirm"
        if confirmed:
            args.pop()
        args.done()
        return DeleteLadder(name, confirmed)
    if sub == "default":
        if len(args.tokens) != 1 or not LADDER_NAME.match(args.tokens[0]):
            raise args.error("Name the ladder to make the default.")
        return MakeDefault(args.pop())
    raise args.error(f"I don't know /ladder {_clip(sub)}.")


def _no_args(command: Command) -> Callable[[_Args], Command]:
    def parser(args: _Args) -> Command:
        args.done()
        return command

    return parser


def _challenge(args: _Args) -> Command:
    if (args.peek() or "").lower() == "cancel":
        args.pop()
        named = args.optional_mention()
        args.done()
        return WithdrawChallenge(named)
    opponent = args.optional_mention() or args.reply_to
    if opponent is None:
        raise args.error("Name the player to challenge.")
    args.done()
    return IssueChallenge(opponent)


def _accept(args: _Args) -> Command:
    challenger = args.optional_mention()
    args.done()
    return AcceptChallenge(challenger)


def _decline(args: _Args) -> Command:
    challenger = args.optional_mention()
    return DeclineChallenge(args.rest(), challenger)


def _margin(token: str) -> Margin | None:
    try:
        return Margin(token.lower())
    except ValueError:
        return None


def _is_option(token: str) -> bool:
    low = token.lower()
    return _margin(low) is not None or low.startswith("moves=") or \
        low in ("unrated", "draw", "again")


def _moves(args: _Args, token: str) -> int:
    raw = token.split("=", 1)[1]
    if not is_digits(raw) or int(raw) > MAX_MOVES:
        raise args.error(f"moves=N takes a whole number of moves up to {MAX_MOVES:,}.")
    return int(raw)


def _report(args: _Args) -> Command:
    if not args.tokens:
        raise args.error("Say what happened.")
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
            raise args.error("Name your opponent: /report win @bob.")
        if opponent.key == args.author.key:
            raise args.error("You cannot report a game against yourself: name your opponent.")
        sides = (me, (opponent,)) if kind != "loss" else ((opponent,), me)
        draw = kind == "draw"
    elif kind == "ffa":
        order = []
        while (user := args.optional_mention()) is not None:
            order.append(user)
        if len(order) < 2:
            raise args.error("Name every player in finishing order, the winner first.")
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
            raise args.error("Name both teams: /report teams @a @b vs @c @d.")
        sides = tuple(tuple(t) for t in teams)
    else:
        guess = _REPORT_WORDS.get(kind) or next(
            iter(difflib.get_close_matches(kind[:32], _REPORT_KINDS, n=1)), None)
        hint = f" Did you mean {guess}?" if guess else ""
        raise args.error(f"{_quote(kind)}: a report starts with win, loss, draw, ffa or teams."
                         f"{hint}")
    while args.tokens:
        token = args.pop()
        low = token.lower()
        if (m := _margin(low)) is not None and kind in ("win", "loss"):
            margin = m
        elif low.startswith("moves="):
            moves = _moves(args, token)
        elif low == "unrated":
            rated = False
        elif low == "again":
            again = True
        elif low == "draw" and kind == "teams":
            draw = True
        elif _margin(low) is not None and kind == "draw":
            raise args.error("A draw carries no margin.")
        elif is_mention(token) and kind in ("win", "loss", "draw"):
            raise args.error("A win, loss or draw names one opponent: a game of more players "
                             "is /report ffa @first @second ... or /report teams @a @b vs "
                             "@c @d.")
        else:
            raise args.stray(token)
    everyone = [u.key for side in sides for u in side]
    if len(set(everyone)) != len(everyone):
        raise args.error("Each player can appear only once in a game.")
    if draw and len(sides) != 2:
        raise args.error("Only a game of two sides can be a draw.")
    return ReportResult(sides, draw, margin, moves, rated, again)


def _match_id(args: _Args, required: bool) -> int | None:
    token = args.peek()
    if token is not None and is_digits(token.lstrip("#")):
        args.pop()
        value = int(token.lstrip("#"))
        if value > 2**62:
            raise args.error("That match id is out of range.")
        return value
    if required:
        raise args.error("Give the match id (as shown in /history).")
    return None


def _confirm(args: _Args) -> Command:
    match_id = _match_id(args, required=False)
    args.done()
    return ConfirmResult(match_id)


def _dispute(args: _Args) -> Command:
    match_id = _match_id(args, required=False)
    return DisputeResult(match_id, args.rest())


def _withdraw(args: _Args) -> Command:
    match_id = _match_id(args, required=False)
    args.done()
    return WithdrawReport(match_id)


def _page(args: _Args) -> int:
    """A `page=N` anywhere among the words (taken out), else 1."""
    for token in list(args.tokens):
        if token.lower().startswith("page="):
            raw = token.split("=", 1)[1]
            if not is_digits(raw) or not 1 <= int(raw) <= MAX_PAGE:
                raise args.error(f"page=N takes a page number from 1 to {MAX_PAGE:,}.")
            args.tokens.remove(token)
            return int(raw)
    return 1


def _standings(args: _Args) -> Command:
    page = _page(args)
    token = args.pop() if args.tokens else None
    table = token.lower() if token is not None else None
    if token is not None and table not in TABLES:
        raise args.error(f"There is no table called {_quote(token)}; tables: season, week, "
                         "ladder, rating (everyone).", token)
    args.done()
    return ShowStandings(table, page)


def _players(args: _Args) -> Command:
    page = _page(args)
    args.done()
    return ShowPlayers(page)


def _profile(args: _Args) -> Command:
    user = args.optional_mention()
    args.done()
    return ShowProfile(user)


def _history(args: _Args) -> Command:
    page = _page(args)
    user = args.optional_mention()
    args.done()
    return ShowHistory(user, page)


def _help(args: _Args) -> Command:
    # `/help mod void` and `/help report win` mean the command's help: words after the
    # command word are its arguments, which the help of the command covers.
    topic = args.pop().lstrip("/").lower() if args.tokens else None
    args.tokens = []
    return Help(topic)


def _reason(args: _Args) -> str:
    reason = args.rest()
    if not reason:
        raise args.error("Moderator actions need a reason, for the history.")
    return reason


def _mod(args: _Args) -> Command:
    if not args.tokens:
        raise args.error("Say what to do.")
    action = args.pop().lower()
    if action == "void":
        match_id = _match_id(args, required=True)
        assert match_id is not None
        return VoidMatch(match_id, _reason(args))
    if action == "set":
        match_id = _match_id(args, required=True)
        assert match_id is not None
        return SetResult(match_id, _result_spec(args), _reason(args))
    if action == "adjust":
        user = args.optional_mention()
        if user is None:
            raise args.error("Name the player to adjust.")
        token = args.pop() if args.tokens else ""
        amount = _adjustment(token)
        if amount is None:
            raise args.error("Give the change as +N or -N, at most "
                             f"{MAX_ADJUST:,} (points, or rungs on a position ladder).")
        return AdjustRating(user, amount, _reason(args))
    if action in ("remove", "ban", "unban", "add"):
        user = args.optional_mention() or args.reply_to
        if user is None:
            raise args.error(f"Name the player: /mod {action} @name"
                             + (" [reason]." if action == "add" else " reason."))
        if action == "add":
            return AddPlayer(user, args.rest())
        reason = _reason(args)
        if action == "ban":
            return BanPlayer(user, reason)
        return UnbanPlayer(user, reason) if action == "unban" else RemovePlayer(user, reason)
    if action == "cancel":
        token = (args.peek() or "").lstrip("#")
        if not is_digits(token) or int(token) > 2**62:
            raise args.error("Give the challenge's id (as /profile shows it): /mod cancel 3 "
                             "reason.")
        args.pop()
        return CancelChallenge(int(token), _reason(args))
    if action == "season":
        if not args.tokens or args.pop().lower() != "close":
            raise args.error("Did you mean /mod season close?")
        return CloseSeason(args.rest())
    raise args.error(f"I don't know /mod {_clip(action)}.")


def _adjustment(token: str) -> float | None:
    """A signed, non-zero change of at most MAX_ADJUST (+25, -3.5), or None."""
    if token[:1] not in ("+", "-") or "e" in token.lower():
        return None
    try:
        amount = parse_number(token)
    except ValueError:
        return None
    return amount if 0 < abs(amount) <= MAX_ADJUST else None


def _result_spec(args: _Args) -> ResultSpec:
    order: list[UserRef] = []
    draw = False
    margin: Margin | None = None
    moves: int | None = None
    rated: bool | None = None
    while args.tokens:
        token = args.peek()
        assert token is not None
        low = token.lower()
        if is_mention(token):
            order.append(args.mention(args.pop()))
        elif low == "draw":
            args.pop()
            draw = True
        elif (m := _margin(low)) is not None:
            args.pop()
            margin = m
        elif low.startswith("moves="):
            moves = _moves(args, args.pop())
        elif low in ("unrated", "rated"):
            args.pop()
            rated = low == "rated"
        elif low == "vs" and order and len(args.tokens) > 1 and is_mention(args.tokens[1]):
            args.pop()  # `@b vs @a`: the sides in order, as a report of teams writes them
        else:
            break  # the reason begins
    if not order and not draw:
        raise args.error("Say the new result: the winner as @name (all players in order for a "
                         "free-for-all), or draw.")
    if draw and margin is not None:
        raise args.error("A draw carries no margin.")
    return ResultSpec(tuple(order), draw, margin, moves, rated)


_PARSERS: dict[str, Callable[[_Args], Command]] = {
    "ladder": _ladder,
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
    "mod": _mod,
    "help": _help,
    "start": _help,  # Telegram sends /start when a user opens the bot
}
