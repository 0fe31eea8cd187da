"""Tournaments through the console's commands (issue 53), each script's pairings and
standings worked by hand from RULES.md ("Tournaments on a ladder") in the docstrings,
never taken from the bot's output."""

from __future__ import annotations

import re

from core.domain.calendar import HOUR
from storage.memory.store import MemoryStore
from tests.support.chat import Chat

PLAYERS = ["ann", "bob", "cat", "dan", "eve"]  # seeds 1-5: equal ratings, joining order


async def _field(fmt: str, *options: str, players: list[str] = PLAYERS) -> Chat:
    chat = Chat(MemoryStore())
    await chat.ladder("duel", "confirm=false")
    await chat.join(*players)
    await chat.ok("mod", f"/tournament create cup format={fmt} {' '.join(options)}".strip())
    for name in players:
        await chat.ok(name, "/tournament join cup")
    return chat


def _pairs(text: str) -> list[str]:
    """A round's pairing lines as `ann-cat`, `eve:bye`, `dan:rest`."""
    found = []
    for line in text.splitlines():
        if m := re.fullmatch(r"\d+\. (\w+) – (\w+)(:.*)?", line):
            found.append(f"{m[1]}-{m[2]}")
        elif m := re.fullmatch(r"\d+\. (\w+): (bye|rests).*", line):
            found.append(f"{m[1]}:{m[2]}")
    return found


def _round(text: str, number: int) -> list[str]:
    """The pairings of round `number` as a reply or announcement lists them."""
    part = text.split(f"Round {number} of ", 1)[1]
    part = part.split("\n", 1)[1].split("\n\n")[0]
    return _pairs(re.split(r"\nRound \d+ of ", part)[0])


async def test_a_swiss_tournament_worked_by_hand() -> None:
    """Five players, three rounds.
    R1: the lowest seed (eve) has the bye; the four others top half against bottom half:
        ann-cat, bob-dan. ann beats cat; bob and dan draw.
    R2: ann 1, eve 1, bob .5, dan .5, cat 0. cat (lowest, no bye yet) has the bye. The
        ideal ann-eve, bob-dan would repeat bob-dan: the least score difference (1 point)
        pairs ann with bob or dan; ann, placed first, gets the one nearest eve: bob. So
        ann-bob, eve-dan. bob says ready, ann does not, nobody plays; eve beats dan; a
        moderator voids bob-dan (R1): its pairing stands without a result.
    R3: at the deadline ann-bob is bob's by forfeit. eve 2, ann 1, bob 1, cat 1, dan 0:
        dan has the bye; eve (alone on 2) floats to the next group's highest: eve-ann,
        bob-cat. ann beats eve, cat beats bob. It is over: ann, eve and cat on 2, ann's
        Buchholz highest (cat 2 + bob 1 + eve 2 = 5 against 3 and 3): ann wins.
    Then a moderator gives R1's ann-cat to cat. Scores: cat 3, eve 2, ann 1, bob 1, dan
    1. Buchholz (opponents with a result): ann cat 3 + bob 1 + eve 2 = 6, bob ann 1 +
    cat 3 = 4 (the void counts nowhere), dan eve 2. Sonneborn-Berger: cat beat ann and
    bob, 1 + 1 = 2; eve beat dan, 1; ann beat eve, 2; bob beat ann (forfeit), 1.
    """
    chat = await _field("swiss", "rounds=3")
    started = await chat.ok("mod", "/tournament start cup")
    assert _round(started, 1) == ["ann-cat", "bob-dan", "eve:bye"]
    assert "It counts for cup, round 1" in await chat.ok("ann", "/report win @cat")
    reply = await chat.say("bob", "/report draw @dan")
    assert reply is not None and not reply.error
    second = reply.said
    assert _round(second, 2) == ["ann-bob", "eve-dan", "cat:bye"]
    # the round it opened calls its paired players (not cat, who rests)
    assert sorted(reply.notify) == ["console:ann", "console:bob", "console:dan", "console:eve"]
    assert "bob is ready" in await chat.ok("bob", "/tournament ready")
    await chat.ok("eve", "/report win @dan")
    await chat.ok("mod", "/mod void 2 wrong game")
    said = "\n".join(a.text for a in await chat.tick(73 * HOUR))
    assert "ann – bob: 0–1 by forfeit" in said
    assert _round(said, 3) == ["eve-ann", "bob-cat", "dan:bye"]
    await chat.ok("ann", "/report win @eve")
    over = await chat.ok("cat", "/report win @bob")
    assert "cup is over. Winner: ann" in over  # (before the correction below)
    await chat.ok("mod", "/mod set 1 @cat misread")
    table = await chat.ok("ann", "/tournament cup")
    assert "cup is over. Winner: cat." in table
    assert [line for line in table.splitlines() if re.match(r"\d\. \w+ \d", line)] == [
        "1. cat 3 (Buchholz 2, SB 2)", "2. eve 2 (Buchholz 2, SB 1)",
        "3. ann 1 (Buchholz 6, SB 2)", "4. bob 1 (Buchholz 4, SB 1)",
        "5. dan 1 (Buchholz 2, SB 0)"]
    [cup] = (await chat.export())["tournaments"]
    assert (cup["name"], cup["format"], cup["status"]) == ("cup", "swiss", "finished")
    assert [[(g["players"], g["result"]) for g in r] for r in cup["rounds"]] == [
        [(["ann", "cat"], "0-1"), (["bob", "dan"], None), (["eve"], "bye")],
        [(["ann", "bob"], "forfeit"), (["eve", "dan"], "1-0"), (["cat"], "bye")],
        [(["eve", "ann"], "0-1"), (["bob", "cat"], "0-1"), (["dan"], "bye")]]
    assert cup["rounds"][0][0]["match"] == 1
    assert cup["standings"][:3] == [
        {"name": "cat", "score": 3, "buchholz": 2, "sonneborn_berger": 2},
        {"name": "eve", "score": 2, "buchholz": 2, "sonneborn_berger": 1},
        {"name": "ann", "score": 1, "buchholz": 6, "sonneborn_berger": 2}]


