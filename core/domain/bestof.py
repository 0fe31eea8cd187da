"""Matches of several games (RULES.md, "Best-of-N matches"): the scores a ladder with
`bestof=N` accepts, and what such a match counts as where `bestof_rating=games` rates
its games as a series."""

from __future__ import annotations

from core.domain.model import Result
from core.domain.settings import Settings
from core.i18n import Message, t


def score_text(score: tuple[int, int]) -> str:
    """`2-1`, the winner's games first (the same in every language)."""
    return f"{score[0]}-{score[1]}"


def score_refusal(settings: Settings, result: Result) -> Message | None:
    """Why the ladder refuses this result's score (None: it takes it). With `bestof=N`
    a match must be decided: the winner has (N+1)/2 games, the loser fewer."""
    n = settings.bestof
    if n is None:
        return None
    wins = (n + 1) // 2
    if result.score is None:
        return t("bestof.needed", n=n, example=score_text((wins, wins - 1)))
    won, lost = result.score
    if result.draw or won != wins or lost >= wins:
        return t("bestof.undecided", n=n, score=score_text(result.score), wins=wins,
                 most=wins - 1)
    return None


def by_games(settings: Settings, result: Result) -> bool:
    """Whether this result is rated game by game, as a series (`bestof_rating=games`)."""
    return result.score is not None and settings.bestof_rating == "games" and result.is_duel


def games_won(result: Result, games_mode: bool) -> tuple[int, float]:
    """(games, score of sides[0]) the result adds to a series: each game of a match of
    several where the ladder rates its games, else the one result (a draw half each)."""
    if games_mode and result.score is not None:
        return sum(result.score), float(result.score[0])
    return 1, 0.5 if result.draw else 1.0
