"""A unit of work's time budget: no one ladder's computation may hold the database
thread, and every other chat and server behind it, for long (issue 47: a setting that made
an iteration endless stopped the whole bot).

The store that runs a unit gives it a deadline by its clock (`within`); the long loops
of the core (a fold over events) call `tick`, which now and then compares the clock with
it. A unit past its deadline raises `Overtime` and is rolled back like any unit that
raises; the adapters answer it with a refusal, and the bot goes on serving.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

SECONDS = 30.0  # a unit's budget: far beyond a correction of the largest ladder measured
EVERY = 256  # ticks between looks at the clock (a look costs about a tenth of a fold step)


class Overtime(Exception):
    """A unit of work went past its time budget (it is rolled back)."""


def _never() -> float:
    return 0.0


class _Deadline(threading.local):
    at: float | None = None
    clock: Callable[[], float] = _never
    ticks: int = 0


_deadline = _Deadline()


@contextmanager
def within(clock: Callable[[], float], seconds: float | None = None) -> Iterator[None]:
    """Run the body with a deadline `seconds` (default: SECONDS) from now by `clock` (the
    store's: the core reads none) on this thread (a store's units run one at a time on
    each of its threads)."""
    outer = (_deadline.at, _deadline.clock)
    _deadline.at, _deadline.clock = clock() + (SECONDS if seconds is None else seconds), clock
    try:
        yield
    finally:
        _deadline.at, _deadline.clock = outer


@contextmanager
def renewed() -> Iterator[None]:
    """Run one command with a budget of its own, by the clock its unit of work was given
    (a unit may hold many commands: a benchmark's batch, a replayed import)."""
    if _deadline.at is None:
        yield
        return
    outer = _deadline.at
    _deadline.at = _deadline.clock() + SECONDS
    try:
        yield
    finally:
        _deadline.at = outer


def tick() -> None:
    """One step of a long loop: raise `Overtime` if the deadline has passed."""
    _deadline.ticks += 1
    if _deadline.ticks >= EVERY:
        _deadline.ticks = 0
        check()


def check() -> None:
    """Raise `Overtime` if the thread's deadline has passed (none set: never)."""
    if _deadline.at is not None and _deadline.clock() > _deadline.at:
        raise Overtime
