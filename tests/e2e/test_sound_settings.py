"""Issue 47: no setting within its range stops the bot. Random settings of every
rulebook, drawn at and near the ends of each key's range, rate games (a win with a
margin, a draw, a long idle spell) within a fixed budget of the bot's own clock
(core.domain.budget: past it a unit of work is refused and rolled back). Before: glicko2's
tau=1e-30 never ended its volatility iteration, and tau=1e-300 divided by zero."""

from __future__ import annotations

import dataclasses
import math
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from core.domain import budget
from core.domain.errors import SettingError
from core.domain.rulebooks.glicko_math import one_game
from core.domain.setting_keys import FORMULA_GROUPS, GROUP_OF, SETTING_SPECS, validate
from core.domain.setting_values import BadValue, Range
from core.domain.settings import PRESETS, Settings, preset
from core.domain.state import replay
from core.i18n import render
from tests.support.adapters import discord_harness
from tests.support.discord_payloads import command
from tests.support.discord_play import DAVE, ephemeral, ladder, text
from tests.support.history import History

BUDGET = 5.0  # seconds: a game is rated in well under a millisecond


def _within(limits: Range) -> st.SearchStrategy[float]:
    """Values the range admits, its ends and their neighbours most of all."""
    low = math.nextafter(limits.low, math.inf) if limits.above else limits.low
    if limits.whole:
        lowest, highest = math.ceil(low), int(limits.high)
        return st.one_of(st.sampled_from([lowest, highest]), st.integers(lowest, highest))
    return st.one_of(st.sampled_from([low, limits.high, low * 2 if low else 1e-300,
                                      (low + limits.high) / 2]),
                     st.floats(low, limits.high, allow_nan=False))


def _keys(base: Settings) -> list[str]:
    """The number keys that configure a ladder of `base`'s rulebook."""
    mine = "position" if base.is_position else base.formula
    return sorted(key for key, spec in SETTING_SPECS.items()
                  if spec.range is not None and key in GROUP_OF
                  and (GROUP_OF[key] not in FORMULA_GROUPS or GROUP_OF[key] == mine))


@st.composite
def ladders(draw: Any) -> Settings:
    base = preset(draw(st.sampled_from(sorted(PRESETS))))
    keys = draw(st.lists(st.sampled_from(_keys(base)), min_size=1, max_size=6, unique=True))
    changes = {key: draw(_within(SETTING_SPECS[key].range)) for key in keys}  # type: ignore[arg-type]
    try:
        return validate(dataclasses.replace(base, **changes), changes)
    except (SettingError, TypeError, ValueError):
        assume(False)
        raise AssertionError("unreachable") from None


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ladders())
def test_random_settings_within_their_ranges_rate_games_within_a_fixed_time(
        ladder: Settings) -> None:
    log = History(ladder).join("a", "b", "c")
    margin = {"margin": "major"} if ladder.margin_required else {}
    log.win("a", "b", **margin)
    log.tick(40 * 86_400).draw("b", "c") if not ladder.is_position else log.win("c", "a")
    log.tick(3600).win("c", "a", **margin)
    with budget.within(time.monotonic, BUDGET):
        state = replay(ladder, log.events)
    assert len(state.players) == 3


@pytest.mark.parametrize("tau", [0.01, 10.0])
def test_glicko2_at_the_ends_of_tau_rates_a_game(tau: float) -> None:
    rating, rd, volatility = one_game((1500.0, 200.0, 0.06), (1400.0, 30.0), 1.0, tau, 350.0)
    assert 1500 < rating < 1700 and 0 < rd < 200 and 0 < volatility < 1


@pytest.mark.parametrize("tau", [1e-30, 1e-300])
def test_glicko2_below_its_range_is_refused_with_why(tau: float) -> None:
    with pytest.raises(BadValue) as refused:
        SETTING_SPECS["tau"].parse(repr(tau))
    words = render(refused.value.reason, "en")
    assert "0.01 to 10" in words and "floating point" in words, words


def test_a_unit_past_its_budget_is_stopped() -> None:
    now = [0.0]
    log = History("duel").join("a", "b")
    for _ in range(2 * budget.EVERY):
        log.win("a", "b")

    def clock() -> float:
        now[0] += 100.0  # a hundred seconds between two looks at the clock
        return now[0]

    with pytest.raises(budget.Overtime), budget.within(clock, 150):
        replay(preset("duel"), log.events)
    with budget.within(clock, 150):  # (a unit within its budget is not stopped)
        assert len(replay(preset("duel"), log.events[:budget.EVERY]).players) == 2


async def test_a_command_past_its_budget_is_refused_rolled_back_and_the_bot_serves_on(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with discord_harness(tmp_path / "l.db") as dc:
        await ladder(dc)  # (alice and bob joined)
        monkeypatch.setattr(budget, "SECONDS", -1.0)  # every deadline has passed ...
        monkeypatch.setattr(budget, "EVERY", 1)  # ... and every fold step looks
        stopped = await dc.send(command("join", by=DAVE))
        assert text(stopped).startswith("That took longer than") and ephemeral(stopped)
        monkeypatch.undo()
        assert [p["name"] for p in (await dc.export())["players"]] == ["alice", "bob"]
        joined = await dc.send(command("join", by=DAVE))
        assert "dave joined main" in text(joined)


@pytest.mark.parametrize("tau", [1e-30, 1e-300, 0.0])
def test_a_ladder_that_kept_a_tau_below_the_range_still_rates(tau: float) -> None:
    # Set before the range was sound: 1e-30 hung the one database thread, 1e-300 divided
    # by zero. Such a ladder is rated with the lowest sound tau, in both forms alike.
    with budget.within(time.monotonic, BUDGET):
        alone = one_game((1500.0, 200.0, 0.06), (1400.0, 30.0), 1.0, tau, 350.0)
    assert alone == one_game((1500.0, 200.0, 0.06), (1400.0, 30.0), 1.0, 0.01, 350.0)
    log = History(dataclasses.replace(preset("glicko2"), tau=tau)).join("a", "b")
    log.win("a", "b")
    with budget.within(time.monotonic, BUDGET):
        state = replay(log.settings, log.events)
    assert math.isfinite(state.players[1].rating)


def test_a_unit_of_many_commands_gives_each_its_own_budget() -> None:
    # A unit of work may hold many commands (a benchmark's batch) or many due jobs (a
    # long downtime caught up): each has a budget of its own, not the unit's whole.
    now = [0.0]

    def clock() -> float:
        now[0] += 10.0  # ten seconds between two looks at the clock
        return now[0]

    budget.SECONDS, seconds = 15.0, budget.SECONDS
    try:
        with budget.within(clock, 15):
            for _ in range(10):  # 100 s of looks in all, each command renewed
                with budget.renewed():
                    budget.check()
    finally:
        budget.SECONDS = seconds
    with pytest.raises(budget.Overtime), budget.within(clock, 15):
        for _ in range(3):  # (one budget for them all: past it)
            budget.check()
