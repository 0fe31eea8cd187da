"""Keys that fall due at a time, popped once it has passed.

The fold forgets anti-farming pairs and finished series this way: a prune then costs
what it forgets, not a scan of everything it keeps.
"""

from __future__ import annotations

import heapq
from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from core.domain.model import PlayerId, Timestamp

Pair = tuple[PlayerId, PlayerId]


@dataclass(slots=True)
class DueQueue:
    """(time, key) entries. Times mostly come in order: those go to a queue (cheap),
    the others to a heap. A key may be in it more than once; whoever pops it checks
    whether it is really due."""

    queue: deque[tuple[Timestamp, Pair]] = field(default_factory=deque)
    heap: list[tuple[Timestamp, Pair]] = field(default_factory=list)

    @classmethod
    def of(cls, entries: Iterable[tuple[Timestamp, Pair]]) -> DueQueue:
        """A queue holding `entries`, in any order."""
        heap = list(entries)
        heapq.heapify(heap)
        return cls(deque(), heap)

    def __bool__(self) -> bool:
        return bool(self.queue or self.heap)

    def push(self, at: Timestamp, key: Pair) -> None:
        """Add `key`, due at `at`."""
        queue = self.queue
        if not queue or at >= queue[-1][0]:
            queue.append((at, key))
        else:
            heapq.heappush(self.heap, (at, key))

    def push_all(self, times: list[Timestamp], keys: list[Pair], ordered: bool) -> None:
        """Add each key, due at its time; `ordered` says the times never decrease."""
        queue = self.queue
        if ordered and times and (not queue or times[0] >= queue[-1][0]):
            queue.extend(zip(times, keys, strict=True))
        else:
            for at, key in zip(times, keys, strict=True):
                self.push(at, key)

    def pop_until(self, cutoff: float) -> Iterator[Pair]:
        """Remove and yield every key due at or before `cutoff`."""
        queue, heap = self.queue, self.heap
        while queue and queue[0][0] <= cutoff:
            yield queue.popleft()[1]
        while heap and heap[0][0] <= cutoff:
            yield heapq.heappop(heap)[1]

    def copy(self) -> DueQueue:
        """An independent copy."""
        return DueQueue(deque(self.queue), list(self.heap))
