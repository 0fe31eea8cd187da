"""Which games a ladder rates by their shape: sides, teams and the rulebook's own limits.
One copy, for `/report` (core/service/handlers/reporting.py) and for a queue's matches
(core/domain/setting_keys.py)."""

from __future__ import annotations

from core.domain.model import Result
from core.domain.rulebooks import choose
from core.domain.settings import Settings
from core.i18n import Message, t


def shape_refusal(settings: Settings, result: Result, ladder: str) -> Message | None:
    """Why the ladder `ladder` does not rate a game of this shape (None: it does)."""
    refusal = choose(settings).refusal(settings, result)
    if refusal is not None:
        return t("shape.refused", ladder=ladder, why=refusal)
    if (settings.is_position or settings.max_sides == 2) and not result.is_duel:
        return t("shape.duels_only", ladder=ladder)
    if result.is_team_game and not settings.teams:
        return t("shape.no_teams", ladder=ladder)
    if settings.max_sides is not None and len(result.sides) > settings.max_sides:
        return t("shape.max_sides", count=settings.max_sides, ladder=ladder)
    return None
