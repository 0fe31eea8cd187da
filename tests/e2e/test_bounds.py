"""Numbers stay within their ranges: the expectation at any gap, ratings within the
documented limit, every setting within its range, and numbers in ASCII digits only.
Each case here bricked a ladder or ended the console before (hardening, round two)."""

from __future__ import annotations

import re

import pytest

from core.domain.batch import fold_duels
from core.domain.elo import apply_floor, expected
from core.domain.errors import SettingError
from core.domain.events import Event, PlayerJoined, RatingAdjusted
from core.domain.numerals import is_digits, parse_int, parse_number
from core.domain.setting_keys import SETTING_SPECS, SettingSpec, parse_settings
from core.domain.settings import RATING_LIMIT, preset
from core.domain.state import replay
from tests.support.chat import T0, Chat

HOURS = 3600


@pytest.mark.parametrize(("gap", "chance"), [(0, 0.50), (100, 0.64), (200, 0.76),
                                             (400, 0.91), (800, 0.99)])
def test_the_expectation_is_the_rules_own(gap: int, chance: float) -> None:
    # RULES.md, dutch: expected win chance by gap, to two decimals.
    assert round(expected(1000 + gap, 1000), 2) == chance


@pytest.mark.parametrize("gap", [123_000, 130_000, 2 * RATING_LIMIT, 1e300])
def test_the_expectation_is_finite_at_any_gap(gap: float) -> None:
    # math.pow(10, gap / 400) overflowed from a gap of about 123,000.
    assert expected(0, gap) == pytest.approx(0, abs=1e-299)
    assert expected(gap, 0) == 1.0


async def test_a_game_across_a_huge_gap_is_rated_and_the_ladder_still_answers(
        chat: Chat) -> None:
    # Thirteen adjustments within the limit, then an ordinary report: when its automatic
    # confirmation fell due, every command of the ladder raised OverflowError.
    await chat.ladder("warlight")
    await chat.join("alice", "bob")
    for _ in range(13):
        await chat.ok("mod", "/mod adjust @alice +10000 testing")
    await chat.ok("bob", "/report win @alice")
    await chat.tick(25 * HOURS)
    # E = 1 / (1 + 10**(130000/400)) is 0 to double precision: bob takes all of K = 32.
    assert await chat.ratings() == {"alice": 131_168, "bob": 1232}
    assert "1. alice 131168" in await chat.ok("bob", "/standings")
    await chat.ok("mod", "/mod void 1 testing")
    assert await chat.ratings() == {"alice": 131_200, "bob": 1200}


async def test_an_adjustment_beyond_the_rating_limit_is_refused(chat: Chat) -> None:
    await chat.ladder("warlight")
    await chat.join("alice")
    for _ in range(99):
        await chat.ok("mod", "/mod adjust @alice +10000 up")
    assert await chat.refused("mod", "/mod adjust @alice +10000 up") == (
        "That would take alice from 991200 to 1001200: ratings stay within -1,000,000 and "
        "1,000,000.")
    await chat.ok("mod", "/mod adjust @alice +8800 up to the limit")
    assert await chat.ratings() == {"alice": RATING_LIMIT}


def test_no_change_takes_a_rating_beyond_the_limit() -> None:
    warlight = preset("warlight")
    assert apply_floor(warlight, RATING_LIMIT + 20.5, RATING_LIMIT - 3) == RATING_LIMIT
    assert apply_floor(warlight, -RATING_LIMIT - 7, -RATING_LIMIT + 1) == -RATING_LIMIT
    assert apply_floor(warlight, RATING_LIMIT - 0.5, RATING_LIMIT - 3) == RATING_LIMIT - 0.5


