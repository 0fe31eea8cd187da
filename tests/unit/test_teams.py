"""The queue's balanced split (issue 27) against brute force: every way of dealing the
players into two teams, the smallest gap between the teams' mean ratings."""

from __future__ import annotations

from itertools import permutations

from hypothesis import given, settings
from hypothesis import strategies as st

from core.domain.teams import balanced, gap


def brute_force(ratings: dict[int, float], size: int) -> float:
    """The smallest mean gap over every ordering of the players, cut in half."""
    best = float("inf")
    for order in permutations(ratings):
        first, second = order[:size], order[size:]
        best = min(best, abs(sum(ratings[p] for p in first) / size
                             - sum(ratings[p] for p in second) / size))
    return best


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 4).flatmap(lambda n: st.lists(
    st.integers(0, 3000).map(float), min_size=2 * n, max_size=2 * n)))
def test_the_split_has_the_smallest_gap_of_all(values: list[float]) -> None:
    players = list(range(10, 10 + len(values)))
    rating = dict(zip(players, values, strict=True))
    teams = balanced(players, values)
    size = len(values) // 2
    assert sorted(teams[0] + teams[1]) == players
    assert len(teams[0]) == len(teams[1]) == size
    assert teams[0][0] == players[0]  # who waited longest leads the first team
    assert abs(gap(teams, rating) - brute_force(rating, size)) < 1e-9


def test_five_a_side_against_every_split() -> None:
    # 10 players: 10! orderings are too many; every choice of the first team is 252.
    from itertools import combinations

    values = [1510, 1200, 1830, 990, 1400, 1666, 1020, 1300, 1777, 1111]
    players = list(range(10))
    rating = dict(zip(players, map(float, values), strict=True))
    best = min(abs(sum(values[i] for i in team) / 5
                   - sum(values[i] for i in players if i not in team) / 5)
               for team in combinations(players, 5))
    assert gap(balanced(players, [float(v) for v in values]), rating) == best


def test_worked_example_two_a_side() -> None:
    # 1400, 1000, 1300, 1100: {1400, 1000} vs {1300, 1100} is 1200 against 1200.
    assert balanced([1, 2, 3, 4], [1400.0, 1000.0, 1300.0, 1100.0]) == ((1, 2), (3, 4))
    # one a side: the only split
    assert balanced([7, 8], [1000.0, 2000.0]) == ((7,), (8,))
