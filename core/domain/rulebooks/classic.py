"""`warlight`'s family: classic Elo, free-for-alls and teams (RULES.md §1)."""

from __future__ import annotations

from core.domain.rulebooks import rated
from core.domain.settings import Settings
from core.i18n import N_


class Classic(rated.EloBook):
    """Classic Elo: K·(S − E) for each side."""

    name = "classic"
    title = N_("summary.classic_elo")
    rate = staticmethod(rated.duel_or_elo)
    lean = staticmethod(rated.lean)

    @staticmethod
    def whole_points(settings: Settings) -> bool:
        """With whole ratings from a whole start (and floor)."""
        return settings.whole and rated.whole_start(settings)


RULEBOOK = Classic()
