"""What people typed, made safe to show on any platform: names and reasons are shown as
typed, never as a mention, a command, a tag or a pill.

Telegram makes entities of `@username`, `/command@bot`, `#tag` and `$TAG` in plain text
(a player named "@victim_user" pinged that account in every reply naming him, and one
named "/leave@LadderBot" was a tap-to-leave button); Discord renders `<@id>`, `<@&id>`,
`<#id>`, `<t:...>` and `</cmd:id>` as pills and timestamps. A zero-width space after the
sign leaves the text looking as typed and makes it none of these. It is put in where
the text enters: names by the adapters (`shown_name`), reasons by the core (`shielded`).
"""

from __future__ import annotations

import re
import unicodedata

ZERO_WIDTH = "\u200b"
# A sign that starts an entity, followed by what the entity needs next.
# (a sign starts one only at the start of a word: "a@b" and "x/y" are no mention, no
# command; Discord's pills are `<` then exactly their own forms)
_SIGNS = re.compile(r"(?<![\w/<>@#$])[@/#$](?=\w)"
                    r"|<(?=@[!&]?\d|#\d|t:-?\d|/[\w -]+:\d|a?:\w+:\d)")
# Characters no one sees (format characters: zero-width spaces and joiners, direction
# marks, the BOM...), which made two names look one; the joiner inside emoji stays.
_INVISIBLE = frozenset({"Cf"})
_KEPT = frozenset({"\u200d"})  # (the zero-width joiner of 👨‍👩‍👧 and other emoji sequences)


def shielded(text: str) -> str:
    """`text` with a zero-width space after each sign that would start an entity."""
    return _SIGNS.sub(lambda sign: sign.group() + ZERO_WIDTH, text.replace(ZERO_WIDTH, ""))


def shown_name(name: str) -> str:
    """A platform's display name as the bot shows it: in NFC, without invisible
    characters (but the emoji joiner), shielded."""
    visible = "".join(c for c in unicodedata.normalize("NFC", name)
                      if unicodedata.category(c) not in _INVISIBLE or c in _KEPT)
    return shielded(visible.strip() or name.strip() or "?")
