"""A tournament moving on (RULES.md): its start, each round's opening, a deadline's
forfeits, and its table, from the stored record and what its ladder matches say now.

`Played` tells what a ladder match says: a game counts for its pairing once confirmed, is
waited for while pending or disputed, and leaves the pairing without a result once voided
(the two may report it again). Nothing here reads a clock or a store."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from core.domain.calendar import HOUR
from core.domain.model import PlayerId, Timestamp
from core.domain.tournament import bracket, roundrobin, swiss
from core.domain.tournament.model import Format, Game, Outcome
from core.domain.tournament.record import Pairing, Status, Tournament
from core.domain.tournament.standings import Line, bracket_table, scores, table

if TYPE_CHECKING:  # (records name a bracket's picture: a type alone, no import loop)
    from core.domain.records import MatchRecord


@dataclass(frozen=True, slots=True)
class Played:
    """A ladder match as a tournament reads it."""

    status: str  # "pending", "confirmed", "disputed", "voided"
    winner: PlayerId | None = None  # (confirmed) None for a draw
    draw: bool = False


Lookup = Callable[[int], Played | None]  # a match id -> what it says (None: not found)


def played(record: MatchRecord) -> Played:
    """A ladder match's record as a tournament reads it."""
    winners = record.result.winners()
    return Played(record.status, winners[0] if winners else None, record.result.draw)


def outcome(p: Pairing, look: Lookup) -> Outcome | None:
    """A pairing's result now: its forfeit, or its confirmed match's."""
    if p.forfeit is not None:
        return p.forfeit
    found = look(p.match) if p.match is not None else None
    if found is None or found.status != "confirmed":
        return None
    if found.draw:
        return Outcome.DRAW
    return Outcome.A if found.winner == p.a else Outcome.B if found.winner == p.b else None


def waiting(p: Pairing, look: Lookup) -> bool:
    """A report of it waits for a confirmation or a moderator."""
    found = look(p.match) if p.match is not None else None
    return found is not None and found.status in ("pending", "disputed")


def games(t: Tournament, look: Lookup) -> list[Game]:
    return [Game(p.round, p.number, p.a, p.b, outcome(p, look)) for p in t.pairings]


def total_rounds(t: Tournament) -> int:
    """How many rounds it plays (elimination: the bracket's deepest)."""
    n = len(t.players)
    if t.format is Format.SWISS:  # by default enough for one winner: log2 of the field
        return min(t.rounds or (n - 1).bit_length(), n - 1)
    if t.format is Format.ROUNDROBIN:
        return roundrobin.rounds_for(n)
    return bracket.build(n, t.format is Format.DOUBLE, t.reset)[-1].round


def start(t: Tournament, seeds: Sequence[PlayerId], now: Timestamp, look: Lookup
          ) -> Tournament:
    """Seeded (`seeds`: the players in the ladder's order), round 1 opened."""
    begun = dataclasses.replace(t, status=Status.RUNNING, players=tuple(seeds), round=0)
    return open_next(begun, now, look)


def open_next(t: Tournament, now: Timestamp, look: Lookup) -> Tournament:
    """The next round opened, or the tournament finished where none is left (or, in
    Swiss, none can be paired without a rematch)."""
    number = t.round + 1
    pairs: list[tuple[PlayerId, PlayerId | None]] | None
    if t.format.eliminates:
        return _open_bracket(t, now, look)
    if number > total_rounds(t):
        return _finished(t, now)
    if t.format is Format.ROUNDROBIN:
        pairs = roundrobin.round_pairs(list(t.players), number)
    else:
        played = games(t, look)
        met = {frozenset(g.players) for g in played if g.b is not None}
        byes = [g.a for g in played if g.b is None]
        pairs = swiss.pair_round(list(t.players), scores(t.players, played, t.format), met,
                                 byes)
        if pairs is None:
            return _finished(t, now)
    new = tuple(Pairing(number, i + 1, a, b) for i, (a, b) in enumerate(pairs))
    return dataclasses.replace(t, round=number, deadline=now + t.round_hours * HOUR,
                               reminded=False, pairings=(*t.pairings, *new))


def _finished(t: Tournament, now: Timestamp) -> Tournament:
    return dataclasses.replace(t, status=Status.FINISHED, deadline=None, finished_at=now)


def filled(t: Tournament, look: Lookup) -> list[bracket.Filled]:
    """The bracket as its games' results fill it."""
    slots = bracket.build(len(t.players), t.format is Format.DOUBLE, t.reset)
    by_slot = {g.number: g for g in games(t, look)}
    return bracket.fill(slots, list(t.players), by_slot)