async def test_a_round_robin_of_three_rests_one_a_round() -> None:
    """Three players: Berger's table for four, number 4 the rest. R1: 1-4 2-3 -> ann rests,
    bob-cat. R2: 4-3 1-2 -> cat rests, ann-bob. R3: 2-4 3-1 -> bob rests, cat-ann.
    bob beats cat, ann beats bob, cat and ann draw: ann 1.5, bob 1, cat 0.5."""
    chat = await _field("roundrobin", players=PLAYERS[:3])
    started = await chat.ok("mod", "/tournament start")
    assert _round(started, 1) == ["ann:rests", "bob-cat"]
    second = await chat.ok("bob", "/report win @cat")
    assert _round(second, 2) == ["cat:rests", "ann-bob"]
    third = await chat.ok("ann", "/report win @bob")
    assert _round(third, 3) == ["bob:rests", "cat-ann"]
    over = await chat.ok("cat", "/report draw @ann")
    assert "cup is over. Winner: ann" in over
    table = await chat.ok("bob", "/tournament")
    assert re.findall(r"\d\. (\w+) ([\d.]+) \(among", table) == [
        ("ann", "1.5"), ("bob", "1"), ("cat", "0.5")]


async def test_single_elimination_gives_byes_to_the_top_seeds_and_reopens_on_a_change(
) -> None:
    """Five players, a bracket of eight: seeds 1-3 (ann, bob, cat) walk over their byes;
    round 1 is dan-eve alone. eve wins; round 2: ann-eve and bob-cat. A draw is refused.
    ann and bob win; the final ann-bob opens. A moderator then gives dan-eve to dan:
    ann-eve is re-opened as ann-dan and its result dropped, and the final waits."""
    chat = await _field("single")
    started = await chat.ok("mod", "/tournament start")
    assert _round(started, 1) == ["dan-eve"]
    [cup] = (await chat.export())["tournaments"]
    assert cup["bracket"][0] == [  # a bye: one player, and that player the winner
        {"players": ["ann"], "winner": "ann", "match": None},
        {"players": ["dan", "eve"], "winner": None, "match": None},
        {"players": ["bob"], "winner": "bob", "match": None},
        {"players": ["cat"], "winner": "cat", "match": None}]
    second = await chat.ok("eve", "/report win @dan")
    assert _round(second, 2) == ["ann-eve", "bob-cat"]
    assert "a draw decides nothing" in await chat.refused("ann", "/report draw @eve")
    await chat.ok("ann", "/report win @eve")
    final = await chat.ok("bob", "/report win @cat")
    assert _round(final, 3) == ["ann-bob"]
    changed = await chat.ok("mod", "/mod set 1 @dan misread")
    assert "Re-opened in cup" in changed and "ann – eve" in changed
    shown = await chat.ok("ann", "/tournament")
    assert "ann – dan: to play" in shown
    assert "It counts for cup, round 2" in await chat.ok("ann", "/report win @dan")