def test_the_fast_fold_stops_at_the_limit_as_one_by_one() -> None:
    # Two players just below the limit play a long run: the fold may take none of it, or
    # pieces that cannot reach the limit, and must end where one by one ends.
    duel = preset("duel").with_changes({"farm_limit": None})
    joined: list[Event] = [PlayerJoined(T0, p) for p in range(1, 11)]
    near: list[Event] = [RatingAdjusted(T0, p, RATING_LIMIT - 1000 - 70 * p, "mod", "x")
                         for p in (1, 2)]
    rows = [(T0 + i, 1, 2, False, True, None, T0 + i) for i in range(400)]
    single, batched = replay(duel, joined + near), replay(duel, joined + near)
    for row in rows:
        single.apply_duel(*row)
    done = fold_duels(batched, *zip(*rows, strict=True))
    for row in rows[done:]:
        batched.apply_duel(*row)
    assert batched.fingerprint() == single.fingerprint()
    assert single.players[1].rating == RATING_LIMIT  # the run did reach the limit


RANGED = [spec for spec in SETTING_SPECS.values() if spec.range is not None]


@pytest.mark.parametrize("spec", RANGED, ids=[s.key for s in RANGED])
def test_every_number_setting_refuses_values_outside_its_range(spec: SettingSpec) -> None:
    key, limits = spec.key, spec.range
    assert limits is not None

    def show(x: float) -> str:
        return str(int(x)) if limits.whole else repr(float(x))

    for value in ([limits.low] if limits.above else [limits.low - 1]) + [limits.high + 1]:
        with pytest.raises(SettingError, match=re.escape(f"expected {limits.text()}")):
            parse_settings([(key, show(value))])
    assert parse_settings([(key, show(limits.high))]) == {key: limits.high}
    if not limits.above:
        assert parse_settings([(key, show(limits.low))]) == {key: limits.low}


def test_help_settings_names_every_range() -> None:
    from core.service.helptext import help_text

    text = str(help_text("settings"))
    for spec in RANGED:
        assert f"{spec.key}: {spec.help}; {spec.range.text()}" in text  # type: ignore[union-attr]
    assert "k_bands: K by the player's rating (below the first: k), e.g. 2100:24,2400:16; " \
        "thresholds a number from -1,000,000 to 1,000,000, values a number above 0, at most " \
        "1,000" in text


@pytest.mark.parametrize(("key", "value"), [
    # Each was accepted, and then broke the ladder at its next daily job or command.
    ("calibration", "99999999999999999999"), ("active_days", "1e308"),
    ("decay_min", "100000000000000000000"), ("start", "1e308"), ("floor", "-1e308"),
    ("challenge_hours", "1e20"), ("challenge_hours", "1e308"), ("reminder_hours", "1e308"),
    ("week_days", "1e308"), ("min_gain", "10000000000"), ("fame_base", "1e300"),
    ("k1", "1e300"), ("k", "1e300"), ("max_sides", "1"), ("k_bands", "2100:1e300"),
    ("k3_bands", "1e300:2"), ("timezone", "Europe/" + "x" * 300), ("k", "1_0"),
    ("k", "inf"), ("k", "²"), ("calibration", "٣"),
])
def test_the_settings_that_bricked_a_ladder_are_refused(key: str, value: str) -> None:
    with pytest.raises(SettingError, match=rf"^{key}=.{{1,43}}: expected"):
        parse_settings([(key, value)])


def test_numbers_are_ascii_digits() -> None:
    assert is_digits("2026") and not is_digits("²") and not is_digits("٣")
    assert not is_digits("") and not is_digits("1 ")
    assert parse_int("-12") == -12 and parse_number("+2.5e3") == 2500.0
    for text in ["²", "٣", "1_0", " 1", "inf", "nan", "1e999", "", "+", "0x10", "١٢"]:
        with pytest.raises(ValueError):
            parse_number(text)
    for text in ["²", "٣", "1_0", "1.0", "1e3", ""]:
        with pytest.raises(ValueError):
            parse_int(text)


async def test_a_chart_at_the_ends_of_the_ranges_is_drawn(chat: Chat) -> None:
    from bot.charts import render

    await chat.ladder("warlight", "start=-100000")
    await chat.join("alice", "bob")
    for _ in range(3):
        await chat.ok("mod", "/mod adjust @alice +10000 up")
    await chat.ok("bob", "/report win @alice")
    await chat.tick(25 * HOURS)
    reply = await chat.say("alice", "/profile")
    assert reply is not None and reply.chart is not None
    assert render(reply.chart).startswith(b"\x89PNG")
