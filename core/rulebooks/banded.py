"""`dutch`'s family: banded K, daily decay and series of one pair's games (RULES.md §5)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from core.model import Match
from core.rulebooks import rated
from core.settings import Settings
from core.standing import Applied

if TYPE_CHECKING:
    from core.state import LadderState


class Banded(rated.EloBook):
    """Elo with K by rating band; a pair's games within `series_hours` rated as one."""

    name = "banded"

    @staticmethod
    def rate(state: LadderState, match: Match, note: str) -> Applied:
        """Banded Elo, one-on-one games in their series where the ladder has them."""
        if match.result.is_duel and state.settings.series_hours is not None:
            return rated.series_match(state, match, note)
        return rated.elo_match(state, match, note)

    @staticmethod
    def lean(settings: Settings) -> bool:
        """Never: the K of a band is not the fast path's."""
        return False


RULEBOOK = Banded()
