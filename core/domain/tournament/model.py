"""A tournament's values: its format, a game of it, and what a game's result scored."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from core.domain.model import PlayerId


class Format(enum.Enum):
    """How a tournament pairs its players (RULES.md)."""

    SWISS = "swiss"
    ROUNDROBIN = "roundrobin"
    SINGLE = "single"
    DOUBLE = "double"

    @property
    def eliminates(self) -> bool:
        """A bracket: a draw decides nothing, and a loss (or two) puts a player out."""
        return self in (Format.SINGLE, Format.DOUBLE)


class Outcome(enum.Enum):
    """A game's result as the tournament scores it (`a` and `b` are its two players)."""

    A = "a"  # a won
    B = "b"  # b won
    DRAW = "draw"
    A_FORFEIT = "fa"  # a won by forfeit (b did not play by the deadline; a said ready)
    B_FORFEIT = "fb"
    BOTH_FORFEIT = "ff"  # neither played by the deadline, or both failed to say ready

    @property
    def forfeit(self) -> bool:
        return self in (Outcome.A_FORFEIT, Outcome.B_FORFEIT, Outcome.BOTH_FORFEIT)

    def points(self) -> tuple[int, int]:
        """What a and b score, in halves (a win 2, a draw 1, a loss 0)."""
        return _POINTS[self]

    def winner(self) -> int | None:
        """0 (a), 1 (b), or None (a draw, or both lost)."""
        a, b = _POINTS[self]
        return 0 if a > b else 1 if b > a else None


_POINTS = {Outcome.A: (2, 0), Outcome.B: (0, 2), Outcome.DRAW: (1, 1),
           Outcome.A_FORFEIT: (2, 0), Outcome.B_FORFEIT: (0, 2), Outcome.BOTH_FORFEIT: (0, 0)}


@dataclass(frozen=True, slots=True)
class Game:
    """One pairing of a round: `b` None is a bye (Swiss or round robin); `outcome` None
    while it has no result (not played yet, or voided)."""

    round: int
    number: int  # its board in Swiss and round robin, its place in the bracket otherwise
    a: PlayerId
    b: PlayerId | None
    outcome: Outcome | None = None

    @property
    def players(self) -> tuple[PlayerId, ...]:
        return (self.a,) if self.b is None else (self.a, self.b)

    def scored(self, player: PlayerId) -> int | None:
        """What `player` scored in it, in halves (None: no result yet)."""
        if self.outcome is None:
            return None
        a, b = self.outcome.points()
        return a if player == self.a else b
