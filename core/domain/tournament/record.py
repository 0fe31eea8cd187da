"""A tournament as it is stored: its settings, its players, and the games its rounds
announced (with the ladder match each counted for, or a deadline's forfeit). Who won a
game is read from its ladder match when the tournament is shown or moves on, so a
correction on the ladder re-derives it (`core.domain.tournament.progress`)."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from core.domain.model import PlayerId, Timestamp
from core.domain.tournament.model import Format, Outcome

ROUND_HOURS = 72  # RULES.md's default round length
MAX_PLAYERS = 128  # a field's size, at most (a bracket of 128; a Swiss of 128 pairs fast)


class Status(enum.Enum):
    OPEN = "open"  # taking players
    RUNNING = "running"
    FINISHED = "finished"
    CANCELLED = "cancelled"


@dataclass(frozen=True, slots=True)
class Pairing:
    """A game a round announced: `b` None is a bye; `match` the ladder match reported for
    it (its result is the game's), `forfeit` a deadline's verdict instead."""

    round: int
    number: int  # board in Swiss and round robin, the bracket's game otherwise
    a: PlayerId
    b: PlayerId | None
    match: int | None = None
    forfeit: Outcome | None = None
    ready: tuple[PlayerId, ...] = ()  # who said /tournament ready for it

    @property
    def players(self) -> tuple[PlayerId, ...]:
        return (self.a,) if self.b is None else (self.a, self.b)


@dataclass(frozen=True, slots=True)
class Tournament:
    """One tournament of a ladder."""

    ladder: int
    id: int
    name: str
    format: Format
    created_at: Timestamp
    rounds: int | None = None  # Swiss: how many (None: as many as the field needs)
    rated: bool = True
    bestof: int | None = None
    round_hours: int = ROUND_HOURS
    reset: bool = True  # double elimination: a second final if the losers' champion wins
    status: Status = Status.OPEN
    players: tuple[PlayerId, ...] = ()  # in joining order; in seed order once started
    round: int = 0  # the round being played (0 before the start)
    deadline: Timestamp | None = None  # the round's
    reminded: bool = False  # the round's reminder was said
    pairings: tuple[Pairing, ...] = ()
    reason: str | None = None  # why it was cancelled
    finished_at: Timestamp | None = None  # (the latest finished gives `champion_role`)

    @property
    def live(self) -> bool:
        return self.status in (Status.OPEN, Status.RUNNING)

    def of_round(self, number: int) -> tuple[Pairing, ...]:
        return tuple(p for p in self.pairings if p.round == number)
