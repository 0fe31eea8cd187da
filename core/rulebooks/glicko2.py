"""Glicko-2 (Glickman, "Example of the Glicko-2 system", 2013): a rating, its deviation
(RD) and its volatility, updated once per rating period from the period's games.

Pure arithmetic on frozen values; the rulebook decides what a period is (one game, a
day, a week) and when idle periods grow a player's RD.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

SCALE = 173.7178  # Glicko-2's scale: 400 / ln(10)
CENTRE = 1500.0  # the rating Glicko-2's scale is centred on (not a setting: the maths')
EPSILON = 0.000001  # convergence of the volatility iteration (RULES.md §6)


@dataclass(frozen=True, slots=True)
class Glicko:
    """A player's Glicko-2 values on the Glicko scale (rating ~1500, RD ~350)."""

    rating: float
    rd: float
    volatility: float


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, g_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-g_j * (mu - mu_j)))


def rate(player: Glicko, games: Sequence[tuple[Glicko, float]], tau: float,
         max_rd: float) -> Glicko:
    """The player's values after one rating period of `games` (opponent before the
    period, score 1 / 0.5 / 0): Glickman's steps 2-8. An empty period only grows the RD
    (`idle`). The RD never exceeds `max_rd` (the start RD)."""
    if not games:
        return idle(player, 1, max_rd)
    mu, phi = (player.rating - CENTRE) / SCALE, player.rd / SCALE
    inverse_v, impact = 0.0, 0.0
    for opponent, score in games:
        g_j = _g(opponent.rd / SCALE)
        e_j = _expected(mu, (opponent.rating - CENTRE) / SCALE, g_j)
        inverse_v += g_j * g_j * e_j * (1.0 - e_j)
        impact += g_j * (score - e_j)
    v = 1.0 / inverse_v
    sigma = _volatility(phi, player.volatility, v * impact, v, tau)
    phi_star = math.sqrt(phi * phi + sigma * sigma)
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu_new = mu + phi_new * phi_new * impact
    return Glicko(SCALE * mu_new + CENTRE, min(SCALE * phi_new, max_rd), sigma)


def idle(player: Glicko, periods: int, max_rd: float) -> Glicko:
    """The player after `periods` rating periods without a game: φ' = sqrt(φ² + n·σ²),
    capped at `max_rd`."""
    if periods <= 0:
        return player
    phi = player.rd / SCALE
    grown = SCALE * math.sqrt(phi * phi + periods * player.volatility ** 2)
    return Glicko(player.rating, min(grown, max_rd), player.volatility)


def _volatility(phi: float, sigma: float, delta: float, v: float, tau: float) -> float:
    """Step 5: the new volatility, by the Illinois algorithm Glickman gives."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return (ex * (delta * delta - phi * phi - v - ex)
                / (2.0 * (phi * phi + v + ex) ** 2) - (x - a) / (tau * tau))

    low = a
    if delta * delta > phi * phi + v:
        high = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        high = a - k * tau
    f_low, f_high = f(low), f(high)
    while abs(high - low) > EPSILON:
        c = low + (low - high) * f_low / (f_high - f_low)
        f_c = f(c)
        if f_c * f_high <= 0:
            low, f_low = high, f_high
        else:
            f_low /= 2.0
        high, f_high = c, f_c
    return math.exp(low / 2.0)
