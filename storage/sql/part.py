"""What every part of the SQL repository may use of the whole (storage/sqlite/store.py's
`SqlRepo` is made of the parts): the connection, the store, the two statement
helpers, and the few methods one part calls in another."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from storage.sql.dialect import Dialect

Read = tuple[str, tuple[Any, ...]]  # a statement and its arguments
ROWS_A_STATEMENT = 100  # rows one INSERT of `insert_rows` carries at most


def insert_rows(conn: Any, head: str, rows: Sequence[Sequence[Any]], tail: str = "") -> None:
    """`head VALUES (...), (...) tail`: a command's few rows in one statement rather
    than one each (on PostgreSQL each statement is the server's work of its own)."""
    for start in range(0, len(rows), ROWS_A_STATEMENT):
        part = rows[start:start + ROWS_A_STATEMENT]
        row = f"({', '.join('?' * len(part[0]))})"
        conn.execute(f"{head} VALUES {', '.join([row] * len(part))}{tail}",
                     [value for values in part for value in values])


class RepoPart:
    """The repository's shared names, declared for the parts that use them."""

    conn: Any
    store: Any
    touched: set[int]  # ladders this unit of work changed (their cached standings)
    _one: Callable[..., Any]  # one row of a statement, or None
    _all: Callable[..., list[Any]]  # every row of a statement
    _ladder_settings: Callable[[int], Any]
    _players_reads: Callable[..., list[Read]]
    _ahead: Callable[..., None]  # a read about to be made (see SqlStore.read_ahead)
    _frozen: Callable[..., Any]  # closed seasons' stored tables (storage/sql/replay.py)
    _corrections: Callable[..., Any]  # a ladder's corrections (storage/sql/replay.py)
    expect: Callable[..., None]  # reads about to be made, named (core.ports.hints)
    settings_read: dict[int, Any]  # settings read under the ladder's lock (repo.py)
    dialect: Dialect
    # across the parts: the log's, re-derivation's and the projections' own
    _cached: Callable[..., Any]
    _snapshot: Callable[..., None]
    _snapshot_before: Callable[..., Any]
    _stream: Callable[..., Any]
    _write_season: Callable[..., None]
    _write_hall: Callable[..., None]
    _write_players: Callable[..., None]
    _rederive: Callable[..., Any]
    season_table: Callable[..., Any]

    @property
    def _match_event(self) -> str:  # the event of a match, by its number (the log's)
        raise NotImplementedError
