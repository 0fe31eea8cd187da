"""Swiss pairing (RULES.md): among all pairings without a rematch, one with the smallest
total of the pairs' score differences; among those, the one nearest to pairing each
score group's top half against its bottom half in seed order.

"Nearest" (RULES.md leaves it open): the ideal pairing (`ideal`) walks the score groups
from the top: an odd group's lowest-placed player floats down and meets the next group's
highest; the rest of a group pairs top half against bottom half (1 v 5, 2 v 6, ... in a
group of 8). Players are then served in placement order: the highest placed gets the
partner placed nearest their ideal one (at equal distance, the lower placed), then the
next, and so on.

The pairing is a minimum-cost perfect matching (networkx's blossom algorithm, exact on
integer weights). Both rules are one cost: each player's distance from their ideal
partner is a digit, the highest placed player's the most significant, and the pair's
score difference weighs more than all the digits together.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from itertools import groupby

from core.domain.model import PlayerId

Pair = tuple[PlayerId, PlayerId | None]  # the higher placed first; None: the bye


def placed(seeds: Sequence[PlayerId], scores: Mapping[PlayerId, int]) -> list[PlayerId]:
    """The players by score (highest first), then seed."""
    seed = {p: i for i, p in enumerate(seeds)}
    return sorted(seeds, key=lambda p: (-scores.get(p, 0), seed[p]))


def pair_round(seeds: Sequence[PlayerId], scores: Mapping[PlayerId, int],
               met: Collection[frozenset[PlayerId]], byes: Collection[PlayerId]
               ) -> list[Pair] | None:
    """The next round's pairs, in board order, the bye last; None where no pairing
    without a rematch exists. `scores` in halves; `met`, the pairs already paired."""
    order = placed(seeds, scores)
    if len(order) % 2 == 0:
        pairs = _matched(order, scores, met)
        return None if pairs is None else pairs
    # The lowest placed without a bye rests; the next one up, if the rest cannot pair.
    had = set(byes)
    candidates = [p for p in reversed(order) if p not in had] or list(reversed(order))
    for rest in candidates:
        pairs = _matched([p for p in order if p != rest], scores, met)
        if pairs is not None:
            return [*pairs, (rest, None)]
    return None


def ideal(order: Sequence[PlayerId], scores: Mapping[PlayerId, int]) -> dict[PlayerId,
                                                                              PlayerId]:
    """Each player's partner in the pairing the second rule prefers (see the module)."""
    partner: dict[PlayerId, PlayerId] = {}
    floater: PlayerId | None = None
    for _, group in groupby(order, key=lambda p: scores.get(p, 0)):
        members = list(group)
        if floater is not None:
            top = members.pop(0)
            partner[floater], partner[top] = top, floater
            floater = None
        if len(members) % 2:
            floater = members.pop()
        half = len(members) // 2
        for upper, lower in zip(members[:half], members[half:], strict=True):
            partner[upper], partner[lower] = lower, upper
    return partner


def _matched(order: list[PlayerId], scores: Mapping[PlayerId, int],
             met: Collection[frozenset[PlayerId]]) -> list[Pair] | None:
    """A perfect matching of `order` (an even number) at the least cost, or None."""
    if not order:
        return []
    place = {p: i for i, p in enumerate(order)}
    prefer = ideal(order, scores)
    size = len(order)
    base = 2 * size  # above any one player's digit
    digit = [base ** (size - 1 - i) for i in range(size)]

    def missed(me: PlayerId, partner: PlayerId) -> int:
        """`me`'s digit: 0 for the ideal partner, else 2·distance (less one below it)."""
        away = place[partner] - place[prefer[me]]
        return 0 if away == 0 else 2 * abs(away) - (1 if away > 0 else 0)

    step = base ** size  # a half point of score difference outweighs every digit
    costs = {}
    for i, x in enumerate(order):
        for y in order[i + 1:]:
            if frozenset((x, y)) not in met:
                costs[(x, y)] = step * abs(scores.get(x, 0) - scores.get(y, 0)) \
                    + missed(x, y) * digit[place[x]] + missed(y, x) * digit[place[y]]
    top = max(costs.values(), default=0) + 1
    import networkx as nx  # (a tenth of a second to import: wanted only here)

    graph: nx.Graph[int] = nx.Graph()
    graph.add_nodes_from(range(size))
    for (x, y), cost in costs.items():
        graph.add_edge(place[x], place[y], weight=top - cost)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    if 2 * len(matching) < size:
        return None
    pairs = [(order[min(i, j)], order[max(i, j)]) for i, j in matching]
    return [(x, y) for x, y in sorted(pairs, key=lambda pair: place[pair[0]])]
