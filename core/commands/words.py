"""Reading the words of one command: the argument reader every command parser uses,
and the pieces several commands share (mentions, reasons, match ids, pages, margins)."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable

from core.domain.bestof import score_text
from core.domain.errors import UnknownPlayer, UsageError
from core.domain.model import Margin
from core.domain.names import shielded
from core.domain.numerals import is_digits
from core.domain.records import UserRef
from core.domain.settings import MAX_BESTOF, MAX_MOVES
from core.i18n import Message, Number, joined, t

MAX_REASON = 300
MAX_ADJUST = 10_000  # points, or rungs, of one /mod adjust
LADDER_LENGTH = 32  # a ladder name's characters, at most
# ... and its bytes in UTF-8: a Telegram button carries it in its 64 bytes of data
# (`withdraw:NAME:1234567890`, `pg:s:100000:NAME:season`)
LADDER_BYTES = 40
LADDER_CHARS = rf"[^\s:=]{{1,{LADDER_LENGTH}}}"  # (inside buttons' data: `ladder_name` checks)
_NAME_PARTS = frozenset("-_")


def ladder_name(text: str) -> str | None:
    """`text` as a ladder name, in NFC, or None if it is not one: letters of any script
    (with their marks), digits, `-` and `_`, up to LADDER_LENGTH characters and
    LADDER_BYTES bytes."""
    name = unicodedata.normalize("NFC", text)
    if not 0 < len(name) <= LADDER_LENGTH or len(name.encode()) > LADDER_BYTES:
        return None
    if unicodedata.category(name[0])[0] == "M":  # (a mark belongs to a letter before it)
        return None
    for char in name:
        kind = unicodedata.category(char)
        if not (kind[0] in "LM" or kind == "Nd" or char in _NAME_PARTS):
            return None
    return name
MAX_PAGE = 100_000
MAX_TEXT = 2000  # a command's characters, at most
TABLES = ("season", "week", "ladder", "rating")
CODE_LENGTH = 8  # a /link or share code's letters: 32^8, about 10^12 codes, against a
# few tries a minute

Resolver = Callable[[str], UserRef | None]


class Args:
    """Tokens of one command, consumed left to right."""

    def __init__(self, word: str, tokens: list[str], author: UserRef, resolve: Resolver,
                 reply_to: UserRef | None, usage: Message = "") -> None:
        self.word = word
        self.usage = usage  # the command's usage line, said after what was wrong
        self.tokens = tokens
        self.author = author
        self.resolve = resolve
        self.reply_to = reply_to

    def error(self, problem: Message, stray: str = "") -> UsageError:
        return UsageError(joined(problem, self.usage, sep="\n") if self.usage else problem,
                          stray)

    def stray(self, token: str) -> UsageError:
        """A word the command does not take."""
        return self.error(t("parse.stray", token=quote(token)), token)

    def peek(self) -> str | None:
        return self.tokens[0] if self.tokens else None

    def pop(self) -> str:
        return self.tokens.pop(0)

    def rest(self) -> str:
        text = " ".join(self.tokens)
        self.tokens = []
        if len(text) > MAX_REASON:
            raise self.error(t("parse.reason_long", max=MAX_REASON))
        return text

    def done(self) -> None:
        if self.tokens:
            raise self.stray(self.tokens[0])

    def mention(self, token: str) -> UserRef:
        if not is_mention(token):
            raise self.error(t("parse.not_player", token=quote(token)))
        name = token[1:].rstrip(",.;:!?)")
        user = self.resolve(name) if name else None
        if user is None:
            raise UnknownPlayer(t("parse.unknown_user", name=clip(name)))
        return user

    def optional_mention(self) -> UserRef | None:
        token = self.peek()
        if token is not None and is_mention(token):
            return self.mention(self.pop())
        return None


def is_mention(token: str) -> bool:
    """True for `@name` tokens."""
    return token.startswith("@") and len(token) > 1


def clip(text: str, limit: int = 40) -> str:
    return text if len(text) <= limit else text[:limit] + "…"


def quote(token: str) -> str:
    """A typed word echoed in a reply: shown as typed, never a command (core.domain.names)."""
    return f"'{shielded(clip(token))}'"


def read_options(args: Args) -> tuple[tuple[str, str], ...]:
    pairs = []
    for token in args.tokens:
        key, eq, value = token.partition("=")
        if not eq or not key or not value:
            raise args.error(t("parse.settings_form", token=quote(token)))
        pairs.append((key.lower(), value))
    args.tokens = []
    return tuple(pairs)


def read_margin(token: str) -> Margin | None:
    try:
        return Margin(token.lower())
    except ValueError:
        return None


def read_moves(args: Args, token: str) -> int:
    raw = token.split("=", 1)[1]
    if not is_digits(raw) or int(raw) > MAX_MOVES:
        raise args.error(t("parse.moves", max=Number(MAX_MOVES)))
    return int(raw)


# A match's score as players write it: `2-1`, `2:1` or with a dash from a phone's keyboard.
SCORE = re.compile(r"([0-9]{1,3})[-:\u2012\u2013\u2014\u2212]([0-9]{1,3})")


def read_score(token: str, draw: bool | None = None) -> tuple[int, int] | None:
    """The score a token gives (None: the token is no score), the winner's games first:
    it is read in either order, since the command says who won (`oriented`, once `draw`
    is known)."""
    found = SCORE.fullmatch(token)
    if found is None:
        return None
    a, b = int(found[1]), int(found[2])
    if max(a, b) > MAX_BESTOF or a + b == 0:
        raise UsageError(t("parse.score", max=MAX_BESTOF))
    return (a, b) if draw is None else oriented((a, b), draw)


def oriented(score: tuple[int, int], draw: bool) -> tuple[int, int]:
    """A score as a result keeps it: the winner's games first; a draw's are equal."""
    a, b = score
    if draw and a != b:
        raise UsageError(t("parse.score_draw"))
    if not draw and a == b:
        raise UsageError(t("parse.score_even", score=score_text(score)))
    return max(a, b), min(a, b)


def read_match_id(args: Args, required: bool) -> int | None:
    token = args.peek()
    if token is not None and is_digits(token.lstrip("#")):
        args.pop()
        value = int(token.lstrip("#"))
        if value > 2**62:
            raise args.error(t("parse.match_range"))
        return value
    if required:
        raise args.error(t("parse.match_id"))
    return None


def read_page(args: Args) -> int:
    """A `page=N` anywhere among the words (taken out), else 1."""
    for token in list(args.tokens):
        if token.lower().startswith("page="):
            raw = token.split("=", 1)[1]
            if not is_digits(raw) or not 1 <= int(raw) <= MAX_PAGE:
                raise args.error(t("parse.page", max=Number(MAX_PAGE)))
            args.tokens.remove(token)
            return int(raw)
    return 1


def read_reason(args: Args) -> str:
    reason = args.rest()
    if not reason:
        raise args.error(t("parse.reason_needed"))
    return reason


def command_word(text: str) -> str | None:
    """The command word of a message (`report` for `/report@MyBot win`), or None."""
    stripped = text.lstrip()
    if not stripped.startswith("/"):
        return None
    first = stripped.split(maxsplit=1)[0][1:]
    return first.split("@", 1)[0].lower()
