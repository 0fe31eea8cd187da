"""Numbered migrations: an older database moves forward, a newer one is refused untouched."""

from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path

import pytest

from core.settings import preset
from storage.codec import settings_to_json
from storage.sqlite import SchemaTooNew, SqliteStore, migrations
from tests.chat import Chat


def schema_one(path: Path) -> None:
    """A database as Ladderbot's first schema wrote it, with a ladder in it."""
    settings = settings_to_json(preset("duel"))
    first = dict(migrations())[1]
    with sqlite3.connect(path) as conn:
        conn.executescript(f"BEGIN;\n{first}\nPRAGMA user_version = 1;\nCOMMIT;")
        conn.execute(
            "INSERT INTO ladders (chat, name, base_settings, settings, created_at, clock, "
            "is_default) SELECT 'console', 'main', ?, ?, 1767607200, 1767607200, 1",
            (settings, settings))
    conn.close()


async def test_an_older_database_is_migrated_forward(tmp_path: Path) -> None:
    db = tmp_path / "old.db"
    schema_one(db)
    async with SqliteStore(db) as store:
        version = await store.run(lambda repo: repo.conn.execute("PRAGMA user_version")
                                  .fetchone()[0])
        assert version == max(n for n, _ in migrations())
        chat = Chat(store)
        await chat.join("alice", "bob")
        assert "Match #1 reported" in await chat.ok("alice", "/report win @bob")
        ladder = await store.run(lambda repo: repo.ladder("console", "main"))
        assert ladder.next_due is not None  # the column schema 2 added is in use


async def test_a_newer_database_is_refused_and_not_changed(tmp_path: Path) -> None:
    db = tmp_path / "new.db"
    with sqlite3.connect(db) as conn:
        conn.execute("CREATE TABLE future (x)")
        conn.execute("PRAGMA user_version = 999")
    conn.close()
    before = hashlib.sha256(db.read_bytes()).hexdigest()
    with pytest.raises(SchemaTooNew, match=r"schema version 999.*was not changed"):
        async with SqliteStore(db):
            pass
    assert hashlib.sha256(db.read_bytes()).hexdigest() == before


def test_migrations_are_numbered_without_gaps() -> None:
    numbers = [n for n, _ in migrations()]
    assert numbers == list(range(1, len(numbers) + 1))