async def test_a_finished_bracket_runs_again_when_a_changed_result_reopens_its_final(
) -> None:
    """Four players: ann-dan and bob-cat (1 v 4, 2 v 3); ann and bob win, ann wins the
    final: over. A moderator gives bob-cat (#2) to cat: the final ann-bob was played by the
    wrong player, so it is re-opened as ann-cat and the tournament runs again, its round
    given a new deadline; cat wins it and the tournament."""
    chat = await _field("single", players=PLAYERS[:4])
    assert _round(await chat.ok("mod", "/tournament start"), 1) == ["ann-dan", "bob-cat"]
    await chat.ok("ann", "/report win @dan")
    await chat.ok("bob", "/report win @cat")
    assert "cup is over. Winner: ann" in await chat.ok("ann", "/report win @bob")
    reply = await chat.say("mod", "/mod set 2 @cat misread")
    assert reply is not None and not reply.error
    assert "Re-opened in cup" in reply.said and "ann – bob" in reply.said
    assert _round(reply.said, 2) == ["ann-cat"]
    assert "to play by 2026-01-08" in reply.said and sorted(reply.notify) == [
        "console:ann", "console:cat"]
    assert "It counts for cup, round 2" in await chat.ok("cat", "/report win @ann")
    assert "Winner: cat" in await chat.ok("ann", "/tournament")


async def test_a_voided_final_is_played_again() -> None:
    chat = await _field("single", players=PLAYERS[:2])
    await chat.ok("mod", "/tournament start")
    assert "cup is over. Winner: ann" in await chat.ok("ann", "/report win @bob")
    voided = await chat.ok("mod", "/mod void 1 wrong players")
    assert "Re-opened in cup" in voided and _round(voided, 1) == ["ann-bob"]
    assert "cup is over. Winner: bob" in await chat.ok("bob", "/report win @ann again")


