"""A tournament's standings (RULES.md): scores and tiebreaks from its games' results.

Swiss: score, then Buchholz (the final scores of the opponents met; a bye adds nothing),
then Sonneborn-Berger (the final scores of the opponents beaten, and half of those drawn),
then seed. Round robin: score, then the score in the games among the players tied on it
(once, for the whole tied group), then Sonneborn-Berger, then seed. A forfeit counts in
both as the 1 or 0 it scored; a game without a result counts nowhere. Scores in halves.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from core.domain.model import PlayerId
from core.domain.tournament.bracket import NOBODY, Filled, Part
from core.domain.tournament.model import Format, Game

SWISS_BYE = 2  # a Swiss bye scores 1 (a round-robin bye is a rest: nothing)


@dataclass(frozen=True, slots=True)
class Line:
    """One player's line of the table, points in halves."""

    player: PlayerId
    seed: int  # 1-based
    score: int
    # Swiss: Buchholz (halves), Sonneborn-Berger (quarters: a draw counts half a score in
    # halves); round robin: the tied group's games (halves), Sonneborn-Berger; elimination: none
    tiebreaks: tuple[int, ...]
    played: int
    place: int = 0
    buchholz: int = 0  # (halves, in every table: the export gives it for round robin too)
    sb: int = 0  # Sonneborn-Berger (quarters)


def scores(seeds: Sequence[PlayerId], games: Sequence[Game], fmt: Format) -> dict[PlayerId,
                                                                                    int]:
    """Each player's score so far, in halves."""
    score = dict.fromkeys(seeds, 0)
    for game in games:
        if game.b is None:
            score[game.a] += SWISS_BYE if fmt is Format.SWISS else 0
        elif game.outcome is not None:
            a, b = game.outcome.points()
            score[game.a] += a
            score[game.b] += b
    return score


def table(seeds: Sequence[PlayerId], games: Sequence[Game], fmt: Format) -> list[Line]:
    """The Swiss or round-robin table, in its order, places numbered 1..n."""
    score = scores(seeds, games, fmt)
    seed = {p: i + 1 for i, p in enumerate(seeds)}
    scored = [g for g in games if g.b is not None and g.outcome is not None]
    sb = dict.fromkeys(seeds, 0)
    buchholz = dict.fromkeys(seeds, 0)
    played = dict.fromkeys(seeds, 0)
    for game in scored:
        assert game.b is not None and game.outcome is not None
        pa, pb = game.outcome.points()
        for me, other, mine in ((game.a, game.b, pa), (game.b, game.a, pb)):
            buchholz[me] += score[other]
            sb[me] += score[other] * mine  # (in quarters: a win counts whole, a draw half)
            played[me] += 0 if game.outcome.forfeit else 1
    if fmt is Format.SWISS:
        breaks = {p: (buchholz[p], sb[p]) for p in seeds}
    else:
        among = _among_tied(seeds, scored, score)
        breaks = {p: (among[p], sb[p]) for p in seeds}
    lines = sorted(seeds, key=lambda p: (-score[p], *(-b for b in breaks[p]), seed[p]))
    return [Line(p, seed[p], score[p], breaks[p], played[p], i + 1, buchholz[p], sb[p])
            for i, p in enumerate(lines)]


def _among_tied(seeds: Sequence[PlayerId], scored: Sequence[Game],
                score: dict[PlayerId, int]) -> dict[PlayerId, int]:
    """Each player's score in the games among those tied with them on score."""
    among = dict.fromkeys(seeds, 0)
    for game in scored:
        assert game.b is not None and game.outcome is not None
        if score[game.a] == score[game.b]:
            pa, pb = game.outcome.points()
            among[game.a] += pa
            among[game.b] += pb
    return among


def bracket_table(seeds: Sequence[PlayerId], filled: Sequence[Filled]) -> list[Line]:
    """An elimination's order: the champion, then by the round a player went out in
    (later first: the final's loser second), then games won, then seed. A player goes out
    losing a game whose loser plays on nowhere (both, where both forfeited); score is the
    games won."""
    seed = {p: i + 1 for i, p in enumerate(seeds)}
    out = dict.fromkeys(seeds, 1 << 30)  # still in: above everyone who went out
    won = dict.fromkeys(seeds, 0)
    played = dict.fromkeys(seeds, 0)
    plays_on = {s.ref for f in filled if not (f.slot.part is Part.RESET and f.a == NOBODY)
                for s in f.slot.sources if s.kind == "loser"}
    for f in filled:
        if not f.playable or f.winner is None or f.a is None or f.b is None:
            continue
        played[f.a] += 1
        played[f.b] += 1
        gone: tuple[PlayerId | None, ...] = (f.a, f.b)
        if f.winner != NOBODY:
            won[f.winner] += 1
            gone = () if f.slot.number in plays_on else (f.loser,)
        for p in gone:
            if p is not None:
                out[p] = f.slot.round
    lines = sorted(seeds, key=lambda p: (-out[p], -won[p], seed[p]))
    return [Line(p, seed[p], 2 * won[p], (), played[p], i + 1) for i, p in enumerate(lines)]
