"""`duel`'s family: zero-sum Elo with a minimum gain and a floor (RULES.md §3)."""

from __future__ import annotations

from core.rulebooks import rated


class ZeroSum(rated.EloBook):
    """What one player gains, the other loses (above the floor)."""

    name = "zero_sum"
    rate = staticmethod(rated.duel_or_elo)
    lean = staticmethod(rated.lean)


RULEBOOK = ZeroSum()
