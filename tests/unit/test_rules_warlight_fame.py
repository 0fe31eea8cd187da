"""RULES.md sections 1 (warlight) and 2 (fame), and the common definitions.

Every number here is from RULES.md or worked by hand from its formulas; the
tolerance is stated where ratings are real numbers.
"""

import pytest

from core.domain import elo
from core.domain.errors import RatingGapTooLarge
from core.domain.settings import preset
from tests.support.history import History

# ------------------------------------------------------------ common definitions


@pytest.mark.parametrize(
    ("x", "rounded"),
    [(0.5, 1), (1.5, 2), (2.5, 3), (-0.5, -1), (-2.5, -3), (2.4999, 2), (-2.4999, -2),
     (0.49999999999999994, 0), (15.5, 16), (0.0, 0)],
)
def test_round_is_half_away_from_zero(x: float, rounded: int) -> None:
    assert elo.round_half_away(x) == rounded


def test_expected_score_formula() -> None:
    assert elo.expected(1200, 1200) == 0.5
    # E = 1 / (1 + 10 ** (100/400)) = 1 / 2.77828 = 0.35993
    assert elo.expected(1200, 1300) == pytest.approx(0.35993, abs=1e-5)
    assert elo.expected(1300, 1200) + elo.expected(1200, 1300) == pytest.approx(1.0)


def test_unrated_report_is_recorded_and_moves_nothing() -> None:
    h = History("duel").join("a", "b")
    h.win("a", "b", rated=False)
    state = h.state()
    assert h.ratings("a", "b") == [1000, 1000]
    assert state.players[h.pid("a")].games == 1
    assert state.players[h.pid("a")].rated_games == 0


# ------------------------------------------------------------ 1. warlight


def test_warlight_start_and_even_game() -> None:
    h = History("warlight").join("a", "b")
    assert h.ratings("a", "b") == [1200, 1200]
    h.win("a", "b")
    assert h.ratings("a", "b") == [1216, 1184]


def test_warlight_ratings_are_real_numbers() -> None:
    h = History("warlight").join("a", "b")
    h.adjust("b", 100)  # a 1200, b 1300
    h.win("a", "b")
    # 32 * (1 - 0.35993) = 20.482
    a, b = h.ratings("a", "b")
    assert a == pytest.approx(1220.482, abs=1e-3)
    assert b == pytest.approx(1279.518, abs=1e-3)
    assert not float(a).is_integer()


def test_warlight_ffa_winner_takes_all() -> None:
    h = History("warlight").join("w", "x", "y")
    h.play([["w"], ["x"], ["y"]])
    assert h.ratings("w", "x", "y") == [1232, 1184, 1184]


def test_warlight_ffa_placement() -> None:
    h = History(preset("warlight").with_changes({"ffa": "placement"})).join("w", "x", "y")
    h.play([["w"], ["x"], ["y"]])
    assert h.ratings("w", "x", "y") == [1232, 1200, 1168]


def test_warlight_team_game_uses_team_means_and_same_change() -> None:
    h = History("warlight").join("a", "b", "c", "d")
    h.adjust("a", -100).adjust("b", 100)  # team a+b: 1100 and 1300, mean 1200
    h.play([["a", "b"], ["c", "d"]])
    a, b, c, d = h.ratings("a", "b", "c", "d")
    # Both means are 1200, so each member moves 32 * (1 - 0.5) = 16.
    assert (a - 1100, b - 1300, c - 1200, d - 1200) == (16, 16, -16, -16)


def test_warlight_team_game_mean_decides_expectation() -> None:
    h = History("warlight").join("a", "b", "c", "d")
    h.adjust("a", 100).adjust("b", 100)  # team means 1300 vs 1200
    h.play([["c", "d"], ["a", "b"]])  # the weaker team wins
    c = h.rating("c")
    assert c - 1200 == pytest.approx(20.482, abs=1e-3)
    assert h.rating("a") - 1300 == pytest.approx(-20.482, abs=1e-3)


# ------------------------------------------------------------ 2. fame


def test_fame_newcomers_30_move_duel() -> None:
    h = History("fame").join("a", "b")
    h.win("a", "b", moves=30)
    assert h.ratings("a", "b") == [1040, 960]


def test_fame_k_is_at_most_80_per_side() -> None:
    settings = preset("fame")
    assert elo.fame_k(settings, 2, 1000, 0, 10) == 80
    h = History("fame").join("a", "b")
    h.adjust("b", 999)  # b 1999, a 1000: a's upset win
    h.win("a", "b", moves=10)
    # 80 * (1 - 1 / (1 + 10 ** (999/400))) = 79.75, rounded to the cap of 80
    assert h.ratings("a", "b") == [1080, 1919]


def test_fame_k1_three_sides_and_winner_beats_each() -> None:
    h = History("fame").join("w", "x", "y")
    h.play([["w"], ["x"], ["y"]])  # no moves given: k3 = 1
    # K = 10 * 1.5 * 2 * 1 = 30; winner: 2 * 30 * 0.5; others: -30 * 0.5
    assert h.ratings("w", "x", "y") == [1030, 985, 985]


def test_fame_k1_more_than_three_sides() -> None:
    h = History("fame").join("a", "b", "c", "d")
    h.play([["a"], ["b"], ["c"], ["d"]])
    # K = 10 * 1 * 2 * 1 = 20: winner +3 * 10, others -10
    assert h.ratings("a", "b", "c", "d") == [1030, 990, 990, 990]


@pytest.mark.parametrize(("moves", "k3"), [(None, 1.0), (49, 2.0), (50, 1.5), (249, 1.5),
                                           (250, 1.0), (1000, 1.0)])
def test_fame_k3_by_game_length(moves: int | None, k3: float) -> None:
    assert elo.fame_k(preset("fame"), 2, 1000, 0, moves) == 10 * 2 * 2 * k3


@pytest.mark.parametrize(("wins", "rating", "k2"), [(0, 1000, 2.0), (20, 2500, 2.0),
                                                    (21, 1000, 1.5), (21, 2399, 1.5),
                                                    (21, 2400, 1.0), (30, 2600, 1.0)])
def test_fame_k2_by_experience_and_rating(wins: int, rating: float, k2: float) -> None:
    assert elo.fame_k(preset("fame"), 2, rating, wins, None) == 10 * 2 * k2 * 1


def test_fame_newcomer_status_counts_rated_wins() -> None:
    h = History("fame").join("a", "b")
    for _ in range(21):
        h.win("a", "b", rated=False)
    h.win("a", "b")
    # Unrated wins do not count: a is still a newcomer, K = 10*2*2*1 = 40, +20.
    assert h.rating("a") == 1020


def test_fame_refuses_games_more_than_1000_apart() -> None:
    settings = preset("fame")
    h = History("fame").join("a", "b")
    h.adjust("b", 1070)
    state = h.state()
    ratings = {p: s.rating for p, s in state.players.items()}
    with pytest.raises(RatingGapTooLarge) as refused:
        elo.check_gap(settings, h.result([["a"], ["b"]]), ratings)
    assert str(refused.value).startswith(
        "The ratings are 1070 apart; this ladder rates games only up to 1000 apart"
    )
    # exactly 1000 apart is still rated
    elo.check_gap(settings, h.result([["a"], ["b"]]),
                  {h.pid("a"): 1000.0, h.pid("b"): 2000.0})


def test_fame_200_points_apart_stronger_wins_about_75_percent() -> None:
    assert 0.75 <= elo.expected(1200, 1000) <= 0.76
