"""A chat message read as a command: its word looked up in the registry, its arguments
read by that word's parser, `ladder=NAME` taken off first. The one parser every adapter
uses; a word that is no command is answered with the one it most likely meant."""

from __future__ import annotations

import difflib

from core.commands.base import Parsed
from core.commands.registry import SPECS, WORDS, usage
from core.commands.words import MAX_TEXT, Args, Resolver, command_word, ladder_name
from core.domain.errors import UsageError
from core.domain.names import shielded
from core.domain.records import UserRef
from core.i18n import Number, joined, t


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
            ladder = ladder_name(token.split("=", 1)[1])
            if ladder is None:
                raise UsageError(t("parse.ladder_name"))
        else:
            kept.append(token)
    if word == "ladder" and ladder is not None and [t.lower() for t in kept] == ["default"]:
        kept, ladder = [*kept, ladder], None  # said as `/ladder default ladder=NAME`
    spec = WORDS.get(word)
    if spec is None:
        shown = word if len(word) <= 32 else word[:32] + "…"
        guess = _closest_command(word)
        hint = joined(t("parse.did_you_mean", guess=guess) if guess else "",
                      t("parse.lists_open") if word in ("challenges", "pending") else "", sep="")
        # (what was typed, shown as typed: no command to tap, core.domain.names)
        raise UsageError(t("parse.unknown_command", word=shielded(f"/{shown}"), hint=hint))
    args = Args(spec.word, kept, author, resolve, reply_to, usage(spec.word, kept))
    command = spec.parser(args)
    if ladder is not None and command.chat_wide:
        # These name their ladder themselves (or none); ladder= would be silently ignored.
        raise args.error(t("parse.ladder_chat_level"))
    return Parsed(command, ladder)


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
    names = [spec.word for spec in SPECS]  # (not an alias: Telegram's /start)
    begun = [name for name in names if name.startswith(word)]
    if len(word) >= 3 and len(begun) == 1:
        return begun[0]
    close = difflib.get_close_matches(word, names, n=1)
    return close[0] if close else None