def _open_bracket(t: Tournament, now: Timestamp, look: Lookup) -> Tournament:
    """The next round of the bracket that has a game to play (rounds of walkovers only
    pass at once), or the end once the champion is known."""
    slots = filled(t, look)
    if bracket.champion(slots) is not None:
        return _finished(t, now)
    have = {p.number for p in t.pairings}
    for number in range(t.round + 1, slots[-1].slot.round + 1):
        new = tuple(Pairing(number, f.slot.number, f.a, f.b) for f in slots
                    if f.slot.round == number and f.playable and f.slot.number not in have
                    and f.a is not None)
        if new:
            return dataclasses.replace(t, round=number, deadline=now + t.round_hours * HOUR,
                                       reminded=False, pairings=(*t.pairings, *new))
    return _finished(t, now)


def reconciled(t: Tournament, now: Timestamp, look: Lookup
               ) -> tuple[Tournament, list[Pairing]]:
    """An elimination after a changed result: each announced game the bracket now gives
    other players is opened again for them (its result dropped), one it cannot give yet
    is withdrawn; a finished one runs again, its round given a new deadline (also when its
    last game was voided). Returns the tournament and the games re-opened or withdrawn."""
    if not t.format.eliminates or not t.players or t.status not in (Status.RUNNING,
                                                                     Status.FINISHED):
        return t, []
    slots = {f.slot.number: f for f in filled(t, look)}
    kept: list[Pairing] = []
    changed: list[Pairing] = []
    for p in t.pairings:
        f = slots[p.number]
        if (f.a, f.b) == (p.a, p.b):
            kept.append(p)
            continue
        changed.append(p)
        if f.playable and f.a is not None and f.b is not None:
            kept.append(Pairing(p.round, p.number, f.a, f.b))
    if not changed and t.status is Status.FINISHED and \
            bracket.champion(list(slots.values())) is None:
        changed = [p for p in t.pairings if p.round == t.round]  # (its last game voided)
    if not changed:
        return t, []
    last = max((p.round for p in kept), default=1)
    if t.status is Status.FINISHED:  # (its end stood on a game now re-opened)
        t = dataclasses.replace(t, status=Status.RUNNING, finished_at=None, reminded=False,
                                deadline=now + t.round_hours * HOUR)
    return dataclasses.replace(t, pairings=tuple(kept), round=last), changed


def round_over(t: Tournament, look: Lookup) -> bool:
    """Every game of the round being played has a result, or was voided (Swiss and round
    robin do not wait for a voided game; a bracket does)."""
    for p in t.of_round(t.round):
        if p.b is None or outcome(p, look) is not None:
            continue
        if p.match is None or waiting(p, look) or t.format.eliminates:
            return False
    return True


def forfeits(t: Tournament, look: Lookup) -> tuple[Tournament, list[Pairing]]:
    """At the round's deadline: each game without a result and no report waiting is
    forfeited, won by the one who said ready if only one did, lost by both otherwise.
    Returns the tournament and the games forfeited."""
    done: list[Pairing] = []
    pairings = []
    for p in t.pairings:
        if p.round == t.round and p.b is not None and p.forfeit is None \
                and outcome(p, look) is None and not waiting(p, look):
            ready = set(p.ready)
            verdict = Outcome.A_FORFEIT if ready == {p.a} else \
                Outcome.B_FORFEIT if ready == {p.b} else Outcome.BOTH_FORFEIT
            p = dataclasses.replace(p, forfeit=verdict)
            done.append(p)
        pairings.append(p)
    return dataclasses.replace(t, pairings=tuple(pairings)), done


def open_pairing(t: Tournament, a: PlayerId, b: PlayerId, look: Lookup) -> Pairing | None:
    """The announced game of a and b a report between them counts for: one without a
    result or a report still standing."""
    if t.status is not Status.RUNNING:
        return None
    for p in t.pairings:
        if {p.a, p.b} == {a, b} and p.forfeit is None and outcome(p, look) is None \
                and not waiting(p, look):
            return p
    return None


def standings(t: Tournament, look: Lookup) -> list[Line]:
    """The table (Swiss, round robin) or the order so far (elimination)."""
    if t.format.eliminates:
        return bracket_table(list(t.players), filled(t, look))
    return table(list(t.players), games(t, look), t.format)


def champion(t: Tournament, look: Lookup) -> PlayerId | None:
    """The winner, once finished."""
    if t.status is not Status.FINISHED or not t.players:
        return None
    if t.format.eliminates:
        won = bracket.champion(filled(t, look))
        return None if won is None or won == bracket.NOBODY else won
    return standings(t, look)[0].player
