"""The tournament formats' rules (RULES.md, "Tournaments on a ladder"), worked by hand:
FIDE's Berger tables, the standard bracket, Swiss pairings and tiebreaks; then their
invariants over random tournaments (hypothesis)."""

from __future__ import annotations

from collections.abc import Callable
from random import Random

from hypothesis import given, settings
from hypothesis import strategies as st

from core.domain.tournament.bracket import (
    NOBODY,
    Filled,
    Part,
    Slot,
    build,
    champion,
    fill,
    seed_order,
)
from core.domain.tournament.model import Format, Game, Outcome
from core.domain.tournament.roundrobin import berger_round, rounds_for
from core.domain.tournament.standings import bracket_table, table
from core.domain.tournament.swiss import pair_round

A, B, DRAW = Outcome.A, Outcome.B, Outcome.DRAW


# ---------------------------------------------------------------- round robin
def test_six_players_play_fides_berger_table() -> None:
    """FIDE Handbook C.05, Annex 1, the table for 5 or 6 players."""
    fide = [[(1, 6), (2, 5), (3, 4)], [(6, 4), (5, 3), (1, 2)], [(2, 6), (3, 1), (4, 5)],
            [(6, 5), (1, 4), (2, 3)], [(3, 6), (4, 2), (5, 1)]]
    assert [berger_round(6, r) for r in range(1, 6)] == fide


def test_eight_players_first_rounds_and_an_odd_field_rests_the_highest_numbers_opponent(
) -> None:
    assert berger_round(8, 1) == [(1, 8), (2, 7), (3, 6), (4, 5)]
    assert berger_round(8, 2) == [(8, 5), (6, 4), (7, 3), (1, 2)]
    assert berger_round(8, 3) == [(2, 8), (3, 1), (4, 7), (5, 6)]
    # Five players: number 6 is the bye, so whoever it meets rests.
    assert berger_round(5, 1) == [(1, None), (2, 5), (3, 4)]
    assert berger_round(5, 2) == [(4, None), (5, 3), (1, 2)]
    assert rounds_for(5) == 5 and rounds_for(6) == 5


@given(st.integers(2, 17))
def test_a_round_robin_meets_every_pair_exactly_once(players: int) -> None:
    met: list[frozenset[int]] = []
    for r in range(1, rounds_for(players) + 1):
        pairs = berger_round(players, r)
        seen = [p for pair in pairs for p in pair if p is not None]
        assert sorted(seen) == list(range(1, players + 1))  # everyone once a round
        met += [frozenset((a, b)) for a, b in pairs if b is not None]
    assert len(met) == len(set(met)) == players * (players - 1) // 2


# ---------------------------------------------------------------- brackets
def test_the_standard_bracket_places_the_seeds_as_rules_says() -> None:
    assert seed_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]  # 1 v 8, 4 v 5, 2 v 7, 3 v 6
    first = [s.sources for s in build(8, double=False) if s.round == 1]
    assert [(a.ref, b.ref) for a, b in first] == [(1, 8), (4, 5), (2, 7), (3, 6)]


def test_byes_go_to_the_top_seeds() -> None:
    """Five players: a bracket of 8, seeds 1-3 walk over their byes into round 2."""
    slots = build(5, double=False)
    seeds = [10, 20, 30, 40, 50]
    first = fill(slots, seeds, {})[:4]
    assert [(f.a, f.b, f.winner) for f in first] == [
        (10, NOBODY, 10), (40, 50, None), (20, NOBODY, 20), (30, NOBODY, 30)]
    second = fill(slots, seeds, {2: Game(1, 2, 40, 50, B)})[4:6]
    assert [(f.a, f.b) for f in second] == [(10, 50), (20, 30)]


def _decide(slots: list[Slot], seeds: list[int],
            pick: Callable[[Filled], Outcome]) -> dict[int, Game]:
    """Play every slot in order, `pick(filled)` choosing its outcome."""
    games: dict[int, Game] = {}
    for slot in slots:
        filled = fill(slots, seeds, games)[slot.number - 1]
        if filled.playable:
            assert filled.a is not None and filled.b is not None
            games[slot.number] = Game(slot.round, slot.number, filled.a, filled.b,
                                      pick(filled))
    return games


