"""`duel`'s family: zero-sum Elo with a minimum gain and a floor (RULES.md §3)."""

from __future__ import annotations

from core.domain.rulebooks import rated
from core.domain.settings import Settings
from core.i18n import N_


class ZeroSum(rated.EloBook):
    """What one player gains, the other loses (above the floor)."""

    name = "zero_sum"
    title = N_("summary.zero_sum_elo")
    rate = staticmethod(rated.duel_or_elo)
    lean = staticmethod(rated.lean)

    @staticmethod
    def whole_points(settings: Settings) -> bool:
        """Always whole exchanges: from a whole start (and floor) ratings stay whole."""
        return rated.whole_start(settings)


RULEBOOK = ZeroSum()
