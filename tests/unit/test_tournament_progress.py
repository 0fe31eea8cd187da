"""A tournament from start to end through its stored record (core.domain.tournament
.progress), its games reported as ladder matches: every format from 2 to 17 players
finishes, with the invariants RULES.md gives, and the same results give the same
tournament again."""

from __future__ import annotations

import dataclasses
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from core.domain.tournament import progress
from core.domain.tournament.model import Format, Outcome
from core.domain.tournament.progress import Played
from core.domain.tournament.record import Pairing, Status, Tournament

T0 = 1_700_000_000
HOUR = 3600


def _play(fmt: Format, players: int, seed: int, reset: bool = True
          ) -> tuple[Tournament, dict[int, Played]]:
    """Play it out: each game reported and confirmed, or (one in ten) forfeited at the
    deadline; random winners, draws where the format allows them."""
    rnd = random.Random(seed)
    matches: dict[int, Played] = {}
    t = Tournament(1, 1, "cup", fmt, T0, reset=reset, players=tuple(range(1, players + 1)))
    now = T0
    t = progress.start(t, list(t.players), now, matches.get)
    for _ in range(200):
        if t.status is Status.FINISHED:
            return t, matches
        pairings = list(t.pairings)
        for i, p in enumerate(pairings):
            if p.round != t.round or p.b is None or p.match is not None:
                continue
            if rnd.random() < 0.1:
                continue  # nobody plays it: the deadline forfeits it
            match = len(matches) + 1
            draw = not fmt.eliminates and rnd.random() < 0.2
            matches[match] = Played("confirmed", None if draw else rnd.choice([p.a, p.b]),
                                    draw)
            pairings[i] = Pairing(p.round, p.number, p.a, p.b, match)
        t = dataclasses.replace(t, pairings=tuple(pairings))
        now += t.round_hours * HOUR
        if not progress.round_over(t, matches.get):
            t, _ = progress.forfeits(t, matches.get)
        assert progress.round_over(t, matches.get)
        t = progress.open_next(t, now, matches.get)
    raise AssertionError("it never finished")


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(list(Format)), st.integers(2, 17), st.integers(0, 10**6),
       st.booleans())
def test_every_format_finishes_with_its_invariants(fmt: Format, players: int, seed: int,
                                                   reset: bool) -> None:
    t, matches = _play(fmt, players, seed, reset)
    assert t.status is Status.FINISHED
    lines = progress.standings(t, matches.get)
    assert sorted(line.player for line in lines) == list(range(1, players + 1))
    real = [frozenset((p.a, p.b)) for p in t.pairings if p.b is not None]
    if fmt is Format.SWISS:
        assert len(real) == len(set(real))  # never a rematch
        byes = [p.a for p in t.pairings if p.b is None]
        assert len(byes) == len(set(byes)) or len(set(byes)) == players
    if fmt is Format.ROUNDROBIN:
        assert sorted(real, key=sorted) == sorted(
            {frozenset((a, b)) for a in range(1, players + 1) for b in range(a + 1, players + 1)},
            key=sorted)
    if fmt.eliminates:
        champion = progress.champion(t, matches.get)
        assert champion is None or champion == lines[0].player
        # Everyone but the champion went out (a bracket can end with nobody where both
        # finalists forfeited).
    assert (t, matches) == _play(fmt, players, seed, reset)  # the same again


def _unplayed(match: int) -> Played | None:
    """A lookup of a tournament that has no game played yet."""
    return None


def test_a_deadline_forfeits_to_whoever_said_ready() -> None:
    t = Tournament(1, 1, "cup", Format.SWISS, T0, rounds=1, players=(1, 2, 3, 4))
    t = progress.start(t, [1, 2, 3, 4], T0, _unplayed)
    assert [(p.a, p.b) for p in t.pairings] == [(1, 3), (2, 4)]
    ready = Pairing(1, 1, 1, 3, ready=(3,))
    t = dataclasses.replace(t, pairings=(ready, t.pairings[1]))
    t, done = progress.forfeits(t, _unplayed)
    assert [p.forfeit for p in done] == [Outcome.B_FORFEIT, Outcome.BOTH_FORFEIT]
    lines = progress.standings(t, _unplayed)
    assert (lines[0].player, lines[0].score) == (3, 2)
