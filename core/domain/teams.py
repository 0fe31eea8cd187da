"""Two teams from a full queue, balanced by rating (issue 27; CONSOLE.md): the split with
the smallest gap between the teams' mean ratings, found by trying every one."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from core.domain.model import PlayerId

Teams = tuple[tuple[PlayerId, ...], tuple[PlayerId, ...]]


def balanced(players: Sequence[PlayerId], ratings: Sequence[float]) -> Teams:
    """The split of an even number of players into two equal teams whose mean ratings
    are closest. Exhaustive: the first player's team is chosen among C(2n-1, n-1) (126
    for 5v5), since a split and its mirror are one. Ties go to the first split in queue
    order, so the same queue always gives the same match; the team of the player who
    waited longest comes first."""
    size = len(players) // 2
    assert len(players) == 2 * size == len(ratings) and size > 0
    total = sum(ratings)
    best: tuple[float, tuple[int, ...]] | None = None
    for rest in combinations(range(1, len(players)), size - 1):
        first = (0, *rest)
        # mean gap = |2 * sum(first) - total| / size: compared without the division
        gap = abs(2 * sum(ratings[i] for i in first) - total)
        if best is None or gap < best[0]:
            best = (gap, first)
    assert best is not None
    chosen = set(best[1])
    return (tuple(players[i] for i in best[1]),
            tuple(p for i, p in enumerate(players) if i not in chosen))


def gap(teams: Teams, rating: dict[PlayerId, float]) -> float:
    """The gap between the two teams' mean ratings."""
    means = [sum(rating[p] for p in team) / len(team) for team in teams]
    return abs(means[0] - means[1])
