"""Glicko-2's arithmetic against Glickman's worked example (RULES.md §6)."""

from __future__ import annotations

import math
import re
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.domain.rulebooks.glicko2 import Glicko, idle, rate

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


def test_replies_show_the_rating_and_twice_the_rd() -> None:
    """RULES.md §6: `1464 ±303`, rating and 2·RD, rounded (Glickman's example's values)."""
    from core.domain.rulebooks.glicko2 import RULEBOOK
    from core.domain.settings import preset
    from core.domain.standing import PlayerState

    player = PlayerState(rating=1464.06, extra=(151.52, 0.05999, 0.0))
    assert RULEBOOK.shown(preset("glicko2"), player) == "1464 ±303"


async def test_a_glicko2_ladder_refuses_many_sides_and_keeps_the_provisional_out(
        tmp_path: Any) -> None:
    """Free-for-alls are refused with the reason; a player is provisional while RD > 110:
    in no table but the list of all players, where they are marked."""
    from storage.sqlite.store import SqliteStore
    from tests.support.chat import Chat

    async with SqliteStore(tmp_path / "g.db") as store:
        chat = Chat(store)
        await chat.ladder("glicko2", "confirm=false", "tables=ladder")
        await chat.join("ann", "ben", "cat")
        refused = await chat.refused("ann", "/report ffa @ann @ben @cat")
        assert "one-on-one games only" in refused and "preset=openskill" in refused
        await chat.ok("ann", "/report win @ben")
        table = await chat.text("cat", "/standings")
        assert "ann" not in table and "ben" not in table  # RD 290: provisional
        everyone = await chat.text("cat", "/standings rating")
        assert "ann" in everyone and "(provisional)" in everyone
        assert "(provisional" in await chat.text("ann", "/profile")
        # many games bring the RD below 110: in the table
        for _ in range(12):
            await chat.tick(3600)
            await chat.ok("ann", "/report win @ben again")
            await chat.ok("ben", "/report win @ann again")
        players = {p["name"]: p for p in (await chat.export())["players"]}
        assert players["ann"]["rd"] < 110 and not players["ann"]["provisional"]
        assert "ann" in await chat.text("cat", "/standings")


async def test_a_settings_change_moves_the_provisional_into_the_tables(tmp_path: Any) -> None:
    """Who is provisional is stored beside each player for the tables' SQL: a settings
    change that makes someone no longer provisional (or provisional again) must rewrite
    them, or the table goes on leaving them out."""
    from storage.sqlite.store import SqliteStore
    from tests.support.chat import Chat

    async with SqliteStore(tmp_path / "g.db") as store:
        chat = Chat(store)
        await chat.ladder("glicko2", "confirm=false", "tables=ladder")
        await chat.join("ann", "ben")
        await chat.ok("ann", "/report win @ben")
        assert "ann" not in await chat.text("ben", "/standings")  # RD 290 > 110
        await chat.ok("mod", "/ladder set provisional_rd=300")
        assert "ann" in await chat.text("ben", "/standings")
        await chat.ok("mod", "/ladder set provisional_rd=200")
        assert "ann" not in await chat.text("ben", "/standings")
    async with SqliteStore(tmp_path / "d.db") as store:  # an Elo ladder's calibration
        chat = Chat(store)
        await chat.ladder("duel", "confirm=false", "calibration=3")
        await chat.join("ann", "ben")
        await chat.ok("ann", "/report win @ben")
        assert "ann" not in await chat.text("ben", "/standings ladder")
        await chat.ok("mod", "/ladder set calibration=0")
        assert "ann" in await chat.text("ben", "/standings ladder")


