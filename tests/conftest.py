"""Shared fixtures: every service test runs on the SQLite store and its in-memory twin."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from storage.memory import MemoryStore
from storage.sqlite import SqliteStore
from tests.chat import Chat


@pytest.fixture(params=["memory", "sqlite"])
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Any]:
    """A fresh store of each kind."""
    if request.param == "memory":
        yield MemoryStore(snapshot_every=5)
        return
    async with SqliteStore(tmp_path / "ladder.db", snapshot_every=5,
                           snapshot_per_player=0) as sqlite:
        yield sqlite


@pytest.fixture
async def chat(store: Any) -> Chat:
    """A console chat on a fresh store, moderator `mod`, clock at 2026-01-05 10:00 UTC."""
    return Chat(store)
