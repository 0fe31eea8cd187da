"""RULES.md section 5: dutch's banded K, the 719 rule, daily decay and series."""

import pytest

from core.domain import elo
from core.domain.calendar import DAY, HOUR
from core.domain.settings import preset
from tests.support.history import History

DUTCH = preset("dutch")
NO_SERIES = DUTCH.with_changes({"series_hours": None})


def test_start_at_zero_and_never_below() -> None:
    h = History("dutch").join("a", "b")
    assert h.ratings("a", "b") == [0, 0]
    h.win("a", "b")
    assert h.ratings("a", "b") == [16, 0]


@pytest.mark.parametrize(("rating", "k"), [(0, 32), (2099, 32), (2100, 24), (2399, 24),
                                           (2400, 16), (3000, 16)])
def test_k_by_own_rating(rating: float, k: float) -> None:
    assert elo.k_for(DUTCH, rating) == k


def test_each_player_uses_their_own_k() -> None:
    h = History(NO_SERIES).join("a", "b")
    h.adjust("a", 2400).adjust("b", 2300)  # a K 16, b K 24
    h.win("b", "a")
    # E_a = 0.6401: a: round(16 * -0.6401) = -10; b: round(24 * 0.6401) = 15
    assert h.ratings("a", "b") == [2390, 2315]


@pytest.mark.parametrize(("gap", "chance"), [(0, 0.50), (100, 0.64), (200, 0.76), (400, 0.91),
                                             (800, 0.99)])
def test_expected_win_chance_by_gap(gap: int, chance: float) -> None:
    assert elo.expected(1000 + gap, 1000) == pytest.approx(chance, abs=0.005)


def test_719_rule_stronger_wins_nothing_changes() -> None:
    h = History(NO_SERIES).join("a", "b")
    h.adjust("a", 720)
    h.win("a", "b")
    assert h.ratings("a", "b") == [720, 0]
    # but the weaker winning across the gap moves points
    h.win("b", "a")
    a, b = h.ratings("a", "b")
    assert a < 720 and b > 0


def test_719_gap_exactly_still_rated() -> None:
    h = History(NO_SERIES).join("a", "b")
    h.adjust("a", 719)
    h.win("a", "b")  # E = 0.98431: round(32 * 0.01569) = round(0.502) = 1
    assert h.ratings("a", "b") == [720, 0]


@pytest.mark.parametrize(("rating", "amount"), [(1, 1), (100, 1), (499, 1), (600, 2), (800, 5),
                                                (1000, 8), (1500, 18), (2000, 32)])
def test_decay_amounts(rating: float, amount: float) -> None:
    assert elo.decay_amount(DUTCH, rating) == amount


def test_no_decay_at_zero() -> None:
    assert elo.decay_amount(DUTCH, 0) == 0


def test_player_at_1000_who_does_not_play() -> None:
    h = History("dutch").join("a")
    h.adjust("a", 1000)
    seen = []
    for day in ("2026-01-06", "2026-01-07", "2026-01-08"):
        h.tick(24 * HOUR).decay(day)
        seen.append(h.rating("a"))
    assert seen == [992, 985, 978]


def test_player_at_500_reaches_zero_after_499_days() -> None:
    state_rating = 500.0
    days = 0
    while state_rating > 0:
        state_rating -= elo.decay_amount(DUTCH, state_rating)
        days += 1
    assert days == 499


def test_series_maximum_between_equal_players() -> None:
    h = History("dutch").join("a", "b")
    h.adjust("a", 1000).adjust("b", 1000)
    seen = []
    for _ in range(5):
        h.win("a", "b")
        h.tick(HOUR)
        seen.append(h.rating("a") - 1000)
    assert seen == [16, 24, 28, 30, 31]
    assert h.rating("b") == 1000 - 31


def test_series_uses_ratings_before_its_first_game_even_with_others_between() -> None:
    h = History("dutch").join("a", "b", "c")
    h.adjust("a", 1000).adjust("b", 1000).adjust("c", 1000)
    h.win("a", "b")  # series a-b, game 1: +16
    h.tick(HOUR)
    h.win("a", "c")  # a different pair: a 1016 vs c 1000: round(32 * (1 - 0.523)) = 15
    assert h.rating("a") == 1031
    h.tick(HOUR)
    h.win("a", "b")  # game 2 of a-b from 1000/1000: 32 * 1.5 * 0.5 = 24 replaces 16
    assert h.rating("a") == 1031 + 8
    assert h.rating("b") == 1000 - 24


def test_series_ends_after_its_window() -> None:
    h = History("dutch").join("a", "b")
    h.adjust("a", 1000).adjust("b", 1000)
    h.win("a", "b")
    h.tick(24 * HOUR)  # the window is 24 hours from the series' first game
    h.win("a", "b")
    # a new series from 1016 / 984: round(32 * (1 - 0.5230)) = 15
    assert h.ratings("a", "b") == [1031, 969]


def test_series_long_finished_are_forgotten(monkeypatch: pytest.MonkeyPatch) -> None:
    import core.domain.pairs

    def play() -> History:
        h = History("dutch").join("a", "b", "c")
        h.win("a", "b")  # event 4: the a-b series begins
        h.tick(40 * DAY)  # past its 24 hours and the 30 days kept for late confirmations
        h.win("a", "c")
        h.win("c", "b")
        h.join("d")
        return h.join("e")  # event 8

    kept = play()
    assert set(kept.state().series) == {(1, 2), (1, 3), (2, 3)}
    monkeypatch.setattr(core.domain.pairs, "FARM_PRUNE_EVERY", 4)
    pruned = play()  # pruning at event 8 forgets the a-b series, 40 days back
    assert set(pruned.state().series) == {(1, 3), (2, 3)}
    assert pruned.ratings("a", "b", "c") == kept.ratings("a", "b", "c")


def test_series_with_a_draw_and_a_loss() -> None:
    h = History("dutch").join("a", "b")
    h.adjust("a", 1000).adjust("b", 1000)
    h.win("a", "b")
    h.draw("a", "b")  # S = 1.5 / 2 = 0.75: 32 * 1.5 * 0.25 = 12
    assert h.ratings("a", "b") == [1012, 988]
    h.win("b", "a")  # S = 1.5 / 3 = 0.5: change 0
    assert h.ratings("a", "b") == [1000, 1000]