async def test_a_rating_periods_close_is_announced_when_it_moved_ratings(
        tmp_path: Any) -> None:
    """With period=day the games of a day are rated at the next 00:00, and the chat is
    told who moved (as every other rating change is told); a day without games closes
    in silence."""
    from storage.sqlite.store import SqliteStore
    from tests.support.chat import Chat

    async with SqliteStore(tmp_path / "p.db") as store:
        chat = Chat(store)
        await chat.time("2026-01-05T10:00:00+00:00")
        await chat.ladder("glicko2", "confirm=false", "period=day")
        await chat.join("ann", "ben", "cat")
        assert "rated when the rating period closes" in await chat.ok("ann", "/report win @ben")
        said = [a.text for a in await chat.time("2026-01-06T00:00:01+00:00")]
        closes = [t for t in said if t.startswith("Rating period closed")]
        ratings = await chat.ratings()
        assert len(closes) == 1
        told = re.fullmatch(r"Rating period closed on main: the games of 2026-01-05 are "
                            r"rated, 2 players moved: ann 1500 -> (\d+) \(\+([\d.]+)\), "
                            r"ben 1500 -> (\d+) \(-([\d.]+)\)\.", closes[0])
        assert told is not None, closes[0]
        assert abs(int(told[1]) - ratings["ann"]) <= 0.5
        assert abs(float(told[2]) - (ratings["ann"] - 1500)) <= 0.05
        assert abs(int(told[3]) - ratings["ben"]) <= 0.5
        assert ratings["ann"] > 1500 > ratings["ben"] and ratings["cat"] == 1500
        quiet = [a.text for a in await chat.time("2026-01-07T00:00:01+00:00")]
        assert not [t for t in quiet if t.startswith("Rating period closed")]


@given(st.floats(-1_000_000, 1_000_000), st.floats(-1_000_000, 1_000_000),
       st.floats(30, 350), st.floats(30, 350), st.sampled_from([0.0, 0.5, 1.0]))
def test_players_any_distance_apart_get_finite_values(
        ra: float, rb: float, rda: float, rdb: float, score: float) -> None:
    """Ratings may lie up to RATING_LIMIT apart (a moderator's adjustment): the
    expected score then rounds to exactly 1 or 0, where 1/v was a ZeroDivisionError in
    the one-game form and an infinity in the array form. Both forms stay finite, alike
    to the bit, and a favourite who wins as expected hardly moves."""
    from core.domain.rulebooks.glicko_math import one_game, period

    one = one_game((ra, rda, 0.06), (rb, rdb), score, 0.5, START_RD)
    arrays = period(np.array([ra]), np.array([rda]), np.array([0.06]),
                    np.zeros(1, dtype=np.int64), np.array([rb]), np.array([rdb]),
                    np.array([score]), 0.5, START_RD)
    assert all(math.isfinite(value) for value in one)
    assert one == tuple(float(value[0]) for value in arrays)
    if ra - rb > 10_000 and score == 1.0:
        assert abs(one[0] - ra) < 1e-6 and one[2] == pytest.approx(0.06, abs=1e-4)


async def test_a_game_10000_apart_is_rated_not_an_apology(tmp_path: Any) -> None:
    """The console report of issue 30: `/mod adjust @a +10000`, then a game, on both
    period forms (each game at once; a day's games together)."""
    from storage.sqlite.store import SqliteStore
    from tests.support.chat import Chat

    for form in ("game", "day"):
        async with SqliteStore(tmp_path / f"{form}.db") as store:
            chat = Chat(store)
            await chat.ladder("glicko2", "confirm=false", f"period={form}")
            await chat.join("ann", "ben")
            await chat.ok("mod", "/mod adjust @ann +10000 far ahead")
            await chat.ok("ben", "/report win @ann")
            await chat.ok("ann", "/report win @ben again")
            await chat.tick(2 * 86400)
            await chat.ok("ann", "/report win @ben again")
            players = {p["name"]: p for p in (await chat.export())["players"]}
            assert all(math.isfinite(players[n][k]) for n in ("ann", "ben")
                       for k in ("rating", "rd", "volatility"))
            assert players["ann"]["rating"] > players["ben"]["rating"] + 5_000


async def test_the_tables_show_the_rating_and_twice_the_rd(chat: Any) -> None:
    """RULES.md §6: replies show `1464 ±303`; a table is a reply, so its lines do too, and
    say what the player's /profile says."""
    await chat.ladder("glicko2", "confirm=false", "provisional_rd=350")
    await chat.join("ann", "ben")
    await chat.ok("ann", "/report win @ben")
    shown = (await chat.text("ann", "/profile")).split("rating ")[1].replace(",", " ").split()[:2]
    assert shown[1].startswith("±")  # e.g. ['1662', '±581']
    line = (await chat.text("ben", "/standings")).splitlines()[1]
    assert line == f"1. ann {shown[0]} {shown[1]}", line
