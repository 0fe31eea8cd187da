"""RULES.md section 4: the nhwc position ladder."""

import pytest

from core.domain import position
from core.domain.model import Margin
from tests.support.history import History


def ladder(n: int) -> History:
    """A position ladder with players p1..pn on rungs 1..n (joined in that order)."""
    return History("nhwc").join(*(f"p{i}" for i in range(1, n + 1)))


def test_newcomers_join_at_the_bottom() -> None:
    h = ladder(3)
    assert h.rungs() == ["p1", "p2", "p3"]
    h.join("new")
    assert h.rungs() == ["p1", "p2", "p3", "new"]


@pytest.mark.parametrize(
    ("own", "opponent", "case"),
    [(1, 5, 1), (1, 9, 1), (1, 4, 2), (1, 3, 2), (1, 2, 3), (2, 1, 4), (3, 1, 5), (4, 1, 5),
     (5, 1, 6), (9, 1, 6)],
)
def test_case_by_rung_gap(own: int, opponent: int, case: int) -> None:
    assert position.case_for(own, opponent) == case


# The move table of RULES.md, row by row, as the rules read it: for each case, the
# move for overwhelming/major/minor defeat, draw, minor/major/overwhelming victory.
RULES_TABLE = {
    1: (-3, -2, -1, -1, 0, 0, 1),
    2: (-2, -1, -1, 0, 0, 1, 1),
    3: (-1, -1, 0, 0, 1, 1, 2),
    4: (-1, 0, 0, 1, 1, 2, 2),
    5: (0, 0, 1, 1, 2, 2, 3),
    6: (0, 1, 1, 2, 2, 3, 3),
}
RESULTS = [(False, Margin.OVERWHELMING), (False, Margin.MAJOR), (False, Margin.MINOR),
           (None, None), (True, Margin.MINOR), (True, Margin.MAJOR), (True, Margin.OVERWHELMING)]


@pytest.mark.parametrize("case", range(1, 7))
def test_move_table(case: int) -> None:
    from core.domain.settings import preset

    table = preset("nhwc").moves_table
    moves = tuple(position.move_for(table, case, won, margin) for won, margin in RESULTS)
    assert moves == RULES_TABLE[case]


def test_example_case_1_minor_defeat() -> None:
    # A player 4 rungs above the opponent (case 1) suffers a minor defeat: down 1;
    # the winner (case 6) goes up 2.
    h = ladder(6)
    h.win("p5", "p1", margin="minor")
    rungs = h.rungs()
    assert rungs.index("p1") + 1 == 2
    assert rungs.index("p5") + 1 == 3
    assert rungs == ["p2", "p1", "p5", "p3", "p4", "p6"]


def test_example_rungs_5_and_7_major_victory() -> None:
    # The higher (case 2) wins a major victory and goes up 1; the lower (case 5) stays.
    h = ladder(8)
    h.win("p5", "p7", margin="major")
    rungs = h.rungs()
    assert rungs.index("p5") + 1 == 4
    assert rungs.index("p7") + 1 == 7
    assert rungs == ["p1", "p2", "p3", "p5", "p4", "p6", "p7", "p8"]


def test_draw_carries_no_margin_and_uses_draw_column() -> None:
    # rungs 2 and 6: gap 4 -> cases 1 and 6; draw moves -1 and +2.
    h = ladder(6)
    h.draw("p2", "p6")
    rungs = h.rungs()
    assert rungs.index("p2") + 1 == 3
    assert rungs.index("p6") + 1 == 4


def test_equal_targets_put_the_winner_above() -> None:
    # rungs 2 and 5 (gap 3: cases 2 and 5): p5 wins minor: +2 -> 3; p2 minor defeat:
    # -1 -> 3. Equal targets: the winner goes above.
    h = ladder(6)
    h.win("p5", "p2", margin="minor")
    assert h.rungs() == ["p1", "p3", "p5", "p2", "p4", "p6"]


def test_equal_targets_on_a_draw_put_the_higher_starter_above() -> None:
    # rungs 1 and 3 (gap 2: cases 2 and 5): draw moves 0 and +1 -> targets 1 and 2.
    # Not equal; rungs 1 and 2 (cases 3 and 4) draw: 0 and +1 -> targets 1 and 1.
    h = ladder(3)
    h.draw("p2", "p1")
    assert h.rungs() == ["p1", "p2", "p3"]


def test_targets_are_clamped_to_the_ladder() -> None:
    # rungs 1 and 2: p2 (case 4) overwhelming victory +2 -> target 0, clamped to 1;
    # p1 (case 3) overwhelming defeat -1 -> 2.
    h = ladder(3)
    h.win("p2", "p1", margin="overwhelming")
    assert h.rungs() == ["p2", "p1", "p3"]
    # rungs 2 and 3: p1 (case 3) beats p3 (case 4) overwhelming: p1 +2 -> 0, clamped
    # to 1; p3 -1 -> 4, clamped to 3.
    h.win("p1", "p3", margin="overwhelming")
    assert h.rungs() == ["p1", "p2", "p3"]


def test_case_comes_from_logged_rungs_and_moves_apply_to_current_rungs() -> None:
    h = ladder(8)
    challenge = h.accept("p7", "p3")  # logged: p7 on 7, p3 on 3: gap 4: cases 6 and 1
    # Meanwhile p3 drops: p4 beats p3 minor (rungs 3, 4: cases 3 and 4).
    h.win("p4", "p3", margin="minor")
    # p4 case 4 minor victory +1 -> 3; p3 case 3 minor defeat 0 -> 3 (winner above): p3 on 4.
    assert h.rungs() == ["p1", "p2", "p4", "p3", "p5", "p6", "p7", "p8"]
    h.win("p7", "p3", margin="minor", challenge=challenge)
    # From the logged cases: p7 (case 6) minor victory +2: 7 -> 5; p3 (case 1) minor
    # defeat -1: current rung 4 -> 5. Equal targets: the winner above.
    assert h.rungs() == ["p1", "p2", "p4", "p5", "p7", "p3", "p6", "p8"]


def test_forfeit_is_a_minor_defeat_of_the_challenged() -> None:
    h = ladder(6)
    h.win("p6", "p2", margin="minor", forfeit=True)  # challenger p6 (case 6), p2 case 1
    rungs = h.rungs()
    assert rungs.index("p6") + 1 == 4  # +2
    assert rungs.index("p2") + 1 == 3  # -1


def test_leaving_closes_the_gap_and_rejoining_goes_to_the_bottom() -> None:
    h = ladder(4)
    h.leave("p2")
    assert h.rungs() == ["p1", "p3", "p4"]
    h.join("p2")
    assert h.rungs() == ["p1", "p3", "p4", "p2"]


def test_moderator_adjusts_rungs() -> None:
    h = ladder(5)
    h.adjust("p5", 2)
    assert h.rungs() == ["p1", "p2", "p5", "p3", "p4"]
    h.adjust("p1", -10)
    assert h.rungs() == ["p2", "p5", "p3", "p4", "p1"]


def test_unrated_result_moves_no_rungs() -> None:
    h = ladder(6)
    h.win("p6", "p1", margin="overwhelming", rated=False)
    assert h.rungs() == ["p1", "p2", "p3", "p4", "p5", "p6"]
