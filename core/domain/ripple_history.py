"""The terms of a ripple (core/domain/ripple.py): what it reads of the stored history,
the corrected match as stored, and what it hands back to storage to write."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from core.domain.events import Event
from core.domain.model import PlayerId, Result, Timestamp
from core.domain.standing import PlayerState

# (seq, a, b) of each stored event after the corrected match: the players of a plain
# one-on-one match (None for any other event), which is all that most of them need.
EventRow = tuple[int, PlayerId | None, PlayerId | None]
# The rest of the event at a seq: (at, match, duel flags, the event itself unless it is a
# plain one-on-one match).
Lookup = Callable[[int], tuple[int, int, int, Event | None]]
# A lean match's stored outcome: (rated, {player: (before, after)}).
Outcome = tuple[bool, dict[PlayerId, tuple[float, float]]]


class History(Protocol):
    """What the stored per-match history says (the derivation before this correction)."""

    def outcome(self, seq: int) -> Outcome | None:
        """Rated flag and each player's (before, after) of the match at `seq`."""

    def rated_deltas(self, player: PlayerId, after: int, before: int) -> list[tuple[int, float]]:
        """(seq, after - before) of the player's rated matches with after < seq < before,
        in order."""

    def latest(self, upto: int) -> Timestamp:
        """The latest time of the events up to `upto`."""

    def at(self, seq: int) -> Timestamp:
        """The time of event `seq`."""

    def first_rated(self, player: PlayerId, count: int) -> list[int]:
        """The seqs of the player's first `count` rated matches (fewer if they played
        fewer)."""

    def season_start(self, before: int) -> int:
        """The seq of the last season close before event `before` (0 if none)."""

    def rating_before(self, player: PlayerId, seq: int) -> float | None:
        """The player's rating after their last stored change before event `seq` (None
        if there is none)."""


@dataclass(frozen=True)
class Original:
    """The corrected match as its event stored it."""

    seq: int
    match: int
    at: Timestamp
    a: PlayerId  # the reported winner, unless a draw
    b: PlayerId
    draw: bool
    rated: bool
    moves: int | None
    played_at: Timestamp


@dataclass
class Rippled:
    """What a ripple changed, already applied to the standings."""

    before: dict[PlayerId, PlayerState]  # the changed players as they stood
    # seq -> (at, the lean outcome tuple `_history_rows` takes) of every event whose stored
    # changes differ (the corrected match's, unless it was voided)
    outcomes: dict[int, tuple[int, tuple[Any, ...]]] = field(default_factory=dict)
    voided: bool = False
    effect: tuple[bool, str] | None = None  # the corrected match's new (rated, note)
    frozen: list[str] = field(default_factory=list)  # the season tables it changed


Lean = tuple[PlayerId, PlayerId, bool, bool, int | None]  # winner, loser, draw, rated, moves


def lean(result: Result, players: set[PlayerId]) -> Lean | None:
    """A corrected result as (winner, loser, draw, rated, moves), if it is a plain
    one-on-one game of the same two players."""
    if not result.is_duel or result.margin is not None or result.score is not None \
            or set(result.players) != players:
        return None
    return result.sides[0][0], result.sides[1][0], result.draw, result.rated, result.moves


class GiveUp(Exception):
    """The history cannot say enough: replay instead."""
