"""Which games a ladder rates by their shape: sides, teams and the rulebook's own limits.
One copy, for `/report` (core/service/handlers/reporting.py) and for a queue's matches
(core/domain/setting_keys.py)."""

from __future__ import annotations

from core.domain.bestof import score_refusal
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


def played_refusal(settings: Settings, result: Result, ladder: str,
                   no_margin: str) -> Message | None:
    """Why the ladder `ladder` could not rate this game already played under `settings`
    (an import's, or its history's under another rulebook; None: it could): its shape,
    its score, or a margin its rulebook needs and it has not (said by `no_margin`)."""
    refusal = shape_refusal(settings, result, ladder) or score_refusal(settings, result)
    if refusal is None and choose(settings).needs_margin(settings, result):
        return t(no_margin, ladder=ladder)
    return refusal
