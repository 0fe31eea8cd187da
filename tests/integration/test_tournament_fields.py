"""Tournaments at the largest field of the console scripts (17 players, odd) and at the
smallest (2), through the console's commands (issue 53). Every expected pairing and
standing is worked by hand from RULES.md ("Tournaments on a ladder") in the docstrings;
the bot's own output only tells the script whom to report."""

from __future__ import annotations

import re

from tests.integration.test_tournaments import _field as field_of
from tests.integration.test_tournaments import _round
from tests.support.chat import Chat

FIELD = [f"p{n:02d}" for n in range(1, 18)]  # seeds 1-17: equal ratings, joining order


async def _field(fmt: str, *options: str, players: list[str] = FIELD) -> Chat:
    return await field_of(fmt, *options, players=players)


def _lines(table: str) -> list[str]:
    return [line for line in table.splitlines() if re.match(r"\d+\. p\d\d \d", line)]


async def test_a_swiss_of_17_worked_by_hand() -> None:
    """R1: the bye to the lowest seed, 17; the 16 others top half against bottom half:
    1-9, 2-10, ..., 8-16. 1-9 and 2-10 are drawn, the higher seed wins the rest.
    Scores: 3-8 and 17 on 1; 1, 2, 9, 10 on ½; 11-16 on 0.
    R2: the bye to the lowest-placed without one: 16. The 1-point group (3, 4, 5, 6, 7, 8,
    17) is odd: its lowest, 17, floats down to the ½ group's highest, 1; then 3-6, 4-7,
    5-8. The ½ group left (2, 9, 10) is odd: 10 floats down to the 0 group's highest, 11;
    2-9. The 0 group left: 12-14, 13-15. No rematch anywhere; the total score difference,
    ½ + ½, is the least an odd 1-point group and an odd ½ group allow. Each game listed
    under its higher-placed player, in placing order; the bye last.
    The first-named of each R2 game wins. Final: 3, 4, 5, 17 on 2. Buchholz (the final
    scores of the opponents met): 4: 12 (1) + 7 (1) = 2; 5: 13 (1) + 8 (1) = 2; 3: 11 (0)
    + 6 (1) = 1; 17: 1 (½). Sonneborn-Berger of 4 and 5: 2 each, so seed: 4 first.
    Then a moderator gives R1's 3-11 (match 3) to 11: 3 falls to 1 point; 11 has 1.
    2 and 10 on 1½: Buchholz 10: 2 (1½) + 11 (1) = 2½, 2: 10 (1½) + 9 (½) = 2;
    Sonneborn-Berger 10: 11 beaten (1) + half of 2 drawn (¾) = 1¾; 2: 9 (½) + ¾ = 1¼."""
    chat = await _field("swiss", "rounds=2")
    started = await chat.ok("mod", "/tournament start")
    first = [f"p{a:02d}-p{a + 8:02d}" for a in range(1, 9)] + ["p17:bye"]
    assert _round(started, 1) == first
    await chat.ok("p01", "/report draw @p09")
    await chat.ok("p02", "/report draw @p10")
    for a in range(3, 8):
        await chat.ok(f"p{a:02d}", f"/report win @p{a + 8:02d}")
    second = await chat.ok("p08", "/report win @p16")
    assert _round(second, 2) == ["p03-p06", "p04-p07", "p05-p08", "p17-p01", "p02-p09",
                                 "p10-p11", "p12-p14", "p13-p15", "p16:bye"]
    for pair in _round(second, 2)[:-1]:
        winner, loser = pair.split("-")
        said = await chat.ok(winner, f"/report win @{loser}")
    assert "cup is over. Winner: p04!" in said
    assert _lines(await chat.ok("p01", "/tournament"))[:4] == [
        "1. p04 2 (Buchholz 2, SB 2)", "2. p05 2 (Buchholz 2, SB 2)",
        "3. p03 2 (Buchholz 1, SB 1)", "4. p17 2 (Buchholz 0.5, SB 0.5)"]
    changed = await chat.ok("mod", "/mod set 3 @p11 misread")
    assert "Re-derived: cup is over. Winner: p04!" in changed
    assert _lines(await chat.ok("p01", "/tournament"))[:5] == [
        "1. p04 2 (Buchholz 2, SB 2)", "2. p05 2 (Buchholz 2, SB 2)",
        "3. p17 2 (Buchholz 0.5, SB 0.5)", "4. p10 1.5 (Buchholz 2.5, SB 1.75)",
        "5. p02 1.5 (Buchholz 2, SB 1.25)"]


