"""Every command word once: the families' words (core.commands.ladders, .reports, ...) in
the order /help lists them. `/help`, the text parser and Telegram's menus read it; the
service's bus (core.service.bus) says what runs each command.
"""

from __future__ import annotations

from collections.abc import Sequence

from core.commands import (
    accounts,
    challenges,
    claims,
    h2h,
    help,
    ladders,
    membership,
    moderation,
    queue,
    reports,
    tournaments,
    views,
)
from core.commands.base import Command, Spec
from core.commands.ladders import Unshare
from core.domain.errors import UsageError
from core.i18n import Message, Text, joined, t

# The order /help lists the words in (and Telegram's menus).
ORDER = ("ladder", "join", "leave", "challenge", "accept", "decline", "available",
         "unavailable", "report", "confirm", "dispute", "withdraw", "standings", "profile",
         "history", "players", "suggest", "queue", "ready", "tournament", "h2h", "halloffame",
         "claim", "mod", "link", "unlink", "help")
_ALL = {spec.word: spec for family in (ladders, membership, challenges, reports, views, queue,
                                       tournaments, h2h, claims, moderation, accounts, help)
        for spec in family.WORDS}
SPECS: tuple[Spec, ...] = tuple(_ALL[word] for word in ORDER)

# Derived: the word (or alias) typed, the usage lines, the words a private chat takes.
WORDS: dict[str, Spec] = {w: spec for spec in SPECS for w in (spec.word, *spec.aliases)}
USAGE: dict[str, str] = {spec.word: " | ".join(spec.usage) for spec in SPECS}
READ_ONLY_WORDS: tuple[str, ...] = tuple(w for spec in SPECS if spec.reads
                                         for w in (spec.word, *spec.aliases))
PERSONAL_WORDS: tuple[str, ...] = tuple(spec.word for spec in SPECS if spec.personal)
# The words that make a moderator's command: an adapter asks the platform who moderates
# (Telegram's chat administrators, a call) for these alone.
MODERATED_WORDS: tuple[str, ...] = tuple(w for spec in SPECS
                                         if any(kind.moderator for kind in spec.kinds)
                                         for w in (spec.word, *spec.aliases))
# The word that makes a command (the first, where two words make one)
WORD_OF: dict[type[Command], str] = {kind: spec.word for spec in reversed(SPECS)
                                     for kind in spec.kinds}
KINDS: tuple[type[Command], ...] = tuple(dict.fromkeys(k for spec in SPECS for k in spec.kinds))
# The commands whose reply is no news for the other chats of a shared ladder: those that
# only answer their asker, and /ladder unshare (it tells them itself). The rest is.
NOT_NEWS: frozenset[type[Command]] = frozenset(
    [kind for spec in SPECS if spec.reads for kind in spec.kinds if not kind.moderator]
    + [Unshare])


def usage(word: str, said: Sequence[str] = ()) -> Text:
    """The usage line of a command word (its words stay as they are in every language):
    of its forms, those the words `said` after it begin, where they begin any (a mistyped
    `/mod adjust` is shown its own form, not all of /mod's)."""
    spec = WORDS.get(word, WORDS["help"])
    first = said[0].lower() if said else None
    begun = [form for form in spec.usage if first in _after_word(form)]
    return t("usage.line", line=" | ".join(begun) if begun else USAGE[spec.word])


def _after_word(form: str) -> list[str]:
    """The words a usage form takes right after its command word (`/report win|loss|draw
    @user ...`: win, loss and draw; `/join`: none)."""
    words = form.split()
    return words[1].split("|") if len(words) > 1 else []


def usage_error(word: str, problem: Message, stray: str = "") -> UsageError:
    """A malformed command: the problem, then the command's usage line."""
    return UsageError(joined(problem, usage(word), sep="\n"), stray)
