"""`warlight`'s family: classic Elo, free-for-alls and teams (RULES.md §1)."""

from __future__ import annotations

from core.rulebooks import rated


class Classic(rated.EloBook):
    """Classic Elo: K·(S − E) for each side."""

    name = "classic"
    rate = staticmethod(rated.duel_or_elo)
    lean = staticmethod(rated.lean)


RULEBOOK = Classic()
