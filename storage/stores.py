"""Which store a database target names: a PostgreSQL URL, or a SQLite file."""

from __future__ import annotations

from typing import Any

from storage.postgres.store import PgStore, is_url
from storage.sql.units import SqlStore
from storage.sqlite.store import SqliteStore


def store_for(target: str, **options: Any) -> SqlStore:
    """The store a database target names: a PostgreSQL URL, or a SQLite file."""
    return PgStore(target, **options) if is_url(target) else SqliteStore(target, **options)
