"""`fame`'s family: pairwise Elo with multipliers by sides, wins and length (RULES.md §2)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from core.model import Match
from core.rulebooks import rated
from core.settings import Settings
from core.standing import Applied

if TYPE_CHECKING:
    from core.state import LadderState


class Fame(rated.EloBook):
    """Every pair of sides as its own game, each change multiplied (`elo.game_changes`)."""

    name = "fame"

    @staticmethod
    def rate(state: LadderState, match: Match, note: str) -> Applied:
        """Pairwise Elo, one-on-one games in their series where the ladder has them."""
        if match.result.is_duel and state.settings.series_hours is not None:
            return rated.series_match(state, match, note)
        return rated.elo_match(state, match, note)

    @staticmethod
    def lean(settings: Settings) -> bool:
        """Never: the multipliers read a player's wins and the game's length."""
        return False


RULEBOOK = Fame()
