"""RULES.md section 3: the duel rulebook, its worked pair, tables and Hall of Fame."""

import pytest

from core.domain import elo
from core.domain.calendar import DAY, HOUR, parse_instant
from core.domain.events import MatchConfirmed
from core.domain.model import Match
from core.domain.settings import preset
from core.domain.tables import (
    HallEntry,
    calibrating,
    gain_table,
    hall_entries,
    ladder_table,
    league,
)
from tests.support.history import History

DUEL = preset("duel")


@pytest.mark.parametrize(
    ("gap", "points"),
    [(400, 3), (300, 5), (200, 8), (100, 12), (0, 16), (-100, 20), (-200, 24), (-300, 27),
     (-400, 29)],
)
def test_points_for_the_winner_by_gap(gap: int, points: int) -> None:
    assert elo.zero_sum_exchange(DUEL, 1200 + gap, 1200) == points


def test_minimum_gain_is_one() -> None:
    # E = 0.9968 at a 1000-point gap: 32 * 0.0032 rounds to 0, the minimum is 1.
    assert elo.zero_sum_exchange(DUEL, 2200, 1200) == 1


def test_worked_pair() -> None:
    h = History("duel").join("A", "B")
    h.adjust("B", 100)
    h.win("A", "B")
    assert h.ratings("A", "B") == [1020, 1080]
    h.win("B", "A")
    assert h.ratings("A", "B") == [1007, 1093]
    assert sum(h.ratings("A", "B")) == 2100


def test_floor_stops_the_loser_and_winner_gains_in_full() -> None:
    h = History("duel").join("a", "b")
    h.adjust("b", -190)  # b at 810
    h.win("a", "b")  # gap +190: 32 * (1 - 0.7497) = 8.0 -> 8
    assert h.ratings("a", "b") == [1008, 802]
    h.win("a", "b")  # b would fall to 794: stops at 800
    a, b = h.ratings("a", "b")
    assert b == 800
    assert a - 1008 == elo.zero_sum_exchange(DUEL, 1008, 802)


def test_no_rating_below_800_by_adjustment() -> None:
    h = History("duel").join("a")
    h.adjust("a", -500)
    assert h.rating("a") == 800


def test_draw_moves_points_from_higher_to_lower() -> None:
    h = History("duel").join("a", "b")
    h.adjust("a", 200)  # a 1200, b 1000
    h.draw("a", "b")
    # round(32 * (0.7597 - 0.5)) = round(8.31) = 8
    assert h.ratings("a", "b") == [1192, 1008]
    h2 = History("duel").join("a", "b")
    h2.draw("a", "b")
    assert h2.ratings("a", "b") == [1000, 1000]


def test_calibration_first_five_rated_games() -> None:
    h = History("duel").join("a", "b")
    for _ in range(4):
        h.win("a", "b")
        h.tick(DAY * 2)  # keep clear of anti-farming
    state = h.state()
    a = state.players[h.pid("a")]
    assert a.rated_games == 4 and calibrating(DUEL, a.rated_games)
    assert league(DUEL, a.rating, a.rated_games) == "Calibration"
    rows = [(p, s.rating, s.rated_games, s.last_played) for p, s in state.players.items()]
    assert ladder_table(DUEL, rows, h.at) == []
    h.win("a", "b")
    state = h.state()
    a = state.players[h.pid("a")]
    assert not calibrating(DUEL, a.rated_games)
    rows = [(p, s.rating, s.rated_games, s.last_played) for p, s in state.players.items()]
    assert [r.player for r in ladder_table(DUEL, rows, h.at)] == [h.pid("a"), h.pid("b")]


@pytest.mark.parametrize(
    ("rating", "name"),
    [(800, "Challenge Accepted"), (999, "Challenge Accepted"), (1000, "Fighter"),
     (1099, "Fighter"), (1100, "Yard Terror"), (1199, "Yard Terror"), (1200, "Duel Master"),
     (1299, "Duel Master"), (1300, "Grandmaster"), (2000, "Grandmaster")],
)
def test_leagues_by_rating(rating: float, name: str) -> None:
    assert league(DUEL, rating, 5) == name
    assert league(DUEL, rating, 4) == "Calibration"


def test_league_follows_rating_both_ways() -> None:
    h = History("duel").join("a")
    h.adjust("a", 100)
    state = h.state()
    assert league(DUEL, state.players[h.pid("a")].rating, 5) == "Yard Terror"
    h.adjust("a", -101)
    assert league(DUEL, h.rating("a"), 5) == "Challenge Accepted"


def test_anti_farming_fifth_game_in_seven_days_is_unrated() -> None:
    h = History("duel").join("a", "b")
    for _ in range(4):
        h.win("a", "b")
        h.tick(DAY)
    before = h.ratings("a", "b")
    fifth = h.win("a", "b")
    state = h.state()
    assert h.ratings("a", "b") == before
    assert state.players[h.pid("a")].rated_games == 4
    assert state.players[h.pid("a")].games == 5
    # Once the first game is more than 7 days back, the pair is rated again.
    h.tick(3 * DAY + 1)
    h.win("a", "b")
    assert h.rating("a") > before[0]
    assert fifth == 5


def test_anti_farming_is_per_pair() -> None:
    h = History("duel").join("a", "b", "c")
    for _ in range(4):
        h.win("a", "b")
    before = h.rating("a")
    h.win("a", "c")
    assert h.rating("a") > before


def test_game_shorter_than_two_moves_is_unrated() -> None:
    h = History("duel").join("a", "b")
    h.win("a", "b", moves=1)
    assert h.ratings("a", "b") == [1000, 1000]
    h.win("a", "b", moves=2)
    assert h.ratings("a", "b") == [1016, 984]


