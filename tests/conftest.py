"""Shared fixtures: every service test runs on the SQLite store, on PostgreSQL (a
throwaway server, tests/support/postgres.py) and on the in-memory twin."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest

from storage.memory.store import MemoryStore
from storage.postgres.store import PgStore
from storage.sqlite.store import SqliteStore
from tests.support import postgres
from tests.support.chat import Chat


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str]:
    """One PostgreSQL server for the whole run, started when a test first needs it."""
    if postgres.binaries() is None:
        pytest.fail("PostgreSQL is not installed: run `python -m tests.support.postgres --install` "
                    "(README's test command does)")
    with postgres.cluster() as url:
        yield url


@pytest.fixture
async def postgres_url(postgres_server: str) -> str:
    """The URL of a fresh PostgreSQL database (schema) for this test."""
    return await postgres.fresh_database(postgres_server)


@pytest.fixture(params=["memory", "sqlite", "postgres"])
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Any]:
    """A fresh store of each kind."""
    if request.param == "memory":
        yield MemoryStore(snapshot_every=5)
        return
    if request.param == "postgres":
        url = await postgres.fresh_database(request.getfixturevalue("postgres_server"))
        async with PgStore(url, snapshot_every=5, snapshot_per_player=0) as pg:
            yield pg
        return
    async with SqliteStore(tmp_path / "ladder.db", snapshot_every=5,
                           snapshot_per_player=0) as sqlite:
        yield sqlite


@pytest.fixture
async def chat(store: Any) -> Chat:
    """A console chat on a fresh store, moderator `mod`, clock at 2026-01-05 10:00 UTC."""
    return Chat(store)
