"""Glickman's Glicko-2 arithmetic ("Example of the Glicko-2 system", 2013, steps 2-8)
over arrays: many players' rating periods at once.

Every path rates with numpy's `exp` and `log`: they need not round as `math`'s do (on
AVX-512 they differ in the last bit for a few values in a hundred), but they compute
each element alike whatever the array's length, so a game folded in a batch of
thousands and the same game rated alone come out the same to the bit. One game alone
is rated by `one_game`, the same steps on plain floats (numpy costs some 200 µs a call
on arrays of two, ten times the arithmetic): tests/integration/test_rulebook_folds.py pins the two
forms to each other, bit for bit.
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt

from core.domain.settings import TAU_LOWEST, Settings

Values = npt.NDArray[np.float64]
Indices = npt.NDArray[np.int64]

SCALE = 173.7178  # Glicko-2's scale: 400 / ln(10)
CENTRE = 1500.0  # the rating Glicko-2's scale is centred on (not a setting: the maths')
EPSILON = 0.000001  # convergence of the volatility iteration (RULES.md §6)
# Every iteration is bounded (issue 47: with tau=1e-30, a - k*tau == a in floats, and the
# bracketing loop never ended, holding the database thread). Within the settings' ranges
# the bracket is found in a few steps and the Illinois iteration converges in under 30;
# past these bounds a lane keeps the best value it reached.
BRACKET_STEPS = 1000
ILLINOIS_STEPS = 200
_PI2 = math.pi * math.pi
# The expected score's exponent g·(μ − μj) is kept within ±EXPONENT_LIMIT. Beyond 36.7
# the expected score rounds to exactly 1 (or its complement to 0), and then 1/v is a
# division by zero; ratings may lie up to 2,000,000 apart (RATING_LIMIT), some 11,500 in
# exponent. Within the limit nothing changes; beyond it a game is rated as between players
# about 6,000 points apart (E = 1 − 2·10⁻¹⁶), which is as sure as a float can say.
EXPONENT_LIMIT = 36.0


def grown(rd: Values, volatility: Values, periods: Values, max_rd: float) -> Values:
    """The RD after `periods` rating periods without a game: φ' = sqrt(φ² + n·σ²),
    capped at `max_rd`; unchanged where `periods` is 0."""
    phi = rd / SCALE
    wider = np.minimum(SCALE * np.sqrt(phi * phi + periods * volatility * volatility), max_rd)
    return np.where(periods > 0, wider, rd)


def period(rating: Values, rd: Values, volatility: Values, owner: Indices,
           opponent: Values, opponent_rd: Values, score: Values, tau: float,
           max_rd: float) -> tuple[Values, Values, Values]:
    """(rating, RD, volatility) of players after a rating period in which each played
    at least one game: game j was player `owner[j]`'s, against an opponent of rating
    `opponent[j]` and RD `opponent_rd[j]` before the period, scored 1 / 0.5 / 0."""
    mu, phi = (rating - CENTRE) / SCALE, rd / SCALE
    opponent_phi = opponent_rd / SCALE
    g = 1.0 / np.sqrt(1.0 + 3.0 * opponent_phi * opponent_phi / _PI2)
    z = np.clip(g * (mu[owner] - (opponent - CENTRE) / SCALE), -EXPONENT_LIMIT, EXPONENT_LIMIT)
    e = 1.0 / (1.0 + np.exp(-z))
    # (bincount adds each player's games in order, from 0.0)
    inverse_v = np.bincount(owner, g * g * e * (1.0 - e), minlength=len(rating))
    impact = np.bincount(owner, g * (score - e), minlength=len(rating))
    v = 1.0 / inverse_v
    sigma = _volatility(phi, volatility, v * impact, v, tau)
    phi_star = np.sqrt(phi * phi + sigma * sigma)
    phi_new = 1.0 / np.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu_new = mu + phi_new * phi_new * impact
    return SCALE * mu_new + CENTRE, np.minimum(SCALE * phi_new, max_rd), sigma


def _volatility(phi: Values, sigma: Values, delta: Values, v: Values,
                tau: float) -> Values:
    """Step 5, the new volatility by the Illinois algorithm Glickman gives, every lane
    iterated until it converges (a converged lane keeps its values)."""
    tau = max(tau, TAU_LOWEST)
    a = np.log(sigma * sigma)
    phi2, d2 = phi * phi, delta * delta

    def f(x: Values) -> Values:
        ex = np.exp(x)
        spread = phi2 + v + ex
        return (ex * (d2 - phi2 - v - ex) / (2.0 * (spread * spread))
                - (x - a) / (tau * tau))

    with np.errstate(all="ignore"):  # lanes already done compute what nobody keeps
        wide = d2 > phi2 + v
        k = np.ones_like(a)
        stepping = ~wide
        for _ in range(BRACKET_STEPS):
            stepping &= f(a - k * tau) < 0
            if not stepping.any():
                break
            k += stepping
        low = a
        high = np.where(wide, np.log(np.where(wide, d2 - phi2 - v, 1.0)), a - k * tau)
        f_low, f_high = f(low), f(high)
        active = np.abs(high - low) > EPSILON
        for _ in range(ILLINOIS_STEPS):
            if not active.any():
                break
            c = low + (low - high) * f_low / (f_high - f_low)
            f_c = f(c)
            across = f_c * f_high <= 0
            low, f_low = (np.where(active & across, high, low),
                          np.where(active, np.where(across, f_high, f_low / 2.0), f_low))
            high, f_high = np.where(active, c, high), np.where(active, f_c, f_high)
            active &= np.abs(high - low) > EPSILON
    return np.exp(low / 2.0)


# ------------------------------------------------------------------ one game alone
# The steps above on plain floats, operation for operation, for one game of two players
# (`period` with one game each, `grown` before it): +, -, *, / and sqrt round alike
# everywhere; exp and log are numpy's, as above.


def _exp(x: float) -> float:
    return float(np.exp(x))


def grown_one(rd: float, volatility: float, periods: float, max_rd: float) -> float:
    """`grown` of one player."""
    if not periods > 0:
        return rd
    phi = rd / SCALE
    return min(SCALE * math.sqrt(phi * phi + periods * volatility * volatility), max_rd)


def one_game(player: tuple[float, float, float], opponent: tuple[float, float],
             score: float, tau: float, max_rd: float) -> tuple[float, float, float]:
    """`period` of one player and one game: (rating, RD, volatility) after it, from the
    player's (rating, RD, volatility) and the opponent's (rating, RD) before it."""
    rating, rd, volatility = player
    mu, phi = (rating - CENTRE) / SCALE, rd / SCALE
    opponent_phi = opponent[1] / SCALE
    g = 1.0 / math.sqrt(1.0 + 3.0 * opponent_phi * opponent_phi / _PI2)
    z = min(max(g * (mu - (opponent[0] - CENTRE) / SCALE), -EXPONENT_LIMIT), EXPONENT_LIMIT)
    e = 1.0 / (1.0 + _exp(-z))
    inverse_v = 0.0 + g * g * e * (1.0 - e)  # (as bincount adds, from 0.0)
    impact = 0.0 + g * (score - e)
    v = 1.0 / inverse_v
    sigma = _volatility_one(phi, volatility, v * impact, v, tau)
    phi_star = math.sqrt(phi * phi + sigma * sigma)
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu_new = mu + phi_new * phi_new * impact
    return SCALE * mu_new + CENTRE, min(SCALE * phi_new, max_rd), sigma


def _volatility_one(phi: float, sigma: float, delta: float, v: float, tau: float) -> float:
    """`_volatility` of one player."""
    tau = max(tau, TAU_LOWEST)
    a = float(np.log(sigma * sigma))
    phi2, d2 = phi * phi, delta * delta

    def f(x: float) -> float:
        ex = _exp(x)
        spread = phi2 + v + ex
        return ex * (d2 - phi2 - v - ex) / (2.0 * (spread * spread)) - (x - a) / (tau * tau)

    if d2 > phi2 + v:
        high = float(np.log(d2 - phi2 - v))
    else:
        k = 1.0
        for _ in range(BRACKET_STEPS):
            if not f(a - k * tau) < 0:
                break
            k += 1.0
        high = a - k * tau
    low = a
    f_low, f_high = f(low), f(high)
    for _ in range(ILLINOIS_STEPS):
        if not abs(high - low) > EPSILON:
            break
        c = low + (low - high) * f_low / (f_high - f_low)
        f_c = f(c)
        if f_c * f_high <= 0:
            low, f_low = high, f_high
        else:
            f_low /= 2.0
        high, f_high = c, f_c
    return _exp(low / 2.0)


# A player's `extra`: (RD, volatility, local day number of their last rated game, or
# NEVER before their first).
NEVER = -1.0
# What a game of a rating period says until the period closes.
WAITING = "rated when the rating period closes"


def games(rating: Values, rd: Values, volatility: Values, last: Values, day: Values,
          score: Values, settings: Settings) -> tuple[Values, Values, Values]:
    """Games each a rating period of its own (`period=game`), at once: entries i and
    i + n of the arrays (n games, 2n entries) are game i's two players, their values
    before it, the local day numbers of their previous rated games (`NEVER`) and of the
    game, and their scores. A player who has played before has their RD grown first for
    the idle days between (RULES.md §6)."""
    count = len(rating) // 2
    idle_days = np.where(last == NEVER, 0.0, np.maximum(day - last - 1.0, 0.0))
    rd = grown(rd, volatility, idle_days, settings.rd)
    other = np.concatenate((np.arange(count, 2 * count), np.arange(count)))
    return period(rating, rd, volatility, np.arange(2 * count), rating[other], rd[other],
                  score, settings.tau, settings.rd)