async def test_double_elimination_of_four_with_the_second_final() -> None:
    """W1: ann-dan, bob-cat; ann and cat win. W2 ann-cat and L1 dan-bob: ann and bob win.
    L2: bob-cat (cat dropped from W2): cat wins. The final ann-cat: cat wins, so a second
    final: ann wins it and the tournament. Order: ann, cat, bob (out in L2), dan (L1)."""
    chat = await _field("double", players=PLAYERS[:4])
    started = await chat.ok("mod", "/tournament start")
    assert _round(started, 1) == ["ann-dan", "bob-cat"]
    await chat.ok("ann", "/report win @dan")
    second = await chat.ok("cat", "/report win @bob")
    assert _round(second, 2) == ["ann-cat", "dan-bob"]
    await chat.ok("ann", "/report win @cat")
    third = await chat.ok("bob", "/report win @dan")
    assert _round(third, 3) == ["bob-cat"]
    final = await chat.ok("cat", "/report win @bob")
    assert _round(final, 4) == ["ann-cat"]
    reset = await chat.ok("cat", "/report win @ann")
    assert _round(reset, 5) == ["cat-ann"]
    assert "Winner: ann" in await chat.ok("ann", "/report win @cat")
    table = await chat.ok("dan", "/tournament")
    assert re.findall(r"\d\. (\w+) \(won", table) == ["ann", "cat", "bob", "dan"]
    [cup] = (await chat.export())["tournaments"]

    def games(rounds: list) -> list:  # type: ignore[type-arg]
        return [[(g["players"], g["winner"]) for g in r] for r in rounds]
    assert games(cup["bracket"]["winners"]) == [
        [(["ann", "dan"], "ann"), (["bob", "cat"], "cat")], [(["ann", "cat"], "ann")]]
    assert games(cup["bracket"]["losers"]) == [[(["dan", "bob"], "bob")],
                                               [(["bob", "cat"], "cat")]]
    assert games(cup["bracket"]["final"]) == [[(["ann", "cat"], "cat")],
                                              [(["cat", "ann"], "ann")]]


async def test_reports_outside_the_pairings_count_for_the_ladder_only() -> None:
    chat = await _field("swiss", "rounds=1", "rated=false", players=PLAYERS[:4])
    await chat.ok("mod", "/tournament start")  # ann-cat, bob-dan
    outside = await chat.ok("ann", "/report win @bob")
    assert "counts for cup" not in outside and "1016" in outside  # rated on the ladder
    inside = await chat.ok("ann", "/report win @cat")
    assert "It counts for cup, round 1" in inside and "1000 -> 1000" not in inside
    assert "not rated" in inside or "unrated" in inside.lower()
    again = await chat.ok("cat", "/report win @ann")  # their pairing has its result
    assert "counts for cup" not in again


async def test_who_may_do_what() -> None:
    chat = await _field("swiss", players=PLAYERS[:2])
    await chat.refused("ann", "/tournament create other format=single")
    await chat.refused("zed", "/tournament join cup")  # not on the ladder
    await chat.ok("mod", "/tournament create second format=roundrobin")
    assert "Which tournament" in await chat.refused("ann", "/tournament leave")
    await chat.refused("mod", "/tournament create CUP format=swiss")  # the name is taken
    await chat.refused("mod", "/tournament create x format=knockout")
    await chat.refused("mod", "/tournament create x format=single rounds=3")
    await chat.refused("mod", "/tournament create x format=swiss bestof=2")
    await chat.refused("mod", "/tournament start second")  # nobody joined
    cancelled = await chat.ok("mod", "/tournament cancel second nobody came")
    assert "cancelled: nobody came" in cancelled
    history = await chat.ok("ann", "/history")
    assert "mod cancelled tournament second: nobody came" in history
    assert "mod created tournament second" in history
    assert "ann left cup (1 player left)" in await chat.ok("ann", "/tournament leave")


async def test_deadlines_after_downtime_apply_once_each_in_order() -> None:
    """Four players, two rounds of 48 hours, and the bot down for six days. R1 ann-cat,
    bob-dan; only ann said ready: ann wins by forfeit, bob and dan both lose. R2 (opened
    at R1's deadline): ann alone on 1 floats to the next group's highest, bob; cat-dan.
    Nobody plays: both games lost by both. Each round's reminder came a day before its
    deadline; then it is over, and more time changes nothing."""
    chat = await _field("swiss", "rounds=2", "round_hours=48", players=PLAYERS[:4])
    await chat.ok("mod", "/tournament start")
    await chat.ok("ann", "/tournament ready")
    said = [a.text for a in await chat.tick(6 * 24 * HOUR)]
    assert [text.split("\n")[0] for text in said] == [
        "Round 1 of cup ends 2026-01-07 10:00 UTC. Still to play:",
        "Round 1 of cup reached its deadline. Not played:",
        "Round 2 of cup ends 2026-01-09 10:00 UTC. Still to play:",
        "Round 2 of cup reached its deadline. Not played:"]
    assert "1. ann – cat: 1–0 by forfeit" in said[1] and "2. bob – dan: both lost" in said[1]
    assert _round(said[1], 2) == ["ann-bob", "cat-dan"]
    assert "cup is over. Winner: ann" in said[3]
    assert all("cup" not in a.text for a in await chat.tick(6 * 24 * HOUR))