def test_season_table_needs_three_rated_games_and_a_gain() -> None:
    settings = DUEL
    rows = [(1, 20.0, 3, 10), (2, 40.0, 2, 10), (3, -5.0, 4, 10), (4, 0.0, 3, 10),
            (5, 30.0, 3, 4)]
    table = gain_table(settings, rows, settings.season_min_games)
    # 2: two games only; 3 and 4: no gain; 5: still calibrating.
    assert [(r.player, r.value) for r in table] == [(1, 20.0)]


def test_week_table_needs_two_rated_games_and_a_gain() -> None:
    rows = [(1, 20.0, 2, 9), (2, 40.0, 1, 9), (3, 25.0, 2, 9)]
    table = gain_table(DUEL, rows, DUEL.week_min_games)
    assert [r.player for r in table] == [3, 1]


def test_ladder_table_lists_players_active_in_30_days() -> None:
    at = parse_instant("2026-03-01T00:00:00Z")
    rows = [(1, 1100.0, 6, at - 29 * DAY), (2, 1200.0, 6, at - 31 * DAY), (3, 1000.0, 6, at)]
    assert [r.player for r in ladder_table(DUEL, rows, at)] == [1, 3]


def test_season_close_freezes_table_fills_hall_of_fame_and_resets_gains() -> None:
    # Calibration off so every game counts in the table; gains worked by hand from the
    # duel formula (the gap and the points for the winner in each comment).
    h = History(DUEL.with_changes({"calibration": 0}), at=parse_instant("2026-01-02T10:00:00Z"))
    h.join("a", "b", "c", "d", "e", "f")
    games = [
        ("a", "b"),  # gap 0: +16      a 1016 b 984
        ("c", "d"),  # gap 0: +16      c 1016 d 984
        ("e", "f"),  # gap 0: +16      e 1016 f 984
        ("a", "d"),  # gap 32: +15     a 1031 d 969
        ("c", "f"),  # gap 32: +15     c 1031 f 969
        ("a", "f"),  # gap 62: +13     a 1044 f 956
        ("c", "b"),  # gap 47: +14     c 1045 b 970
        ("e", "b"),  # gap 46: +14     e 1030 b 956 (e: two games, not listed yet)
    ]
    for winner, loser in games:
        h.win(winner, loser)
        h.tick(DAY)
    assert h.ratings("a", "b", "c", "d", "e", "f") == [1044, 956, 1045, 969, 1030, 956]
    h.win("e", "d")  # gap 61: +13    e 1043 d 956
    h.close("2026-01")
    state = h.state()
    assert [(r.player, r.value, r.rated_games) for r in state.frozen["2026-01"]] == [
        (h.pid("c"), 45, 3), (h.pid("a"), 44, 3), (h.pid("e"), 43, 3),
    ]
    assert state.hall == [
        HallEntry("2026-01", 1, h.pid("c"), 45),
        HallEntry("2026-01", 2, h.pid("a"), 44),
        HallEntry("2026-01", 3, h.pid("e"), 43),
    ]
    assert all(s.season_gain == 0 and s.season_games == 0 for s in state.players.values())
    assert h.rating("e") == 1043  # ratings stay
    assert state.season == "2026-01b"  # closed on 10 January: RULES, "after an early close"
    h.win("b", "d")  # the new season counts from 0
    assert h.state().players[h.pid("b")].season_gain == 16


def test_hall_of_fame_takes_the_top_three_only() -> None:
    rows = [(p, 10.0 * p, 3, 9) for p in range(1, 6)]
    table = gain_table(DUEL, rows, 3)
    assert [e.player for e in hall_entries(DUEL, "2026-01", table)] == [5, 4, 3]


def test_season_gain_is_the_sum_of_rating_changes_in_the_month() -> None:
    h = History("duel").join("a", "b")
    h.adjust("b", 100)
    h.win("a", "b")  # +20
    h.tick(DAY)
    h.win("b", "a")  # -13
    state = h.state()
    assert state.players[h.pid("a")].season_gain == 7
    assert state.players[h.pid("b")].season_gain == -7  # adjustments do not count
    assert state.players[h.pid("a")].season_games == 2


def test_anti_farming_forgets_pairs_long_past(monkeypatch: pytest.MonkeyPatch) -> None:
    import core.domain.pairs

    monkeypatch.setattr(core.domain.pairs, "FARM_PRUNE_EVERY", 4)
    h = History("duel").join("a", "b", "c")
    h.win("a", "b")  # event 4
    h.tick(60 * DAY)
    h.win("a", "c")
    h.win("c", "b")
    assert set(h.state().farm) == {(1, 2), (1, 3), (2, 3)}
    h.join("d")
    h.join("e")  # event 8: pruning forgets the a-b pair, 60 days back
    assert set(h.state().farm) == {(1, 3), (2, 3)}


def test_a_game_confirmed_30_days_late_still_counts_against_farming(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """RULES: the 5th rated game of a pair in 7 days is unrated, also when it waited the
    longest allowed (confirm_hours at most 720) while anti-farming forgot old pairs."""
    import core.domain.pairs

    monkeypatch.setattr(core.domain.pairs, "FARM_PRUNE_EVERY", 4)
    h = History("duel").join("a", "b", "c", "d")
    for _ in range(4):
        h.win("a", "b")
        h.tick(HOUR)
    played = h.at
    h.tick(30 * DAY - 1)
    for _ in range(6):  # prunes on the way, as late as the confirmation
        h.win("c", "d")
    fifth = Match(h.next_match, played, h.result([["a"], ["b"]]))
    h.events.append(MatchConfirmed(h.at, fifth))
    state = h.state()
    assert state.players[h.pid("a")].rated_games == 4
    assert state.players[h.pid("a")].games == 5
