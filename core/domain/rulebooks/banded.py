"""`dutch`'s family: banded K, daily decay and series of one pair's games (RULES.md §5)."""

from __future__ import annotations

from core.domain.rulebooks import rated


class Banded(rated.EloBook):
    """Elo with K by rating band; a pair's games within `series_hours` rated as one."""

    name = "banded"
    rate = staticmethod(rated.series_or_elo)
    lean = staticmethod(rated.never_lean)


RULEBOOK = Banded()
