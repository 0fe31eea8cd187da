"""`fame`'s family: pairwise Elo with multipliers by sides, wins and length (RULES.md §2)."""

from __future__ import annotations

from core.domain.rulebooks import rated
from core.domain.settings import Settings
from core.i18n import N_, Message, t


class Fame(rated.EloBook):
    """Every pair of sides as its own game, each change multiplied (`elo.game_changes`)."""

    name = "fame"
    title = N_("summary.pairwise_elo")

    @staticmethod
    def k_text(settings: Settings) -> Message:
        """The multipliers in place of one K."""
        return t("summary.fame_k")
    rate = staticmethod(rated.series_or_elo)
    lean = staticmethod(rated.never_lean)


RULEBOOK = Fame()
