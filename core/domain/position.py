"""The position ladder of the nhwc rulebook (RULES.md section 4).

Rungs count from 1 at the top. A ladder's order is a list of player ids, top first.
"""

from __future__ import annotations

from collections.abc import Sequence

from core.domain.model import Margin, PlayerId, Result

# Column of the move table for a player's own result.
_DEFEAT = {Margin.OVERWHELMING: 0, Margin.MAJOR: 1, Margin.MINOR: 2}
_DRAW = 3
_VICTORY = {Margin.MINOR: 4, Margin.MAJOR: 5, Margin.OVERWHELMING: 6}


def case_for(own_rung: int, opponent_rung: int) -> int:
    """The case (1-6) of a player from both logged rungs.

    1: 4 or more above the opponent; 2: 2-3 above; 3: 1 above;
    4: 1 below; 5: 2-3 below; 6: 4 or more below.
    """
    above = opponent_rung - own_rung
    if above == 0:
        raise ValueError("two players cannot hold the same rung")
    if above >= 4:
        return 1
    if above >= 2:
        return 2
    if above == 1:
        return 3
    if above == -1:
        return 4
    if above >= -3:
        return 5
    return 6


def column_for(won: bool | None, margin: Margin | None) -> int:
    """Column of the move table: `won` is None for a draw."""
    if won is None:
        return _DRAW
    m = margin or Margin.MINOR
    return _VICTORY[m] if won else _DEFEAT[m]


def move_for(table: Sequence[Sequence[int]], case: int, won: bool | None,
             margin: Margin | None) -> int:
    """Rungs moved (+ is up) for a case and a result."""
    return table[case - 1][column_for(won, margin)]


def place_pair(
    order: Sequence[PlayerId],
    first: PlayerId,
    second: PlayerId,
    move_first: int,
    move_second: int,
) -> list[PlayerId]:
    """Apply both players' moves at once and return the new order.

    Both players leave the ladder, everyone else keeps their order, then each goes back
    at its target rung (current rung minus its move, clamped), the smaller target first.
    On equal targets `first` goes above: callers pass the winner (on a draw, the player
    who started higher) as `first`.
    """
    n = len(order)
    target_first = min(max(order.index(first) + 1 - move_first, 1), n)
    target_second = min(max(order.index(second) + 1 - move_second, 1), n)
    rest = [p for p in order if p != first and p != second]
    placed = sorted(
        ((target_first, 0, first), (target_second, 1, second))
    )
    (t1, _, p1), (t2, _, p2) = placed
    i1 = min(t1 - 1, len(rest))
    rest.insert(i1, p1)
    # The second target is never above the first; on a tie it goes just below.
    rest.insert(min(max(t2 - 1, i1 + 1), len(rest)), p2)
    return rest


def moved_order(
    order: Sequence[PlayerId],
    result: Result,
    table: Sequence[Sequence[int]],
    logged: tuple[int, int] | None = None,
) -> tuple[list[PlayerId], int, int]:
    """New order after a one-on-one result, with both players' cases.

    `logged` holds the rungs of `result.sides[0][0]` and `result.sides[1][0]` logged
    when the challenge was accepted; without it the current rungs decide the case.
    """
    a, b = result.sides[0][0], result.sides[1][0]
    rung_a, rung_b = logged if logged is not None else (order.index(a) + 1, order.index(b) + 1)
    case_a, case_b = case_for(rung_a, rung_b), case_for(rung_b, rung_a)
    if result.draw:
        move_a = move_for(table, case_a, None, None)
        move_b = move_for(table, case_b, None, None)
        # On a draw the player who started higher goes above on equal targets.
        a_higher = order.index(a) < order.index(b)
    else:
        move_a = move_for(table, case_a, True, result.margin)
        move_b = move_for(table, case_b, False, result.margin)
        a_higher = True  # `a` is the winner
    if a_higher:
        new_order = place_pair(order, a, b, move_a, move_b)
    else:
        new_order = place_pair(order, b, a, move_b, move_a)
    return new_order, case_a, case_b


def shift(order: Sequence[PlayerId], player: PlayerId, up: int) -> list[PlayerId]:
    """Move one player `up` rungs (negative: down), clamped to the ladder."""
    rest = [p for p in order if p != player]
    target = min(max(order.index(player) - up, 0), len(rest))
    rest.insert(target, player)
    return rest
