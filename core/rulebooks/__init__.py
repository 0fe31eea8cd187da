"""The rating systems, one module per family behind one protocol, chosen once from the
settings: the fold (`core.state`) asks its ladder's rulebook to rate each match.

A new rating system is a module here and a preset, not a flag tested across the core.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from core.model import Match
from core.settings import Settings
from core.standing import Applied

if TYPE_CHECKING:
    from core.state import LadderState


class Rulebook(Protocol):
    """How one family of rules rates a confirmed match."""

    name: str

    def rate(self, state: LadderState, match: Match, note: str) -> Applied:
        """Fold a counted match into `state`: rated, or unrated for `note` ('' if not)."""
        ...

    def lean(self, settings: Settings) -> bool:
        """Whether plain one-on-one matches may be folded by `LadderState.apply_duel`
        (the fast replay of long logs) under these settings."""
        ...


# (Below the protocol: each family's module reads it from here.)
from core.rulebooks import banded, classic, fame, position, zero_sum  # noqa: E402

BY_FORMULA: dict[str, Rulebook] = {
    "classic": classic.RULEBOOK, "zero_sum": zero_sum.RULEBOOK, "fame": fame.RULEBOOK,
    "banded": banded.RULEBOOK}


def choose(settings: Settings) -> Rulebook:
    """The rulebook of a ladder's settings."""
    return position.RULEBOOK if settings.is_position else BY_FORMULA[settings.formula]
