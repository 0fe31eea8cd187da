"""One call on aiosqlite's database thread.

aiosqlite runs every statement as one queued call on its own thread; each `await`
costs a thread hop (PITFALLS.md). A command's whole transaction should be one hop, so
we queue a function that receives the sqlite3 connection. aiosqlite has no public API
for that; these are the only private names we touch, checked by a test, so an upgrade
breaks here and nowhere else.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar, cast

import aiosqlite

T = TypeVar("T")


async def call(db: aiosqlite.Connection, fn: Callable[[sqlite3.Connection], T]) -> T:
    """Run `fn(connection)` on the database thread and return its result."""
    connection: sqlite3.Connection = db._conn
    execute: Callable[..., Awaitable[Any]] = db._execute  # (aiosqlite's, untyped)
    return cast(T, await execute(fn, connection))
