"""Elimination brackets (RULES.md): single, and double with a losers' bracket.

A bracket is a list of games, each fed by two sources: a seed, or the winner or the loser
of an earlier game. A seed past the field is a bye; a game with one player is a walkover
(no game is played, nobody loses it). A game is played in the round one after the latest
of the games feeding it.

Seeds are placed so that 1 and 2 can meet only in the final, 1-4 only in the semi-finals
(1 v 8, 4 v 5, 2 v 7, 3 v 6 for eight), the byes going to the top seeds. The losers'
bracket of a bracket of 2^k takes the first round's losers in pairs, then alternates: its
survivors against the next winners' round's losers (in reverse order every other time, so
that two who met do not meet again at once), and its survivors against each other. Its
champion meets the winners' champion in the grand final; with `reset`, a second final is
played if the losers' champion wins the first.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from core.domain.model import PlayerId
from core.domain.tournament.model import Game, Outcome


class Part(enum.Enum):
    """Where in the bracket a game is: the order they are listed in within a round."""

    WINNERS = "w"
    LOSERS = "l"
    FINAL = "f"
    RESET = "r"


@dataclass(frozen=True, slots=True)
class Source:
    """Who plays a side of a game: a seed (1-based), or a game's winner or loser."""

    kind: str  # "seed", "winner", "loser"
    ref: int


@dataclass(frozen=True, slots=True)
class Slot:
    """A game of the bracket."""

    number: int  # 1.. in the order the games are played
    part: Part
    stage: int  # its round within its part of the bracket (W1, L3)
    round: int  # the tournament's round it is played in
    sources: tuple[Source, Source]


NOBODY = -1  # a side nobody fills: a bye, or the loser of a walkover
_Add = Callable[[Part, int, Source, Source], Source]  # a game added to a bracket


def seed_order(size: int) -> list[int]:
    """The seeds of a bracket of `size` (a power of two) in their places, top to bottom."""
    order = [1]
    while len(order) < size:
        doubled = 2 * len(order)
        order = [s for seed in order for s in (seed, doubled + 1 - seed)]
    return order


def bracket_size(players: int) -> int:
    size = 1
    while size < players:
        size *= 2
    return size


def build(players: int, double: bool, reset: bool = True) -> list[Slot]:
    """The games of a bracket for `players` (at least 2), numbered in playing order."""
    size = bracket_size(players)
    games: list[tuple[Part, int, tuple[Source, Source]]] = []

    def add(part: Part, stage: int, a: Source, b: Source) -> Source:
        games.append((part, stage, (a, b)))
        return Source("winner", len(games))

    places = seed_order(size)
    winners = [add(Part.WINNERS, 1, Source("seed", places[i]), Source("seed", places[i + 1]))
               for i in range(0, size, 2)]
    dropped = [[Source("loser", w.ref) for w in winners]]
    stage = 1
    while len(winners) > 1:
        stage += 1
        winners = [add(Part.WINNERS, stage, winners[i], winners[i + 1])
                   for i in range(0, len(winners), 2)]
        dropped.append([Source("loser", w.ref) for w in winners])
    champion = winners[0]
    if double:
        survivor = _losers(add, dropped)
        final = add(Part.FINAL, 1, champion, survivor)
        if reset:
            add(Part.RESET, 1, final, Source("loser", final.ref))
    return _numbered(games)


def _losers(add: _Add, dropped: list[list[Source]]) -> Source:
    """The losers' bracket of `dropped` (each winners' round's losers); its champion."""
    alive = dropped[0]
    if len(alive) == 1:  # (a bracket of two: the final's loser is the losers' champion)
        return alive[0]
    stage = 1
    alive = [add(Part.LOSERS, stage, alive[i], alive[i + 1]) for i in range(0, len(alive), 2)]
    for k, incoming in enumerate(dropped[1:], 1):
        stage += 1
        drops = incoming[::-1] if k % 2 else incoming
        alive = [add(Part.LOSERS, stage, a, d) for a, d in zip(alive, drops, strict=True)]
        if len(alive) > 1:
            stage += 1
            alive = [add(Part.LOSERS, stage, alive[i], alive[i + 1])
                     for i in range(0, len(alive), 2)]
    return alive[0]


def _numbered(games: list[tuple[Part, int, tuple[Source, Source]]]) -> list[Slot]:
    """Slots with their rounds, numbered by round, then part and place."""
    rounds: list[int] = []
    for _, _, sources in games:
        rounds.append(1 + max((rounds[s.ref - 1] if s.kind != "seed" else 0)
                              for s in sources))
    parts = list(Part)
    order = sorted(range(len(games)), key=lambda i: (rounds[i], parts.index(games[i][0]), i))
    number = {old + 1: new + 1 for new, old in enumerate(order)}

    def renumbered(source: Source) -> Source:
        return source if source.kind == "seed" else Source(source.kind, number[source.ref])

    return [Slot(number[i + 1], games[i][0], games[i][1], rounds[i],
                 (renumbered(games[i][2][0]), renumbered(games[i][2][1]))) for i in order]


@dataclass(frozen=True, slots=True)
class Filled:
    """A slot as the results so far fill it: each side a player, NOBODY, or None (not
    decided yet); its winner and loser likewise."""

    slot: Slot
    a: PlayerId | None
    b: PlayerId | None
    winner: PlayerId | None
    loser: PlayerId | None

    @property
    def playable(self) -> bool:
        """Both sides are players: a game is played here."""
        return self.a is not None and self.b is not None and NOBODY not in (self.a, self.b)


def fill(slots: Sequence[Slot], seeds: Sequence[PlayerId],
         games: Mapping[int, Game]) -> list[Filled]:
    """Every slot filled from the seeds and the games played (by slot number). A game's
    result counts only while its two players are the ones the slot now holds: a changed
    result earlier re-opens it."""
    done: dict[int, Filled] = {}
    for slot in slots:
        a, b = (_source(s, seeds, done) for s in slot.sources)
        if slot.part is Part.RESET:
            final = done[slot.sources[0].ref]
            if final.winner is None or final.winner == NOBODY or final.winner == final.a:
                a = b = NOBODY if final.winner is not None else None
        done[slot.number] = Filled(slot, a, b, *_decided(a, b, games.get(slot.number)))
    return [done[s.number] for s in slots]


def _source(source: Source, seeds: Sequence[PlayerId], done: Mapping[int, Filled]
            ) -> PlayerId | None:
    if source.kind == "seed":
        return seeds[source.ref - 1] if source.ref <= len(seeds) else NOBODY
    filled = done[source.ref]
    return filled.winner if source.kind == "winner" else filled.loser


def _decided(a: PlayerId | None, b: PlayerId | None, game: Game | None
             ) -> tuple[PlayerId | None, PlayerId | None]:
    """(winner, loser) of a slot holding a and b."""
    if a is None or b is None:
        return None, None
    if a == NOBODY or b == NOBODY:
        return (b if a == NOBODY else a), NOBODY
    if game is None or game.outcome is None or {game.a, game.b} != {a, b}:
        return None, None
    side = game.outcome.winner()
    if game.outcome is Outcome.BOTH_FORFEIT:
        return NOBODY, NOBODY  # both out
    if side is None:
        return None, None  # (a draw decides nothing; the report is refused)
    won = game.a if side == 0 else game.b
    assert won is not None
    return won, (b if won == a else a)


def champion(filled: Sequence[Filled]) -> PlayerId | None:
    """The bracket's winner, once decided (NOBODY where the final had none)."""
    last = filled[-1]
    if last.slot.part is Part.RESET and last.a == NOBODY:
        return filled[-2].winner
    return last.winner
