"""The standings a fold keeps of one ladder: its fields, and what reads them.

The parts of the fold are layered on it, one module each: what a pair's earlier games
leave (core/domain/pairs.py), the journal that rolls a correction back
(core/domain/journal.py), the lean path for plain duels (core/domain/duels.py), and the
fold of every event (core/domain/state.py, `LadderState`).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Any, Self

from core.domain.due import DueQueue
from core.domain.model import PlayerId, Timestamp
from core.domain.rulebooks import Rulebook, choose
from core.domain.settings import Settings
from core.domain.standing import PlayerState, SeriesState, Undo
from core.domain.tables import HallEntry, TableRow


@dataclass(slots=True)
class LadderFields:
    """The standings of one ladder after `seq` events: what they hold."""

    settings: Settings
    players: dict[PlayerId, PlayerState] = field(default_factory=dict)
    order: list[PlayerId] = field(default_factory=list)  # position ladders, top first
    farm: dict[tuple[PlayerId, PlayerId], list[Timestamp]] = field(default_factory=dict)
    series: dict[tuple[PlayerId, PlayerId], SeriesState] = field(default_factory=dict)
    logged: dict[int, tuple[PlayerId, int, PlayerId, int]] = field(default_factory=dict)
    season: str | None = None
    frozen: dict[str, tuple[TableRow, ...]] = field(default_factory=dict)
    hall: list[HallEntry] = field(default_factory=list)
    seq: int = 0
    at: Timestamp = 0
    last_decay: str | None = None
    # Rated games waiting for their rating period's close (Glicko-2's `period=day|week`):
    # (match, first player, second player, the first's score).
    pending: list[tuple[int, PlayerId, PlayerId, float]] = field(default_factory=list)
    # When set, folded events that only touch their own players are journaled, so that a
    # recent correction rolls the standings back instead of replaying from a snapshot.
    # Any other event (decay, a season close, a settings change) clears it: a barrier.
    undo: deque[Undo] | None = None
    # Every pair in `farm` by the time of its newest game, every series by the time of
    # its first, for the prune (entries whose pair has played since are skipped).
    farm_due: DueQueue = field(default_factory=DueQueue)
    series_due: DueQueue = field(default_factory=DueQueue)

    def __post_init__(self) -> None:  # restored from a snapshot: queue what it holds
        if self.farm and not self.farm_due:
            self.farm_due = DueQueue.of((times[-1], pair) for pair, times in self.farm.items())
        if self.series and not self.series_due:
            self.series_due = DueQueue.of((v.first_at, pair) for pair, v in self.series.items())

    # ------------------------------------------------------------------ reading

    def rung(self, player: PlayerId) -> int | None:
        """1-based rung of a member of a position ladder, else None."""
        try:
            return self.order.index(player) + 1
        except ValueError:
            return None

    def members(self) -> list[PlayerId]:
        """Ids of current members, in join order."""
        return [p for p, s in self.players.items() if s.member]

    def copy(self) -> Self:
        """An independent copy (a snapshot)."""
        return type(self)(
            settings=self.settings,
            players={p: s.copy() for p, s in self.players.items()},
            order=list(self.order),
            farm={k: list(v) for k, v in self.farm.items()},
            series={k: v.copy() for k, v in self.series.items()},
            logged=dict(self.logged),
            season=self.season,
            frozen=dict(self.frozen),
            hall=list(self.hall),
            seq=self.seq,
            at=self.at,
            last_decay=self.last_decay,
            pending=list(self.pending),
            farm_due=self.farm_due.copy(),
            series_due=self.series_due.copy(),
        )

    def fingerprint(self) -> tuple[Any, ...]:
        """Everything that defines the standings, for equality checks in tests."""
        return (
            self.settings,
            tuple(sorted((p, tuple(getattr(s, f) for f in PlayerState.__slots__))
                         for p, s in self.players.items())),
            tuple(self.order),
            tuple(sorted((k, tuple(v)) for k, v in self.farm.items())),
            tuple(sorted((k, (v.first_at, v.base_low, v.base_high, v.games, v.score_low,
                              v.applied_low, v.applied_high)) for k, v in self.series.items())),
            self.season,
            tuple(sorted(self.frozen.items())),
            tuple(self.hall),
            self.last_decay,
            tuple(self.pending),
        )

    @property
    def rulebook(self) -> Rulebook:
        """The rules this ladder's settings choose (chosen again when they change)."""
        return choose(self.settings)

    @property
    def lean(self) -> bool:
        """True when plain one-on-one matches may be folded by `apply_duel`."""
        return self.rulebook.lean(self.settings)
