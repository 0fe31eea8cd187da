"""Glicko-2's arithmetic against Glickman's worked example (RULES.md §6)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.rulebooks.glicko2 import Glicko, idle, rate

START_RD = 350.0


def test_glickmans_example() -> None:
    """1500 / 200 / 0.06 beats 1400/30 and loses to 1550/100 and 1700/300 in one
    period (τ = 0.5): 1464.06 / 151.52 / 0.05999, as RULES.md and the paper give them.
    The paper rounds each step to four decimals (μ' = -0.2069); unrounded, the rating is
    1464.0507 and the volatility 0.059996, so the tolerances are 0.01 on the rating and the RD and
    0.00001 on the volatility."""
    player = Glicko(1500, 200, 0.06)
    games = [(Glicko(1400, 30, 0.06), 1.0), (Glicko(1550, 100, 0.06), 0.0),
             (Glicko(1700, 300, 0.06), 0.0)]
    after = rate(player, games, tau=0.5, max_rd=START_RD)
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.rd == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_an_idle_period_grows_the_rd_up_to_the_start() -> None:
    """φ' = sqrt(φ² + n·σ²) on Glicko-2's scale, never above the start RD."""
    player = Glicko(1500, 200, 0.06)
    scale = 173.7178
    expected = scale * math.sqrt((200 / scale) ** 2 + 3 * 0.06 ** 2)
    assert idle(player, 3, START_RD).rd == pytest.approx(expected, rel=1e-12)
    assert idle(player, 0, START_RD) == player
    assert idle(player, 10**6, START_RD).rd == START_RD
    assert rate(player, [], 0.5, START_RD) == idle(player, 1, START_RD)


@given(st.floats(1000, 2000), st.floats(40, 350), st.floats(1000, 2000), st.floats(40, 350),
       st.sampled_from([0.0, 0.5, 1.0]))
def test_a_game_moves_a_player_toward_the_result(
        ra: float, rda: float, rb: float, rdb: float, score: float) -> None:
    """Above expectation the rating rises, below it falls; a game never raises the RD
    beyond what the period alone would (it informs)."""
    a, b = Glicko(ra, rda, 0.06), Glicko(rb, rdb, 0.06)
    after = rate(a, [(b, score)], 0.5, START_RD)
    g = 1 / math.sqrt(1 + 3 * (rdb / 173.7178) ** 2 / math.pi ** 2)
    expected = 1 / (1 + math.exp(-g * (ra - rb) / 173.7178))
    if abs(score - expected) > 1e-6:
        assert (after.rating - ra) * (score - expected) > 0
    assert after.rd <= idle(a, 1, START_RD).rd + 1e-9
    assert 0 < after.volatility < 1
