"""An event log held with its standings and snapshots, in memory.

This is the reference model of what storage does on disk: a new event is folded into
the current standings; a correction re-derives from the newest snapshot taken before
the corrected match, so only the history after it is replayed.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass

from core.domain.events import Event, MatchConfirmed, RulesSwitched, corrections_of
from core.domain.model import Correction
from core.domain.settings import Settings
from core.domain.standing import Applied, Change
from core.domain.state import LadderState, standing_changes


@dataclass(frozen=True, slots=True)
class Rederived:
    """What a correction re-derived: the first event replayed, every event's effect (a
    store may keep none), and the players whose standing it moved, before and after."""

    from_seq: int
    applied: tuple[Applied, ...]
    moved: tuple[Change, ...] = ()


class Ledger:
    """Events, corrections, snapshots and the current standings of one ladder."""

    def __init__(self, settings: Settings, snapshot_every: int = 1000) -> None:
        self.settings = settings
        self.events: list[Event] = []
        self.corrections: dict[int, Correction] = {}
        self.match_seq: dict[int, int] = {}  # match id -> seq of its MatchConfirmed
        self.snapshot_every = snapshot_every
        self.snapshots: dict[int, LadderState] = {0: LadderState(settings)}
        self.state = LadderState(settings)

    def append(self, event: Event) -> Applied | Rederived:
        """Add one event; return its effect, or everything a correction re-derived."""
        self.events.append(event)
        seq = len(self.events)
        if isinstance(event, RulesSwitched):  # the whole history, read anew
            self.settings = event.settings
            self.snapshots = {0: LadderState(event.settings)}
            return self._rederive(1)
        found = corrections_of(event)
        seqs = [self.match_seq[m] for m in found if m in self.match_seq]
        if seqs:
            self.corrections.update(found)
            return self._rederive(min(seqs))
        if isinstance(event, MatchConfirmed):
            self.match_seq[event.match.id] = seq
        applied = self.state.apply(event, self.corrections)
        if seq % self.snapshot_every == 0:
            self.snapshots[seq] = self.state.copy()
        return applied

    def snapshot_before(self, seq: int) -> LadderState:
        """The newest snapshot taken strictly before event `seq`."""
        keys = sorted(self.snapshots)
        return self.snapshots[keys[bisect.bisect_left(keys, seq) - 1]]

    def _rederive(self, from_seq: int) -> Rederived:
        base = self.snapshot_before(from_seq)
        # Snapshots at or after the corrected match no longer hold.
        for key in [k for k in self.snapshots if k >= from_seq]:
            del self.snapshots[key]
        state = base.copy()
        applied = []
        for seq in range(base.seq + 1, len(self.events) + 1):
            applied.append(state.apply(self.events[seq - 1], self.corrections))
            if seq % self.snapshot_every == 0:
                self.snapshots[seq] = state.copy()
        old, self.state = self.state, state
        return Rederived(base.seq + 1, tuple(applied),
                         standing_changes(old.players.get, old.order, state, old.players))
