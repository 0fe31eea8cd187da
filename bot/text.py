"""Text helpers shared by chat adapters."""

from __future__ import annotations

import re

from core.domain.budget import SECONDS
from core.i18n import Message, Number, t

# What a user is told when a command fails unexpectedly; the traceback goes to the log.
APOLOGY = t("adapter.apology")


def overtime() -> Message:
    """The answer to a command stopped at its time budget (core.domain.budget), rolled back."""
    return t("command.overtime", seconds=Number(SECONDS))


# Explicit direction marks a name may hold (U+202A-U+202E open an embedding or override,
# closed by U+202C; U+2066-U+2068 open an isolate, closed by U+2069).
_EMBEDDINGS, _ISOLATES = "\u202a\u202b\u202d\u202e", "\u2066\u2067\u2068"
_WORD = re.compile(r"\S+")
# What chat clients turn into links: an address with a scheme (both platforms), and on
# Telegram a bare domain too ("evil.com"). A zero-width space after the scheme's colon, or
# before a domain's dot, leaves it looking as typed and not a link.
_SCHEME = re.compile(r"(?i)(?<![\w+.-])([a-z][\w+.-]*:)(?=//)")
_DOMAIN_DOT = re.compile(r"(?<=\w)\.(?=[^\W\d_])")
_URL = re.compile(r"(?i)[a-z][\w+.-]*://\S+")
ZERO_WIDTH = "\u200b"


def contain_bidi(text: str) -> str:
    """Each word that opens a right-to-left override (or any embedding or isolate) closes
    it again at its end, so that a player called "\u202eevil" shows as typed without
    turning the rest of the bot's sentence around."""
    if not any(c in text for c in _EMBEDDINGS + _ISOLATES):
        return text

    def close(word: re.Match[str]) -> str:
        found = word.group()
        embeddings = sum(found.count(c) for c in _EMBEDDINGS) - found.count("\u202c")
        isolates = sum(found.count(c) for c in _ISOLATES) - found.count("\u2069")
        return found + "\u202c" * max(embeddings, 0) + "\u2069" * max(isolates, 0)

    return _WORD.sub(close, text)


def unlink(text: str, own: str | None = None, domains: bool = False) -> str:
    """Text with no address in it a client would make a link of, except the bot's own web
    pages (`own`, the configured address): what players typed, shown as typed. `domains`
    also breaks bare domains, which Telegram links."""
    keep = [m.span() for m in _URL.finditer(text) if own and m.group().startswith(own)]

    def mine(at: int) -> bool:
        return any(start <= at < end for start, end in keep)

    text_out = []
    last = 0
    marks = [m.end(1) for m in _SCHEME.finditer(text)]
    if domains:
        marks += [m.start() for m in _DOMAIN_DOT.finditer(text)]
    for at in sorted(set(marks)):
        if not mine(at):
            text_out.append(text[last:at] + ZERO_WIDTH)
            last = at
    return "".join(text_out) + text[last:]


def cut(text: str, limit: int) -> str:
    """A text cut to `limit` characters at a space, with an ellipsis (for a platform's
    short fields, such as Telegram's 200-character button alerts)."""
    if len(text) <= limit:
        return text
    room = text.rfind(" ", 0, limit)
    return text[:room if room > 0 else limit - 1].rstrip() + "…"


def split_text(text: str, limit: int) -> list[str]:
    """Cut a long reply at line breaks into messages a platform accepts; a line longer
    than a message is cut after its last ", " that fits (between the entries of a list,
    never inside a name), else at its last space (never inside a word or an escape,
    unless one word alone is longer than a message)."""
    parts: list[str] = []
    current = ""
    for line in text.splitlines():
        while len(line) > limit:
            # A long line is mostly a list ("1. a b, 2. c d, ..."): cut between its
            # entries, where names may hold spaces, else at a space.
            cut = line.rfind(", ", limit // 2, limit)
            cut = cut + 1 if cut > 0 else line.rfind(" ", 0, limit + 1)
            cut = cut if cut > 0 else limit
            parts.append(line[:cut])
            line = line[cut:].lstrip(" ")
        if current and len(current) + 1 + len(line) > limit:
            parts.append(current)
            current = line
        else:
            current = f"{current}\n{line}" if current else line
    if current or not parts:
        parts.append(current)
    return parts


def fitted(text: str, limit: int) -> str:
    """A text as one message: whole, or its first lines that fit with a last line "…"
    (the top of a table too long for one message)."""
    if len(text) <= limit:
        return text
    return split_text(text, limit - 2)[0] + "\n…"
