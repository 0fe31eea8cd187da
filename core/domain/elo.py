"""Elo rules of the warlight, fame, duel and dutch rulebooks (RULES.md sections 1-3, 5).

Every function here is pure: ratings in, changes out. All updates of one game are
computed from the same pre-game ratings (RULES.md, common definitions).
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np
import numpy.typing as npt

from core.domain.errors import RatingGapTooLarge
from core.domain.model import PlayerId, Result
from core.domain.settings import RATING_LIMIT, Settings, band_value


def round_half_away(x: float) -> int:
    """Round half away from zero (RULES.md's `round`; never Python's banker's rounding)."""
    a = abs(x)
    whole = math.floor(a)
    # Comparing the remainder avoids the float trap of floor(0.49999999999999994 + 0.5) == 1.
    rounded = whole + 1 if a - whole >= 0.5 else whole
    return int(rounded) if x >= 0 else -int(rounded)


# 10**(gap/400) overflows a float past a gap of about 123,000; at 120,000 (10**300) the
# expected score already equals 0 or 1 to double precision, so wider gaps use it.
SURE_EXPONENT = 300.0


def expected(r_x: float, r_y: float) -> float:
    """Expected score of a player rated r_x against one rated r_y (finite at any gap)."""
    exponent = (r_y - r_x) / 400.0
    if exponent > SURE_EXPONENT:
        exponent = SURE_EXPONENT
    elif exponent < -SURE_EXPONENT:
        exponent = -SURE_EXPONENT
    return 1.0 / (1.0 + math.pow(10.0, exponent))


def scored_pairs(result: Result, ffa: str) -> list[tuple[int, int, float]]:
    """The side pairs a game rates, as (side i, side j, score of i against j).

    Two sides: one pair. More sides: `winner_takes_all` pairs the winner with every
    other side; `placement` pairs everyone, the higher place beating the lower.
    """
    n = len(result.sides)
    if result.draw:
        return [(i, j, 0.5) for i in range(n) for j in range(i + 1, n)]
    if n == 2 or ffa == "winner_takes_all":
        return [(0, j, 1.0) for j in range(1, n)]
    return [(i, j, 1.0) for i in range(n) for j in range(i + 1, n)]


def side_means(result: Result, ratings: Mapping[PlayerId, float]) -> list[float]:
    """Arithmetic mean rating of each side (a player's own rating in a duel)."""
    return [sum(ratings[p] for p in side) / len(side) for side in result.sides]


def largest_gap(result: Result, ratings: Mapping[PlayerId, float]) -> float:
    """The largest rating gap between two sides of the game (by side means)."""
    means = side_means(result, ratings)
    return max(means) - min(means)


def check_gap(settings: Settings, result: Result, ratings: Mapping[PlayerId, float]) -> None:
    """Refuse a rated game whose sides are further apart than `max_gap` allows."""
    if settings.max_gap is None or not result.rated:
        return
    gap = largest_gap(result, ratings)
    if gap > settings.max_gap:
        raise RatingGapTooLarge(gap, settings.max_gap)


def k_for(settings: Settings, rating: float) -> float:
    """K from the player's own rating (dutch's banded K; a single K elsewhere)."""
    return band_value(settings.k, settings.k_bands, rating)


def fame_k(
    settings: Settings, sides: int, rating: float, rated_wins: int, moves: int | None
) -> float:
    """fame's multiplied K: base * k1 (sides) * k2 (experience) * k3 (game length)."""
    k1 = band_value(settings.k1, settings.k1_bands, sides)
    if rated_wins <= settings.newcomer_wins:
        k2 = settings.k2_newcomer
    else:
        k2 = band_value(settings.k2, settings.k2_bands, rating)
    k3 = settings.k3_default if moves is None else band_value(settings.k3, settings.k3_bands, moves)
    return settings.fame_base * k1 * k2 * k3


def no_change(settings: Settings, mean_i: float, mean_j: float, score_i: float) -> bool:
    """dutch's 719 rule: the stronger side won across a gap beyond `no_change_gap`."""
    if settings.no_change_gap is None or score_i not in (0.0, 1.0):
        return False
    if abs(mean_i - mean_j) <= settings.no_change_gap:
        return False
    stronger_won = (mean_i > mean_j) == (score_i == 1.0)
    return stronger_won


def zero_sum_exchange(settings: Settings, r_winner: float, r_loser: float) -> int:
    """Points the winner takes from the loser in the duel rulebook."""
    gain = round_half_away(settings.k * (1.0 - expected(r_winner, r_loser)))
    return max(settings.min_gain, gain)


def zero_sum_draw(settings: Settings, r_a: float, r_b: float) -> int:
    """Points a draw moves from the higher-rated to the lower-rated player (>= 0)."""
    higher, lower = max(r_a, r_b), min(r_a, r_b)
    return round_half_away(settings.k * (expected(higher, lower) - 0.5))


def game_changes(
    settings: Settings,
    result: Result,
    ratings: Mapping[PlayerId, float],
    rated_wins: Mapping[PlayerId, int] | None = None,
) -> dict[PlayerId, float]:
    """Rating change of every participant of one rated game, before any floor.

    `ratings` are the pre-game ratings; `rated_wins` (fame only) counts each player's
    earlier rated wins.
    """
    means = side_means(result, ratings)
    pairs = scored_pairs(result, settings.ffa)
    formula = settings.formula
    changes: dict[PlayerId, float] = {p: 0.0 for p in result.players}

    if formula in ("classic", "zero_sum"):
        side_delta = [0.0] * len(result.sides)
        for i, j, s in pairs:
            if no_change(settings, means[i], means[j], s):
                continue
            if formula == "classic":
                d = settings.k * (s - expected(means[i], means[j]))
            elif s == 0.5:
                moved = zero_sum_draw(settings, means[i], means[j])
                d = -moved if means[i] > means[j] else moved if means[i] < means[j] else 0
            else:
                d = zero_sum_exchange(settings, means[i], means[j])
            side_delta[i] += d
            side_delta[j] -= d
        for side, delta in zip(result.sides, side_delta, strict=True):
            for p in side:
                changes[p] = float(round_half_away(delta)) if (
                    settings.whole and formula == "classic"
                ) else delta
        return changes

    # fame and banded: K belongs to the player, so each player sums its own terms.
    wins = rated_wins or {}
    n_sides = len(result.sides)
    for i, j, s in pairs:
        if no_change(settings, means[i], means[j], s):
            continue
        for side_index, opp_index, score in ((i, j, s), (j, i, 1.0 - s)):
            e = expected(means[side_index], means[opp_index])
            for p in result.sides[side_index]:
                if formula == "fame":
                    k = fame_k(settings, n_sides, ratings[p], wins.get(p, 0), result.moves)
                else:
                    k = k_for(settings, ratings[p])
                changes[p] += k * (score - e)
    return {p: float(round_half_away(d)) for p, d in changes.items()}


def series_factor(n: int) -> float:
    """dutch's series weight f(n) = 2 - 1 / 2**(n-1): 1, 1.5, 1.75, ..."""
    return 2.0 - math.pow(0.5, n - 1)


def series_change(
    settings: Settings, base_self: float, base_opp: float, score_total: float, games: int
) -> int:
    """Change of one player over a whole dutch series, from the pre-series ratings."""
    if no_change(settings, base_self, base_opp, score_total / games):
        return 0
    k = k_for(settings, base_self)
    e = expected(base_self, base_opp)
    return round_half_away(k * series_factor(games) * (score_total / games - e))


def apply_floor(settings: Settings, rating: float, before: float) -> float:
    """A rating moved from `before`, clamped at the ladder's floor, if it has one: no
    change takes it below the floor, nor lower still when it was below already (a floor
    raised since), so a loss never lifts it. Nor does any change take it beyond
    +-RATING_LIMIT: it stops there."""
    floor = settings.floor
    if floor is not None and rating < floor:
        rating = max(rating, min(before, floor))
    if rating > RATING_LIMIT:
        return float(RATING_LIMIT)
    if rating < -RATING_LIMIT:
        return float(-RATING_LIMIT)
    return rating


def decay_amounts(settings: Settings, ratings: npt.NDArray[np.float64]
                  ) -> npt.NDArray[np.float64]:
    """Points one decay day takes from each rating (RULES.md §5): max(decay_min,
    floor(R² / decay_divisor)), at most down to the floor (0 without one), nothing at or
    below it.

    The one copy of the rule: the fold decays every member through it at once, a reply
    or a chart one rating (`decay_amount`), and the stores' one-statement forms (their
    `DECAY`) are pinned to it by tests/integration/test_decay_forms.py.
    """
    bottom = settings.floor if settings.floor is not None else 0.0
    if not settings.decay:
        return np.zeros_like(ratings)
    amount = np.minimum(np.maximum(np.floor(ratings * ratings / settings.decay_divisor),
                                   settings.decay_min), ratings - bottom)
    return np.where(ratings > bottom, amount, 0.0)


def decay_amount(settings: Settings, rating: float) -> float:
    """`decay_amounts` of one rating."""
    return float(decay_amounts(settings, np.array([rating]))[0])
