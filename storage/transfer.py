"""Moving a whole database between stores (`ladderbot migrate-db`): SQLite to
PostgreSQL, or back. Both are first brought to the same schema version by opening them;
then every table is copied row for row, in key order, a chunk per transaction. The
rating histogram is not copied: the target's triggers count it as the players arrive.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from storage.sql.dialect import POSTGRESQL
from storage.sql.repo import SqlRepo
from storage.sql.units import SqlStore

# Parents before children; each with its key, for reading in order a chunk at a time.
TABLES: list[tuple[str, tuple[str, ...]]] = [
    ("ladders", ("id",)),
    ("events", ("ladder", "seq")),
    ("snapshots", ("ladder", "seq")),
    ("player_names", ("ladder", "id")),
    ("players", ("ladder", "id")),
    ("matches", ("ladder", "id")),
    ("match_players", ("ladder", "player", "match")),
    ("changes", ("ladder", "seq", "player")),
    ("challenges", ("ladder", "id")),
    ("seasons", ("ladder", "season", "place")),
    ("hall_of_fame", ("ladder", "pos")),
    ("audit", ("ladder", "id")),
    ("seen_messages", ("chat", "message")),
    ("handles", ("platform", "handle")),
    ("outbox", ("id",)),
    ("queues", ("ladder",)),
    ("tournaments", ("ladder", "id")),
    ("imports", ("ladder", "id")),
    ("following", ("ladder", "kind")),
    ("role_holdings", ("ladder", "member")),
    ("links", ("user",)),
    ("shares", ("chat", "name")),
    ("known_moderators", ("user", "chat")),
]
# Not copied: the rating histogram (the target's triggers count it), one-time codes
# (good for ten minutes: asked for again) and standings' heads (a cache of the log:
# storage/sql/heads.py).
NOT_COPIED = frozenset({"rating_counts", "codes", "heads", "head_pairs",
                        "web_sessions"})  # (sessions sign in to one database's bot)
CHUNK = 5000


class TransferError(Exception):
    """The databases cannot be moved as asked; the message says why."""


def _columns(repo: SqlRepo, table: str) -> list[str]:
    rows = repo.conn.execute(
        "SELECT column_name FROM information_schema.columns WHERE table_name=? AND "
        "table_schema=current_schema() ORDER BY ordinal_position", (table,)).fetchall() \
        if repo.dialect is POSTGRESQL else repo.conn.execute(
            f"SELECT name FROM pragma_table_info('{table}')").fetchall()
    return [r[0] for r in rows]


async def copy_database(source: SqlStore, target: SqlStore,
                        progress: Callable[[str, int], None] | None = None) -> dict[str, int]:
    """Copy every row of `source` into the empty `target`; returns the rows per table."""
    if await target.run(lambda repo: repo.every_ladder(), commit=False):
        raise TransferError("the target database already has ladders; migrate into an "
                            "empty one")
    copied: dict[str, int] = {}
    for table, key in TABLES:
        def columns_of(repo: SqlRepo, t: str = table) -> list[str]:
            return _columns(repo, t)

        columns = await source.run(columns_of, commit=False)
        names = ", ".join(f'"{c}"' for c in columns)
        insert = f"INSERT INTO {table} ({names}) VALUES ({', '.join('?' * len(columns))})"
        keys = ", ".join(f'"{k}"' for k in key)  # ("user" is a word of PostgreSQL's)
        at = [columns.index(k) for k in key]
        last: tuple[Any, ...] | None = None
        count = 0
        while True:
            where = f"WHERE ({keys}) > ({', '.join('?' * len(key))}) " if last else ""
            sql = f"SELECT {names} FROM {table} {where}ORDER BY {keys} LIMIT {CHUNK}"
            def read(repo: SqlRepo, s: str = sql, a: tuple[Any, ...] = last or ()
                     ) -> list[tuple[Any, ...]]:
                return list(repo.conn.execute(s, a).fetchall())

            rows = await source.run(read, commit=False)
            if not rows:
                break

            def write(repo: SqlRepo, i: str = insert, r: list[tuple[Any, ...]] = rows
                      ) -> None:
                repo.conn.executemany(i, r)

            await target.run(write)
            count += len(rows)
            last = tuple(rows[-1][i] for i in at)
            if progress is not None:
                progress(table, count)
        copied[table] = count
    await target.run(_after_copy)
    return copied


def _after_copy(repo: SqlRepo) -> None:
    """New ladders and announcements number on from the copied ones (PostgreSQL's
    identity columns do not see rows inserted with their ids)."""
    if repo.dialect is not POSTGRESQL:
        return
    for table in ("ladders", "outbox"):
        repo.conn.execute(
            f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
            f"coalesce((SELECT max(id) FROM {table}), 0) + 1, false)")
