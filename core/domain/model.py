"""Frozen value types shared by every rule: players, results and matches.

Times are whole seconds since the Unix epoch (UTC), passed in by callers; the core
never reads a clock. Player ids are small integers local to one ladder.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

PlayerId = int
Timestamp = int  # seconds since the epoch, UTC


class Margin(enum.Enum):
    """How clearly a game was won, for position ladders (RULES.md section 4)."""

    MINOR = "minor"
    MAJOR = "major"
    OVERWHELMING = "overwhelming"


@dataclass(frozen=True, slots=True)
class Result:
    """What happened in one game.

    `sides` lists the sides in finishing order: `sides[0]` won unless `draw` is set.
    A one-on-one game has two sides of one player each; a free-for-all has one player
    per side; a team game has several players on a side. A match of several games
    (best-of-N, RULES.md) is one result with its `score`.
    """

    sides: tuple[tuple[PlayerId, ...], ...]
    draw: bool = False
    margin: Margin | None = None
    moves: int | None = None
    rated: bool = True
    # Games won by sides[0] and sides[1] in a match of several (`/report win @bob 2-1`):
    # the winner's first, equal for a draw; None for a single game.
    score: tuple[int, int] | None = None
    # Every participant, side by side in finishing order (derived, read very often).
    players: tuple[PlayerId, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "players", tuple(p for side in self.sides for p in side))

    @property
    def is_duel(self) -> bool:
        """True for a one-on-one game."""
        return len(self.sides) == 2 and len(self.sides[0]) == 1 and len(self.sides[1]) == 1

    @property
    def is_team_game(self) -> bool:
        """True when any side has more than one player."""
        return any(len(side) > 1 for side in self.sides)

    def side_of(self, player: PlayerId) -> int:
        """Index of the side `player` played on."""
        for i, side in enumerate(self.sides):
            if player in side:
                return i
        raise KeyError(player)

    def winners(self) -> tuple[PlayerId, ...]:
        """Players of the winning side; empty for a draw."""
        return () if self.draw else self.sides[0]


@dataclass(frozen=True, slots=True)
class Match:
    """A reported game as it enters the ladder's history.

    `played_at` is the time it was reported (CONSOLE.md: "a match's time is the time
    it was reported"); `challenge_id` links a position-ladder game to the challenge
    whose logged rungs decide its case; `forfeit` marks an unanswered challenge.
    """

    id: int
    played_at: Timestamp
    result: Result
    challenge_id: int | None = None
    forfeit: bool = False


@dataclass(frozen=True, slots=True)
class Correction:
    """A moderator's final word on a match: void it, or replace its result."""

    voided: bool
    result: Result | None = None


def pair_key(a: PlayerId, b: PlayerId) -> tuple[PlayerId, PlayerId]:
    """Order-independent key of two players."""
    return (a, b) if a <= b else (b, a)