async def test_a_best_of_three_tournament_takes_decided_matches() -> None:
    """bestof=3: a match counts with its score, the winner's two games first; a single
    game or an undecided score is refused, saying how to report it."""
    chat = await _field("single", "bestof=3", players=PLAYERS[:2])
    await chat.ok("mod", "/tournament start")
    assert "best of 3" in await chat.refused("ann", "/report win @bob")
    assert "best of 3" in await chat.refused("ann", "/report win @bob 1-0")
    won = await chat.ok("ann", "/report win @bob 2-1")
    assert "It counts for cup, round 1" in won and "Winner: ann" in won


async def test_a_bracket_game_both_forfeited_says_so() -> None:
    chat = await _field("single", players=PLAYERS[:2])
    await chat.ok("mod", "/tournament start")
    said = "\n".join(a.text for a in await chat.tick(73 * HOUR))
    assert "1. ann – bob: both lost by forfeit" in said
    assert "cup is over, without a winner: its final was not played." in said
    assert "W1 #1: ann – bob: both lost by forfeit" in await chat.ok("ann", "/tournament")


async def test_a_double_forfeit_in_double_elimination_puts_both_out() -> None:
    """Our reading where RULES.md is silent: both lose, but the losers' bracket has one
    place for a game's loser, and neither came to play, so both are out. Four players:
    W1 ann-dan (nobody plays), bob-cat (cat wins). W2 is cat's walkover, L1 bob's (the
    place of ann-dan's loser is empty), L2 bob's again: the grand final cat-bob."""
    chat = await _field("double", players=PLAYERS[:4])
    await chat.ok("mod", "/tournament start")
    await chat.ok("cat", "/report win @bob")
    said = "\n".join(a.text for a in await chat.tick(73 * HOUR))
    assert "1. ann – dan: both lost by forfeit" in said
    assert _round(said, 4) == ["cat-bob"]
    table = await chat.ok("ann", "/tournament")
    assert "Final #6: cat – bob: to play" in table


async def test_a_report_names_its_tournament_where_two_pair_the_same_players() -> None:
    """Two tournaments pair ann and bob: a report without tournament= is refused with
    the choices; tournament=none keeps a friendly game off both; tournament=plate counts
    for plate; then cup is the only one left, and a report counts for it by itself."""
    chat = await _field("swiss", "rounds=1", players=PLAYERS[:2])
    await chat.ok("mod", "/tournament create plate format=single")
    for name in PLAYERS[:2]:
        await chat.ok(name, "/tournament join plate")
    await chat.ok("mod", "/tournament start cup")
    await chat.ok("mod", "/tournament start plate")
    asked = await chat.refused("ann", "/report win @bob")
    assert "Which tournament does this game count for: cup and plate?" in asked
    friendly = await chat.ok("ann", "/report win @bob tournament=none")
    assert "counts for" not in friendly
    assert "main has no tournament called elsewhere." in await chat.refused(
        "bob", "/report win @ann again tournament=elsewhere")
    counted = await chat.ok("bob", "/report win @ann again tournament=PLATE")
    assert "It counts for plate, round 1" in counted and "plate is over. Winner: bob!" in counted
    assert "plate has no game to play between ann and bob" in await chat.refused(
        "ann", "/report win @bob again tournament=plate")
    assert "It counts for cup, round 1" in await chat.ok("ann", "/report win @bob again")