async def test_single_elimination_of_17_worked_by_hand() -> None:
    """A bracket of 32 in the standard order (1, 32, 16, 17, 8, 25, 9, 24, 4, 29, 13, 20,
    5, 28, 12, 21, 2, 31, 15, 18, 7, 26, 10, 23, 3, 30, 14, 19, 6, 27, 11, 22): seeds 18-32
    are missing, so 1-15 walk over and round 1 is 16-17 alone. 17 wins it. Round 2: 1-17,
    8-9, 4-13, 5-12, 2-15, 7-10, 3-14, 6-11, and the higher seed wins each but 8-9, won by
    9. Quarter-finals 1-9, 4-5, 2-7, 3-6; semi-finals 1-4, 2-3; final 1-2; the higher seed
    wins each. Winner 1; in the order, 2 (lost the final), then 3 and 4 (the semi-finals)."""
    chat = await _field("single")
    started = await chat.ok("mod", "/tournament start")
    assert _round(started, 1) == ["p16-p17"]
    second = await chat.ok("p17", "/report win @p16")
    assert _round(second, 2) == ["p01-p17", "p08-p09", "p04-p13", "p05-p12", "p02-p15",
                                 "p07-p10", "p03-p14", "p06-p11"]
    for a, b in ((1, 17), (9, 8), (4, 13), (5, 12), (2, 15), (7, 10), (3, 14)):
        await chat.ok(f"p{a:02d}", f"/report win @p{b:02d}")
    third = await chat.ok("p06", "/report win @p11")
    assert _round(third, 3) == ["p01-p09", "p04-p05", "p02-p07", "p03-p06"]
    for a, b in ((1, 9), (4, 5), (2, 7)):
        await chat.ok(f"p{a:02d}", f"/report win @p{b:02d}")
    fourth = await chat.ok("p03", "/report win @p06")
    assert _round(fourth, 4) == ["p01-p04", "p02-p03"]
    await chat.ok("p01", "/report win @p04")
    final = await chat.ok("p02", "/report win @p03")
    assert _round(final, 5) == ["p01-p02"]
    assert "cup is over. Winner: p01!" in await chat.ok("p01", "/report win @p02")
    table = await chat.ok("p05", "/tournament")
    assert re.findall(r"\d+\. (p\d\d) \(won", table)[:4] == ["p01", "p02", "p03", "p04"]


async def test_a_round_robin_of_17_meets_everyone_once_by_bergers_table() -> None:
    """FIDE's Berger table for 18, number 18 the rest: round 1 is 1-18, 2-17, 3-16, 4-15,
    5-14, 6-13, 7-12, 8-11, 9-10 (1 rests); round 2 is 18-10, 11-9, 12-8, 13-7, 14-6,
    15-5, 16-4, 17-3, 1-2 (10 rests). Seventeen rounds of eight games: the higher seed wins
    every game but 1-2, a draw, and 16-17, won by 17. Scores: 1 and 2 15½ each (½ each
    among the tied, and equal Sonneborn-Berger: the beaten 3-17 and half of the other's
    15½), so by seed; seed k from 3 to 15 17 - k; then 17 on 1 and 16 on 0."""
    chat = await _field("roundrobin")
    said = await chat.ok("mod", "/tournament start")
    assert _round(said, 1) == ["p01:rests", "p02-p17", "p03-p16", "p04-p15", "p05-p14",
                               "p06-p13", "p07-p12", "p08-p11", "p09-p10"]
    met: list[frozenset[str]] = []
    for number in range(1, 18):
        games = [pair.split("-") for pair in _round(said, number) if "-" in pair]
        if number == 2:
            assert _round(said, 2) == ["p10:rests", "p11-p09", "p12-p08", "p13-p07",
                                       "p14-p06", "p15-p05", "p16-p04", "p17-p03", "p01-p02"]
        for a, b in games:
            met.append(frozenset((a, b)))
            hi, lo = sorted((a, b))
            if (hi, lo) == ("p01", "p02"):
                said = await chat.ok(hi, f"/report draw @{lo}")
            elif (hi, lo) == ("p16", "p17"):
                said = await chat.ok(lo, f"/report win @{hi}")
            else:
                said = await chat.ok(hi, f"/report win @{lo}")
    assert len(met) == len(set(met)) == 17 * 16 // 2
    assert "cup is over. Winner: p01!" in said
    table = re.findall(r"\d+\. (p\d\d) ([\d.]+) \(among", await chat.ok("p05", "/tournament"))
    assert table[:3] == [("p01", "15.5"), ("p02", "15.5"), ("p03", "14")]
    assert table[-3:] == [("p15", "2"), ("p17", "1"), ("p16", "0")]


async def test_double_elimination_of_two_plays_the_second_final() -> None:
    """Two players: W1 1-2, 1 wins; 2, with one loss, is the losers' bracket's champion:
    the grand final 1-2, which 2 wins, so one more match decides (reset=true): 1 wins it."""
    chat = await _field("double", players=FIELD[:2])
    started = await chat.ok("mod", "/tournament start")
    assert _round(started, 1) == ["p01-p02"]
    final = await chat.ok("p01", "/report win @p02")
    assert _round(final, 2) == ["p01-p02"]
    reset = await chat.ok("p02", "/report win @p01")
    assert _round(reset, 3) == ["p02-p01"]
    assert "cup is over. Winner: p01!" in await chat.ok("p01", "/report win @p02")