def test_double_elimination_of_four_worked_by_hand() -> None:
    """1 beats 4, 3 beats 2; 1 beats 3 (winners' final); 2 beats 4 (losers' first); 3
    beats 2 (losers' final); 3 beats 1 in the grand final, so a second final: 1 wins."""
    slots = build(4, double=True, reset=True)
    assert [(s.part, s.stage, s.round) for s in slots] == [
        (Part.WINNERS, 1, 1), (Part.WINNERS, 1, 1), (Part.WINNERS, 2, 2),
        (Part.LOSERS, 1, 2), (Part.LOSERS, 2, 3), (Part.FINAL, 1, 4), (Part.RESET, 1, 5)]
    seeds = [1, 2, 3, 4]
    winner = {1: 1, 2: 3, 3: 1, 4: 2, 5: 3, 6: 3, 7: 1}
    games = _decide(slots, seeds, lambda f: A if winner[f.slot.number] == f.a else B)
    filled = fill(slots, seeds, games)
    assert [(f.a, f.b) for f in filled] == [(1, 4), (2, 3), (1, 3), (4, 2), (2, 3), (1, 3),
                                            (3, 1)]
    assert champion(filled) == 1
    assert [line.player for line in bracket_table(seeds, filled)] == [1, 3, 2, 4]


def test_no_second_final_when_the_winners_champion_wins_the_first() -> None:
    slots = build(4, double=True, reset=True)
    games = _decide(slots, [1, 2, 3, 4], lambda f: A)  # the first named always wins
    filled = fill(slots, [1, 2, 3, 4], games)
    assert (filled[-1].a, filled[-1].b) == (NOBODY, NOBODY) and champion(filled) == 1


def test_a_changed_result_reopens_the_games_the_wrong_player_played() -> None:
    slots = build(4, double=False)
    games = {1: Game(1, 1, 1, 4, A), 2: Game(1, 2, 2, 3, A), 3: Game(2, 3, 1, 2, A)}
    assert champion(fill(slots, [1, 2, 3, 4], games)) == 1
    games[2] = Game(1, 2, 2, 3, B)  # corrected: 3 won
    final = fill(slots, [1, 2, 3, 4], games)[2]
    assert (final.a, final.b, final.winner) == (1, 3, None)  # the 1 v 2 result no longer


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 17), st.booleans(), st.booleans(), st.randoms(use_true_random=False))
def test_an_elimination_bracket_has_exactly_one_winner(players: int, double: bool,
                                                       reset: bool, rnd: Random) -> None:
    slots = build(players, double, reset)
    seeds = list(range(100, 100 + players))
    games = _decide(slots, seeds, lambda f: rnd.choice([A, B]))
    filled = fill(slots, seeds, games)
    assert champion(filled) in seeds
    order = bracket_table(seeds, filled)
    assert order[0].player == champion(filled)
    # Everyone else lost once (single) or twice (double), the champion at most once.
    lost = {p: 0 for p in seeds}
    for f in filled:
        if f.playable:
            assert f.loser is not None
            lost[f.loser] += 1
    assert all(lost[p] == (2 if double else 1) for p in seeds if p != champion(filled)) \
        or (double and not reset)
    winner = champion(filled)
    assert winner is not None and lost[winner] <= (1 if double else 0)


# ---------------------------------------------------------------- Swiss
def test_swiss_round_one_is_the_top_half_against_the_bottom_half() -> None:
    assert pair_round(list(range(1, 9)), {}, set(), set()) == [(1, 5), (2, 6), (3, 7), (4, 8)]
    # Seven: the lowest seed rests; the six others pair by halves.
    assert pair_round(list(range(1, 8)), {}, set(), set()) == [(1, 4), (2, 5), (3, 6), (7, None)]


def test_swiss_round_two_pairs_inside_score_groups_without_rematches() -> None:
    """Round one 1-5 2-6 3-7 4-8, and 5 beat 1: the one-point group is 2 3 4 5 (2 v 4, 3 v
    5), the nought group 1 6 7 8 (1 v 7, 6 v 8)."""
    scores = {5: 2, 2: 2, 3: 2, 4: 2}
    met = {frozenset(p) for p in [(1, 5), (2, 6), (3, 7), (4, 8)]}
    assert pair_round(list(range(1, 9)), scores, met, set()) == [(2, 4), (3, 5), (1, 7), (6, 8)]


def test_swiss_avoids_a_rematch_at_the_least_score_difference() -> None:
    """Six players, 1 and 2 won, 3 v 6 drawn. The ideal 1 v 2, 3 v 6, 4 v 5 has a rematch
    (3 v 6), so 3 and 6 each meet someone a half point away: 1 keeps 2; 3, placed next,
    gets the partner nearest 6 that is not 6: 4 (just below); 6 meets 5."""
    scores = {1: 2, 2: 2, 3: 1, 6: 1}
    met = {frozenset(p) for p in [(1, 4), (2, 5), (3, 6)]}
    assert pair_round([1, 2, 3, 4, 5, 6], scores, met, set()) == [(1, 2), (3, 4), (6, 5)]


