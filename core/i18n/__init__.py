"""What the bot says, in its reader's language.

A message is a code with parameters (`Text`, made by `t`), never prose: the core builds
them, the database stores them, and `render` turns one into words once, at the edge, in
the language of whoever reads it. The words live in gettext catalogs beside this module
(`locale/<language>/LC_MESSAGES/ladderbot.po`), read with Babel: English is a catalog
like the others, so a message's code is all the code holds.
"""

from __future__ import annotations

from dataclasses import dataclass

from core.i18n.catalogs import LANGUAGES, PSEUDO, translations

__all__ = ["LANGUAGES", "N_", "PSEUDO", "Joined", "Message", "Param", "Text", "joined",
           "language_of", "render", "t"]


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


# What a reply holds: a message, messages joined, or words as they are (a user's own).
Message = str | Text | Joined
# A message's parameter: a number, a message, or words as they are.
Param = str | int | float | Text | Joined


def joined(*parts: Message, sep: str = " ") -> Joined:
    """`parts` said one after the other, `sep` between them (empty parts left out)."""
    return Joined(tuple(p for p in parts if p != ""), sep)


def N_(code: str) -> str:
    """A message code named ahead of its use (`t(code, ...)` later): marked, so the
    catalogs' check finds it like every `t("code")`."""
    return code


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
    words = translations(language)
    if value.count is None:
        pattern = words.gettext(value.code)
    else:
        pattern = words.ngettext(value.code, value.code, value.count)
    params = {name: render(v, language) if isinstance(v, Text | Joined) else v
              for name, v in value.params}
    if value.count is not None:
        params.setdefault("count", value.count)
    text = pattern.format_map(params)
    return f"⟦{text}⟧" if language == PSEUDO else text


def language_of(wanted: str | None, fallback: str) -> str:
    """The language to answer someone in: theirs where we speak it (a Discord locale
    such as `ru` or `en-GB`, a Telegram `language_code`), else `fallback`."""
    if wanted:
        base = wanted.replace("_", "-").split("-")[0].lower()
        if base in LANGUAGES:
            return base
    return fallback
