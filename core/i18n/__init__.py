"""What the bot says, in its reader's language.

A message is a code with parameters (`Text`, made by `t`), never prose: the core builds
them, the database stores them, and `render` turns one into words once, at the edge, in
the language of whoever reads it. The words live in gettext catalogs beside this module
(`locale/<language>/LC_MESSAGES/ladderbot.po`), read with Babel: English is a catalog
like the others, so a message's code is all the code holds.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from babel.dates import format_skeleton
from babel.numbers import format_decimal

from core.i18n.catalogs import LANGUAGES, PSEUDO, SOURCE, counted, knows, translations

__all__ = ["LANGUAGES", "N_", "PSEUDO", "Joined", "Message", "Number", "Param", "Text",
           "decode", "either", "encode", "in_words", "joined", "language_of", "listed", "moment",
           "plural", "render", "series", "span", "t", "words", "wrapped"]


@dataclass(frozen=True, slots=True)
class Text:
    """One message: its catalog code, its parameters, and the count that chooses its
    plural form (given to the words as `{count}` too)."""

    code: str
    params: tuple[tuple[str, Param], ...] = ()
    count: int | None = None

    def __str__(self) -> str:
        """English: for logs, and for what still reads a message as text."""
        return render(self, "en")


@dataclass(frozen=True, slots=True)
class Joined:
    """Messages said one after the other (sentences of one reply, lines of a table)."""

    parts: tuple[Message, ...]
    sep: str = " "

    def __str__(self) -> str:
        """English, as `Text` says it."""
        return render(self, "en")


@dataclass(frozen=True, slots=True)
class Number:
    """A number as its reader's language writes it: 1,000,000 and 1.5 in English,
    1 000 000 and 1,5 in Russian, 1.000.000 and 1,5 in Dutch (Babel's CLDR data). A
    plain int parameter (an id, a rating) is written as it is."""

    value: float


# What a reply holds: a message, messages joined, or words as they are (a user's own).
Message = str | Text | Joined
# A message's parameter: a number, a message, or words as they are.
Param = str | int | float | Number | Text | Joined


def joined(*parts: Message, sep: str = " ") -> Joined:
    """`parts` said one after the other, `sep` between them (empty parts left out)."""
    return Joined(tuple(p for p in parts if p != ""), sep)


def N_(code: str) -> str:
    """A message code named ahead of its use (`t(code, ...)` later): marked, so the
    catalogs' check finds it like every `t("code")`."""
    return code


def encode(message: Text) -> str:
    """A message as the database keeps it: its code and parameters, never its words
    (`["note.farmed",{"count":4,"within":["n.day",{},7]}]`)."""
    return json.dumps(_plain(message), ensure_ascii=False, separators=(",", ":"))


def _plain(value: Param) -> Any:
    if isinstance(value, Text):
        params = {name: _plain(v) for name, v in value.params}
        return [value.code, params] if value.count is None else [value.code, params, value.count]
    if isinstance(value, Number):
        return {"number": value.value}
    if isinstance(value, Joined):
        return {"joined": [_plain(part) for part in value.parts], "sep": value.sep}
    return value


def decode(stored: str) -> Message:
    """What `encode` kept, as a message again. Anything else is words as they were
    written: a reason a user typed, or a note stored before the catalogs (and kept until
    the ladder's history is restated)."""
    if not stored.startswith('["'):
        return stored
    try:
        message = _message(json.loads(stored))
    except (ValueError, TypeError, KeyError):
        return stored
    return message if message is not None else stored


def _message(value: Any) -> Text | None:
    """A stored message, if it is one whose words exist and whose parameters they name."""
    if not isinstance(value, list) or len(value) not in (2, 3) or not isinstance(value[0], str) \
            or not isinstance(value[1], dict):
        return None
    params: dict[str, Param] = {}
    for name, v in value[1].items():
        inner = _message(v) if isinstance(v, list) else _stored(v) if isinstance(v, dict) else v
        if inner is None or not isinstance(inner, str | int | float | Number | Text | Joined):
            return None
        params[name] = inner
    count = value[2] if len(value) == 3 else None
    if count is not None and not isinstance(count, int):
        return None
    if not knows(value[0], set(params) | ({"count"} if count is not None else set())):
        return None
    return Text(value[0], tuple(params.items()), count)


def _stored(value: dict[str, Any]) -> Number | Joined | None:
    """A stored `Number` ({"number": 1.5}) or `Joined` ({"joined": [...], "sep": ", "}),
    if it is one."""
    number, parts, sep = value.get("number"), value.get("joined"), value.get("sep")
    if set(value) == {"number"} and isinstance(number, int | float) \
            and not isinstance(number, bool):
        return Number(number)
    if set(value) != {"joined", "sep"} or not isinstance(parts, list) or not isinstance(sep, str):
        return None
    said: list[Message] = []
    for part in parts:
        inner = _message(part) if isinstance(part, list) else \
            _stored(part) if isinstance(part, dict) else part
        if not isinstance(inner, str | Text | Joined):
            return None
        said.append(inner)
    return Joined(tuple(said), sep)


# What is counted, and the message that says how many (`1 win`, `3 losses`, `5 игр`).
_COUNTED = {"game": N_("n.game"), "rated game": N_("n.rated_game"), "move": N_("n.move"),
            "win": N_("n.win"), "loss": N_("n.loss"), "draw": N_("n.draw"),
            "player": N_("n.player"), "member": N_("n.member"), "page": N_("n.page"),
            "challenge": N_("n.challenge")}
# A length of time: whole units by their plural forms, a fraction by its own words.
_SPANS = {"hour": (N_("n.hour"), N_("n.hours_fraction")),
          "day": (N_("n.day"), N_("n.days_fraction"))}


def plural(count: int, word: str) -> Text:
    """`1 win`, `3 losses`, `0 draws`, in the reader's language."""
    return t(_COUNTED[word], count=count)


def span(length: float, unit: str) -> Text:
    """A length of time: `24 hours`, `1 day`, `1.5 days`."""
    whole, fraction = _SPANS[unit]
    if float(length).is_integer():
        return t(whole, count=int(length))
    return t(fraction, length=Number(float(f"{length:g}")))  # (six digits, as said)


def either(items: Sequence[Message]) -> Message:
    """`a`, `a or b`, `a or b or c` (choices to pick one of), in the reader's language."""
    said = items[0] if items else ""
    for item in items[1:]:
        said = t("list.or", head=said, last=item)
    return said


def series(items: Sequence[Text]) -> Text:
    """`a, b, c` (at least one item): one after the other, as one message the database
    can keep (each pair nested, where `joined` would only be said)."""
    said = items[0]
    for item in items[1:]:
        said = t("list.comma", head=said, last=item)
    return said


def listed(items: Sequence[Message]) -> Message:
    """`a`, `a and b`, `a, b and c`, in the reader's language."""
    if len(items) < 2:
        return items[0] if items else ""
    return t("list.and", head=joined(*items[:-1], sep=", "), last=items[-1])


def t(code: str, /, count: int | None = None, **params: Param) -> Text:
    """The message `code` with these parameters (`t("joined", name="bob", rating="1000")`).
    A parameter that is itself a `Text` is rendered in the same language; anything a user
    typed goes in as it is: the words around it never reformat it."""
    return Text(code, tuple(params.items()), count)


def render(value: Message, language: str) -> str:
    """A message in words in `language` (one of LANGUAGES, or PSEUDO); a plain string
    is already words (a user's own text) and stays as it is."""
    if isinstance(value, str):
        return value
    if isinstance(value, Joined):
        return value.sep.join(render(part, language) for part in value.parts)
    params = {name: in_words(v, language) for name, v in value.params}
    if value.count is not None:
        params.setdefault("count", value.count)
    return wrapped(words(value.code, value.count, language).format_map(params), language)


def words(code: str, count: int | None, language: str) -> str:
    """The words of `code` in `language`, their placeholders unfilled (the form that
    `count` takes, when counted)."""
    catalog = translations(language)
    # (a count given to words without plural forms is only a number in them: the roles
    # refusal, given count=, showed its bare code in every language)
    if count is None or code not in counted():
        return catalog.gettext(code)
    return catalog.ngettext(code, code, count)


def wrapped(text: str, language: str) -> str:
    """A message's words as said: in the pseudo-language, wrapped so a test sees them."""
    return f"⟦{text}⟧" if language == PSEUDO else text


def in_words(value: Param, language: str) -> Param:
    """A parameter as a message's words hold it: messages and numbers in `language`,
    anything else as it is."""
    if isinstance(value, Text | Joined):
        return render(value, language)
    if isinstance(value, Number):
        return format_decimal(value.value, locale=SOURCE if language == PSEUDO else language,
                              decimal_quantization=False)
    return value


def moment(at: float, language: str) -> str:
    """An instant (seconds since 1970) as a web page of `language` writes it, in UTC:
    `Jan 5, 2026 10:00`, `5 янв. 2026 г. 10:00`, `5 jan 2026 10:00` (Babel's CLDR data)."""
    locale = SOURCE if language == PSEUDO else language
    when = datetime.fromtimestamp(at, UTC)
    return (f"{format_skeleton('yMMMd', when, tzinfo=UTC, locale=locale)} "
            f"{format_skeleton('Hm', when, tzinfo=UTC, locale=locale)}")


def language_of(wanted: str | None, fallback: str) -> str:
    """The language to answer someone in: theirs where we speak it (a Discord locale
    such as `ru` or `en-GB`, a Telegram `language_code`), else `fallback`."""
    if wanted:
        base = wanted.replace("_", "-").split("-")[0].lower()
        if base in LANGUAGES:
            return base
    return fallback
