"""The two SQL stores for tests that run on both: a SQLite file, or a database of its own on the
tests' PostgreSQL server."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from storage.postgres.store import PgStore
from storage.sqlite.store import SqliteStore
from tests.support import postgres

SQL_STORES = pytest.mark.parametrize("kind", ["sqlite", "postgres"])


async def sql_store(kind: str, path: Path, request: pytest.FixtureRequest,
                    **options: Any) -> SqliteStore | PgStore:
    """A new SQL store of `kind` (not yet open): a SQLite file at `path`, or a database
    of its own on the tests' PostgreSQL server."""
    if kind == "sqlite":
        return SqliteStore(path, **options)
    server = request.getfixturevalue("postgres_server")
    return PgStore(await postgres.fresh_database(server), **options)


def as_killed(store: Any) -> None:
    """Let go of the standings `store` holds without keeping their heads, as a killed
    process does (storage/sql/heads.py): the next load replays the log."""
    store.cache.dropped(everything=True)
