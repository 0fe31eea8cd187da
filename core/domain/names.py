"""What people typed, made safe to show on any platform: names and reasons are shown as
typed, never as a mention, a command, a tag or a pill.

Telegram makes entities of `@username`, `/command@bot`, `#tag` and `$TAG` in plain text
(a player named "@victim_user" pinged that account in every reply naming him, and one
named "/leave@LadderBot" was a tap-to-leave button); Discord renders `<@id>`, `<@&id>`,
`<#id>`, `<t:...>` and `</cmd:id>` as pills and timestamps. A zero-width space after the
sign leaves the text looking as typed and makes it none of these. It is put in where
the text enters: names by the adapters (`shown_name`), reasons by the core (`shielded`).

Two names that look alike (one with a zero-width space, or a Cyrillic "а" for a Latin
"a") are told apart on a ladder: the later one is shown as "alice (2)" (`distinct`), by
what each name looks like (`look`), from Unicode's confusable characters (UTS #39, as the
confusable_homoglyphs package keeps them).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from functools import lru_cache

from confusable_homoglyphs.confusables import confusables_data

ZERO_WIDTH = "\u200b"
# A sign that starts an entity, followed by what the entity needs next.
# (a sign starts one only at the start of a word: "a@b" and "x/y" are no mention, no
# command; Discord's pills are `<` then exactly their own forms; a mention may follow ">")
_SIGNS = re.compile(r"(?<![\w/<>@#$])[@/#$](?=\w)"
                    r"|(?<=>)@(?=\w)"  # (Telegram reads "<b>@name" as a mention)
                    r"|<(?=@[!&]?\d|#\d|t:-?\d|/[\w -]+:\d|a?:\w+:\d)")
# Characters no one sees (format characters: zero-width spaces and joiners, direction
# marks, the BOM...), which made two names look one.
_INVISIBLE = frozenset({"Cf"})


def shielded(text: str) -> str:
    """`text` with a zero-width space after each sign that would start an entity."""
    return _SIGNS.sub(lambda sign: sign.group() + ZERO_WIDTH, text.replace(ZERO_WIDTH, ""))


def shown_name(name: str) -> str:
    """A platform's display name as the bot shows it: in NFC, shielded (invisible
    characters stay as typed: `look` sets them aside, and `distinct` tells such a name
    apart from the one it would pass for)."""
    return shielded(unicodedata.normalize("NFC", name).strip() or "?")


@lru_cache(maxsize=65536)
def _prototype(char: str) -> str:
    """The character a class of lookalikes is written as: the lowest of the class."""
    found = confusables_data.get(char)
    if not found:
        return char
    return str(min([char, *(lookalike["c"] for lookalike in found)]))


@lru_cache(maxsize=16384)
def look(name: str) -> str:
    """What a name looks like: compatibility forms, case, invisible characters and
    lookalike letters set aside ("Аlice", with a Cyrillic A, looks like "alice")."""
    plain = "".join(c for c in unicodedata.normalize("NFKC", name)
                    if unicodedata.category(c) not in _INVISIBLE).casefold()
    return "".join(_prototype(c) for c in plain)


def distinct(name: str, taken: Callable[[str], bool]) -> str:
    """`name`, or the first of "name (2)", "name (3)"... that does not look like a name
    `taken` already."""
    shown, n = name, 1
    while taken(look(shown)):
        n += 1
        shown = f"{name} ({n})"
    return shown


def given(shown: str, name: str) -> bool:
    """Whether a player shown as `shown` is named `name` (told apart or not)."""
    return shown == name or (shown.startswith(f"{name} (") and shown.endswith(")")
                             and shown[len(name) + 2:-1].isdigit())
