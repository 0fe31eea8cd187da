"""Domain errors: refusals a user can read, each saying what to do instead.

The reason is a message (`core.i18n`), said in the reader's language where the reply
leaves the core; nothing here is a stack trace.
"""

from __future__ import annotations

from core.i18n import Message, t


class LadderError(Exception):
    """A command was refused for a reason the user can fix or understand."""

    def __init__(self, reason: Message) -> None:
        super().__init__(reason)
        self.reason = reason

    def __str__(self) -> str:
        """The reason in English (logs, and what still reads it as text)."""
        return str(self.reason)


class UsageError(LadderError):
    """The command was malformed; the reason includes its usage line. `stray` is the
    word it did not expect, when that was the trouble."""

    def __init__(self, reason: Message, stray: str = "") -> None:
        super().__init__(reason)
        self.stray = stray


class Ambiguous(UsageError):
    """More than one ladder of the chat fits a command given without `ladder=`: the
    command's `word` and the `ladders` to choose from (adapters may offer buttons)."""

    def __init__(self, reason: Message, word: str, ladders: tuple[str, ...]) -> None:
        super().__init__(reason)
        self.word, self.ladders = word, ladders


class NotAllowed(LadderError):
    """The user may not do this (not a moderator, not a participant)."""


class UnknownPlayer(LadderError):
    """A named user is not a member of the ladder."""


class NoLadder(LadderError):
    """The chat has no ladder (or none of that name)."""


class SettingError(LadderError):
    """A ladder setting has an unknown key or a value out of range."""


class RatingGapTooLarge(LadderError):
    """A rated game between players too far apart (fame's 1000-point rule)."""

    def __init__(self, gap: float, limit: float) -> None:
        super().__init__(t("report.gap", gap=round(gap), limit=round(limit)))
        self.gap = gap
        self.limit = limit


class RuleViolation(LadderError):
    """The ladder's rules forbid this (an invalid decline, a team game in a duel ladder)."""


class Duplicate(LadderError):
    """The same game or command was already recorded."""
