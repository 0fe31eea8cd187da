"""Checks every command passes however it was given: parsed from text, or built from a
platform's typed options (Discord's), which skip the parser. One copy of each limit."""

from __future__ import annotations

from core.commands import AdjustRating, Command
from core.errors import UsageError
from core.i18n import Number, t
from core.words import MAX_ADJUST, MAX_REASON


def check(command: Command) -> None:
    """Refuse a command beyond the limits the parser keeps (a reason's length, an
    adjustment's size), with what to do instead."""
    reason = getattr(command, "reason", None)
    if isinstance(reason, str) and len(reason) > MAX_REASON:
        raise UsageError(t("check.reason_long", max=MAX_REASON, length=Number(len(reason))))
    if isinstance(command, AdjustRating) and not 0 < abs(command.amount) <= MAX_ADJUST:
        raise UsageError(t("check.adjust", max=Number(MAX_ADJUST)))
