"""What the two SQL databases do differently, as a value each store is given.

The repository's SQL is written once, in what SQLite and PostgreSQL both read, with the
qmark placeholders (`?`) of Python's sqlite3; what differs is here: how a writing
transaction begins, the decay statement (SQLite's `min`/`max` of several arguments are
PostgreSQL's `LEAST`/`GREATEST`), SQLite's index hints and row locks.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Dialect:
    """One database's SQL, for the statements where ours differ."""

    name: str  # "sqlite" or "postgresql"
    begin: str  # a unit of work that writes
    read_begin: str  # a unit of work that only reads
    decay: str  # a decay day for every member, the formula of core.domain.elo.decay_amount
    bulk_decay: bool  # a big ladder's decay rebuilds an index beside (storage/sql/replay.py)
    index_hints: bool  # `INDEXED BY`, where SQLite's planner would pick a worse index
    for_update: str  # a read that holds its rows until the transaction ends (a one-time
    # code taken by two processes at once goes to one); SQLite's writer is alone anyway

    def indexed_by(self, index: str) -> str:
        """The hint to read a table through `index`, or nothing."""
        return f" INDEXED BY {index}" if self.index_hints else ""


SQLITE = Dialect(
    name="sqlite",
    begin="BEGIN IMMEDIATE",
    # In WAL mode a reader takes no write lock: it reads beside a writer, even one in
    # another process.
    read_begin="BEGIN DEFERRED",
    decay=("UPDATE players SET rating = rating - min(rating - ?, max(?, CAST(rating * rating "
           "/ ? AS INTEGER))) WHERE ladder=? AND member=1 AND rating > ?"),
    bulk_decay=True, index_hints=True, for_update="")

POSTGRESQL = Dialect(
    name="postgresql",
    begin="BEGIN",
    read_begin="BEGIN",  # PostgreSQL's readers never wait for writers
    decay=("UPDATE players SET rating = rating - LEAST(rating - ?, GREATEST(?, trunc(rating "
           "* rating / ?))) WHERE ladder=? AND member=1 AND rating > ?"),
    bulk_decay=False, index_hints=False,  # (PostgreSQL updates in place)
    for_update=" FOR UPDATE")
