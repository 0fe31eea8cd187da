"""The standings of recently used ladders, kept within a memory budget.

A count of ladders is the wrong bound: too small for many small ladders, too big for a few
of 100,000 players. Each ladder is weighed instead, by what its standings hold (players,
the journal of recent events a correction rolls back through, closed seasons' tables),
at the sizes measured with tracemalloc (`tuning`), and the least recently used are dropped
while the whole weighs more than the budget. The weight is an estimate: exact when the
ladder is loaded, then moved on by what each unit of work added (a walk over a journal
of thousands of entries on every command would cost more than it saves).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass

from core.domain.state import LadderState
from storage.sql import tuning
from storage.sql.history import Cached


@dataclass
class _Weighed:
    cached: Cached
    base: int  # its weight when loaded
    players: int  # ...and what it held then
    entries: int
    weight: int


def weigh(state: LadderState) -> int:
    """Bytes the standings hold, by the measured sizes of what they hold."""
    journal = state.undo or ()
    copies = sum(len(entry.players) for entry in journal)
    rows = sum(len(table) for table in state.frozen.values())
    return (tuning.LADDER_BYTES + tuning.PLAYER_BYTES * (len(state.players) + copies)
            + tuning.ENTRY_BYTES * len(journal) + tuning.ROW_BYTES * rows)


class LadderCache:
    """Ladders' standings by id, least recently used first, within `budget` bytes.

    (PostgreSQL's connections each run on a thread: one may evict a ladder between
    another's look and its move to the end, hence the lock.)
    """

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self.weight = 0
        self._held: OrderedDict[int, _Weighed] = OrderedDict()
        # Dropped standings whose heads are yet to be kept (storage/sql/heads.py), by
        # weight; none where the store keeps no heads (it only reads).
        self.keeps = True
        self._dropped: OrderedDict[int, _Weighed] = OrderedDict()
        self._dropped_weight = 0
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._held)

    def get(self, ladder: int) -> Cached | None:
        with self._lock:
            found = self._held.get(ladder)
            if found is None:
                return None
            self._held.move_to_end(ladder)
            return found.cached

    def put(self, ladder: int, cached: Cached) -> None:
        state = cached.state
        weight = weigh(state)  # (outside the lock: it walks the journal)
        with self._lock:
            old = self._held.pop(ladder, None)
            self.weight += weight - (old.weight if old is not None else 0)
            self._held[ladder] = _Weighed(cached, weight, len(state.players),
                                          len(state.undo or ()), weight)
            self._fit()

    def reweigh(self, ladders: set[int]) -> None:
        """After units of work changed these ladders: their weights moved on by the
        players and journal entries they added; then the budget kept."""
        with self._lock:
            for ladder in ladders:
                found = self._held.get(ladder)
                if found is None:
                    continue
                state = found.cached.state
                weight = max(tuning.LADDER_BYTES, found.base
                             + tuning.PLAYER_BYTES * (len(state.players) - found.players)
                             + tuning.DUEL_ENTRY_BYTES * (len(state.undo or ()) - found.entries))
                self.weight += weight - found.weight
                found.weight = weight
            self._fit()

    def forget(self, ladders: set[int]) -> None:
        """Drop these ladders' standings, which may no longer be the stored ones."""
        with self._lock:
            for ladder in ladders:
                gone = self._dropped.pop(ladder, None)
                self._dropped_weight -= gone.weight if gone is not None else 0
                found = self._held.pop(ladder, None)
                if found is not None:
                    self.weight -= found.weight

    def dropped(self, everything: bool = False) -> list[tuple[int, Cached]]:
        """The standings dropped to keep the budget since last asked (with `everything`,
        those held too, which are dropped), for their heads to be kept."""
        with self._lock:
            found, self._dropped, self._dropped_weight = self._dropped, OrderedDict(), 0
            if everything:
                found.update(self._held)
                self._held.clear()
                self.weight = 0
            return [(ladder, held.cached) for ladder, held in found.items()]

    def _fit(self) -> None:
        """Drop the least recently used while over the budget (the newest stays: a ladder
        bigger than the budget is still served, and dropped when another is used)."""
        while self.weight > self.budget and len(self._held) > 1:
            ladder, dropped = self._held.popitem(last=False)
            self.weight -= dropped.weight
            if self.keeps:
                self._dropped[ladder] = dropped
                self._dropped_weight += dropped.weight
        # Until their heads are kept (after the next unit that writes), dropped standings
        # weigh at most another budget: the oldest beyond it are let go of for good.
        while self._dropped_weight > self.budget and len(self._dropped) > 1:
            self._dropped_weight -= self._dropped.popitem(last=False)[1].weight