def test_an_odd_score_groups_lowest_floats_to_the_next_groups_highest() -> None:
    """Scores 1 1 1 | 0 0 0 (seeds 1-3 won): 3 floats and meets 4; 1 v 2; 5 v 6."""
    scores = {1: 2, 2: 2, 3: 2}
    assert pair_round([1, 2, 3, 4, 5, 6], scores, set(), set()) == [(1, 2), (3, 4), (5, 6)]


def test_the_swiss_bye_goes_to_the_lowest_placed_without_one() -> None:
    scores = {1: 2, 2: 2, 3: 0, 4: 0, 5: 2}
    pairs = pair_round([1, 2, 3, 4, 5], scores, set(), {4})
    assert pairs is not None and pairs[-1] == (3, None)  # 4 (lowest) had one already


def test_swiss_tiebreaks_worked_by_hand() -> None:
    """Four players, two rounds. R1: 1 beat 3, 2 drew 4. R2: 1 drew 2, 3 beat 4.
    Scores 1: 1.5, 2: 1, 3: 1, 4: 0.5. Buchholz 2: 1.5 + 0.5 = 2, 3: 1.5 + 0.5 = 2; SB
    2: half of 1.5 and of 0.5 = 1, 3: 0.5 (beat 4) = 0.5: 2 above 3. (Buchholz in halves,
    SB in quarters.)"""
    games = [Game(1, 1, 1, 3, A), Game(1, 2, 2, 4, DRAW), Game(2, 1, 1, 2, DRAW),
             Game(2, 2, 3, 4, A)]
    lines = table([1, 2, 3, 4], games, Format.SWISS)
    assert [(x.player, x.score, x.tiebreaks) for x in lines] == [
        (1, 3, (4, 6)), (2, 2, (4, 4)), (3, 2, (4, 2)), (4, 1, (4, 2))]


def test_round_robin_ties_break_on_the_games_among_the_tied() -> None:
    """Three players, 2 beat 1, 1 beat 3, 3 beat 2: all on 1 point, the games among them
    even, Sonneborn-Berger 1 each: seed decides."""
    games = [Game(1, 1, 2, 1, A), Game(2, 1, 1, 3, A), Game(3, 1, 3, 2, A)]
    assert [x.player for x in table([1, 2, 3], games, Format.ROUNDROBIN)] == [1, 2, 3]


def test_round_robin_head_to_head_comes_before_sonneborn_berger() -> None:
    """Five players. 1 beat 2, 4, 5 and lost to 3; 2 beat 3 and 4, drew 5; 3 beat 5; 4
    beat 3 and 5. Scores 1: 3, 2: 2.5, 3: 2, 4: 2, 5: 0.5. 3 and 4 tie: 4 beat 3, though
    3's Sonneborn-Berger (3 + 0.5) is above 4's (2 + 0.5)."""
    games = [Game(1, 1, 1, 2, A), Game(1, 2, 1, 4, A), Game(1, 3, 1, 5, A),
             Game(2, 1, 3, 1, A), Game(2, 2, 2, 3, A), Game(2, 3, 2, 4, A),
             Game(3, 1, 2, 5, DRAW), Game(3, 2, 3, 5, A), Game(3, 3, 4, 3, A),
             Game(4, 1, 4, 5, A)]
    lines = table([1, 2, 3, 4, 5], games, Format.ROUNDROBIN)
    assert [(x.player, x.score) for x in lines] == [(1, 6), (2, 5), (4, 4), (3, 4), (5, 1)]
    assert lines[2].tiebreaks == (2, 10) and lines[3].tiebreaks == (0, 14)  # SB quarters


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 17), st.randoms(use_true_random=False))
def test_swiss_never_pairs_a_rematch_nor_a_second_bye_while_another_has_none(
        players: int, rnd: Random) -> None:
    seeds = list(range(1, players + 1))
    games: list[Game] = []
    met: set[frozenset[int]] = set()
    byes: list[int] = []
    for r in range(1, min(players - 1, 6) + 1):
        score = {p: 0 for p in seeds}
        for g in games:
            for p in g.players:
                score[p] += g.scored(p) or 0
        pairs = pair_round(seeds, score, met, byes)
        if pairs is None:
            break  # (no pairing without a rematch: the tournament ends early)
        assert pairs == pair_round(seeds, score, met, byes)  # the same again
        for a, b in pairs:
            if b is None:
                assert a not in byes or all(p in byes for p in seeds if p != a)
                byes.append(a)
                games.append(Game(r, 0, a, None, Outcome.A))
                continue
            assert frozenset((a, b)) not in met
            met.add(frozenset((a, b)))
            games.append(Game(r, 0, a, b, rnd.choice([A, B, DRAW])))
