"""A process with more ladders than its memory budget holds still answers every command
right: each ladder it dropped is read again from the database (snapshot and log) when a
command needs it, equal to the in-memory twin's standings that never left memory."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from storage.memory.store import MemoryStore
from storage.postgres.store import PgStore
from storage.sqlite.store import SqliteStore
from tests.support import postgres
from tests.support.chat import Chat

PRESETS = ["duel", "glicko2", "openskill", "warlight", "duel"]
TIGHT_MB = 0.02  # 20 kB: about one small ladder's standings


async def _play(store: Any) -> list[dict[str, Any]]:
    """Five ladders in five chats, their commands interleaved: joins, reports, a void of
    an early match and an adjustment, each ladder's turn coming after the others'."""
    chats = [Chat(store, chat=f"c{i}") for i in range(len(PRESETS))]
    for chat, preset in zip(chats, PRESETS, strict=True):
        await chat.ladder(preset, "confirm=false")
    for chat in chats:
        await chat.join("ann", "ben", "cat")
    rounds = [("ann", "/report win @ben"), ("cat", "/report loss @ann"),
              ("ben", "/report win @cat"), ("mod", "/mod void 1 a mistake"),
              ("mod", "/mod adjust @cat +7 a bonus"), ("ann", "/report win @cat again")]
    for who, text in rounds:
        for chat in chats:
            await chat.ok(who, text)
    return [await chat.export() for chat in chats]


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
async def test_ladders_beyond_the_budget_are_read_again_alike(
        kind: str, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    expected = await _play(MemoryStore())
    if kind == "postgres":
        url = await postgres.fresh_database(request.getfixturevalue("postgres_server"))
        store: Any = PgStore(url, cache_mb=TIGHT_MB)
    else:
        store = SqliteStore(tmp_path / "l.db", cache_mb=TIGHT_MB)
    async with store:
        played = await _play(store)
        assert len(store.cache) <= 2 and store.cache.weight <= 2 * store.cache.budget
    assert played == expected
