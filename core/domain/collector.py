"""The cyclic garbage collector, paused around bulk work.

A long replay, or a snapshot built or read, makes a few hundred thousand small objects
that stay alive until it ends. Each batch of them sets off a collection, and the full
ones walk every object the bot holds: measured on the bench ladder (a million matches),
two full collections of 0.1-0.15 s each in every old correction, a fifth of a replay's
time. None of these objects form cycles, so reference counting frees them alone.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def paused() -> Iterator[None]:
    """Run the block with the cyclic collector off, then as it was. If it is already
    off (an enclosing pause, or the host's own choice), leave it alone."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
