"""Numbered migrations: an older database moves forward, a newer one is refused untouched."""

from __future__ import annotations

import hashlib
import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from core.domain.calendar import parse_instant
from core.domain.settings import preset
from core.i18n import decode, span, t
from storage.sql.codec import settings_to_json
from storage.sql.versions import SchemaTooNew, migrations
from storage.sqlite.schema import migrate, prepare
from storage.sqlite.store import SqliteStore
from tests.support.chat import Chat


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
        # (the column schema 2 added is in use)
        assert ladder is not None and ladder.next_due is not None


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


async def test_a_new_database_has_the_schema_the_migrations_give_one_by_one(
        tmp_path: Path) -> None:
    # (a new database is given the schema in one transaction: storage/sqlite/schema.py)
    schema_one(tmp_path / "upgraded.db")
    for name in ("upgraded.db", "new.db", "second.db"):
        async with SqliteStore(tmp_path / name):
            pass

    def schema(name: str) -> tuple[Any, ...]:
        with sqlite3.connect(tmp_path / name) as conn:
            objects = conn.execute("SELECT type, name, tbl_name, sql FROM sqlite_master "
                                   "ORDER BY name").fetchall()
            pragmas = [conn.execute(f"PRAGMA {p}").fetchone()[0]
                       for p in ("user_version", "journal_mode", "integrity_check")]
        conn.close()
        return tuple(objects), tuple(pragmas)

    upgraded = schema("upgraded.db")
    assert upgraded[1] == (max(n for n, _ in migrations()), "wal", "ok")
    assert schema("new.db") == schema("second.db") == upgraded


def test_a_new_database_another_process_made_meanwhile_is_left_as_it_is(
        tmp_path: Path) -> None:
    path = tmp_path / "l.db"
    first, second = (sqlite3.connect(path, isolation_level=None) for _ in range(2))
    try:
        assert second.execute("PRAGMA user_version").fetchone() == (0,)  # (seen as new)
        prepare(first, str(path))
        first.execute("INSERT INTO ladders (chat, name, base_settings, settings, created_at, "
                      "clock, is_default) VALUES ('console', 'main', '{}', '{}', 1, 1, 1)")
        assert migrate(second, 0, migrations()) == max(n for n, _ in migrations())
        assert second.execute("SELECT name FROM ladders").fetchall() == [("main",)]
    finally:
        first.close()
        second.close()


def test_migrations_are_numbered_without_gaps() -> None:
    numbers = [n for n, _ in migrations()]
    assert numbers == list(range(1, len(numbers) + 1))


FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


async def test_a_database_made_by_the_first_release_keeps_every_standing(tmp_path: Path) -> None:
    # schema1.db was written by commit 5f41862 (schema 1, before any migration existed):
    # `ladderbot console --admin mod < schema1-script.txt` (three rulebooks, corrections,
    # a challenge, a confirmation, decay); schema1-export.json is that version's
    # `ladderbot export --at 2026-01-10T09:00:00+00:00` of each ladder.
    db = tmp_path / "old.db"
    db.write_bytes((FIXTURES / "schema1.db").read_bytes())
    expected = json.loads((FIXTURES / "schema1-export.json").read_text(encoding="utf-8"))
    at = parse_instant("2026-01-10T09:00:00+00:00")
    async with SqliteStore(db) as store:
        chat = Chat(store, at=at)
        for ladder, old in expected.items():
            now = await chat.export(ladder)
            # Keys added since (CONSOLE.md: "more keys may be added"): a match's score,
            # none for a single game; the ladder's tournaments, none.
            assert [m.pop("score") for m in now["matches"]] == [None] * len(old["matches"])
            assert now.pop("tournaments") == []
            assert now == old
        assert "Match #9: a beat c" in await chat.ok("a", "/report win @c ladder=main")
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == migrations()[-1][0]
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        # Schema 11 built the players table anew: the histogram's triggers came back and
        # kept counting through the report above.
        kept = conn.execute("SELECT ladder, bucket, n FROM rating_counts WHERE n > 0 "
                            "ORDER BY 1, 2").fetchall()
        counted = conn.execute("SELECT ladder, CAST(rating AS INTEGER), count(*) FROM players "
                               "WHERE member = 1 GROUP BY 1, 2 ORDER BY 1, 2").fetchall()
        assert kept == counted and kept
        triggers = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE "
                                               "type = 'trigger'")}
        assert triggers == {"rating_counts_insert", "rating_counts_update",
                            "rating_counts_delete"}
    conn.close()


def rewound(conn: sqlite3.Connection, version: int) -> None:
    """A database of this schema taken back to `version`: what later migrations add
    that cannot be added twice is taken out, so that they run again."""
    conn.execute(f"PRAGMA user_version = {version}")
    conn.executescript("DROP INDEX player_names_look; "
                       "ALTER TABLE player_names DROP COLUMN look; "  # (schema 20)
                       "ALTER TABLE changes DROP COLUMN rd; "  # (schema 21)
                       "DROP TABLE heads; DROP TABLE head_pairs; "  # (schema 22)
                       "DROP TABLE tournaments;")  # (schema 23)


async def test_schema_14_keeps_notes_as_messages_not_words(tmp_path: Path) -> None:
    db = tmp_path / "l.db"
    async with SqliteStore(db) as store:
        chat = Chat(store)
        await chat.ladder("duel", "confirm=false")
        await chat.join("a", "b", "c")
        for _ in range(5):  # the fifth game of the pair is farmed: unrated
            await chat.ok("a", "/report win @b")
        await chat.ok("mod", "/ladder set confirm=true")
        await chat.ok("a", "/report win @c")  # 6, withdrawn
        await chat.ok("a", "/withdraw")
        await chat.ok("c", "/report win @a")  # 7, disputed without a reason
        await chat.ok("a", "/dispute")
    # The notes as schema 13 wrote them: English words.
    with sqlite3.connect(db) as conn:
        for match, words in ((5, "this pair already has 4 rated games in the last 7 days, so "
                                 "unrated (anti-farming)"), (6, "withdrawn by a"),
                             (7, "no reason given")):
            conn.execute("UPDATE matches SET note=? WHERE id=?", (words, match))
        conn.execute("UPDATE ladders SET restate_from=NULL, restate_to=NULL")
        rewound(conn, 13)
    conn.close()

    async with SqliteStore(db) as store:
        def notes(repo: Any) -> dict[int, str]:
            return {m: repo.match(1, m).note for m in (5, 6, 7)}

        before = await store.run(notes)
        assert decode(before[6]) == t("note.withdrawn", name="a")
        assert decode(before[7]) == t("dispute.no_reason")
        assert decode(before[5]) == before[5]  # the fold's words, until restated
        await store.restate_pending()
        after = await store.run(notes)
        assert decode(after[5]) == t("note.farmed", count=4, within=span(7, "day"))
        assert (after[6], after[7]) == (before[6], before[7])
        history = await Chat(store).ok("a", "/history")
        assert "#6 " in history and "voided (withdrawn by a)" in history
        assert "so unrated (anti-farming)" in history


async def test_schema_15_keeps_the_bots_own_audit_words_as_messages(tmp_path: Path) -> None:
    db = tmp_path / "l.db"
    async with SqliteStore(db) as store:
        chat = Chat(store)
        await chat.ladder("duel", "confirm=false")
        await chat.join("a")
        await chat.ok("mod", "/mod adjust @a +5 bonus")
        await chat.ok("mod", "/mod adjust @a -1 typo")
        await chat.ok("mod", "/mod season close")
        await chat.ok("mod", "/mod add @b")
        await chat.ladder("nhwc", name="rungs")
        await chat.ok("a", "/join ladder=rungs")
        await chat.ok("b", "/join ladder=rungs")
        await chat.ok("b", "/challenge @a ladder=rungs")
        await chat.ok("mod", "/mod cancel 1 no time ladder=rungs")
    # The entries as schema 14 wrote them: English words.
    with sqlite3.connect(db) as conn:
        for entry, column, words in ((1, "detail", "+5 points"), (2, "detail", "-1 point"),
                                     (3, "reason", "closed early"),
                                     (4, "reason", "added by a moderator")):
            conn.execute(f"UPDATE audit SET {column}=? WHERE ladder=1 AND id=?", (words, entry))
        conn.execute("UPDATE audit SET detail='#1 between b and a' WHERE ladder=2")
        rewound(conn, 14)
    conn.close()

    async with SqliteStore(db) as store:
        entries = await store.run(lambda repo: repo.audit(1, limit=10)[::-1])  # oldest first
        assert [decode(e.detail) for e in entries[:2]] == [
            t("adjust.points", count=5, amount="+5"), t("adjust.points", count=1, amount="-1")]
        assert [decode(e.reason) for e in entries[2:]] == [t("audit.closed_early"),
                                                            t("audit.added")]
        history = await Chat(store).ok("a", "/history")
        assert "mod adjusted a +5 points: bonus" in history
        assert "mod closed the season: closed early" in history
        cancelled = await store.run(lambda repo: repo.audit(2, limit=1)[0].detail)
        assert decode(cancelled) == t("audit.challenge", id=1, challenger="b", challenged="a")


async def test_schema_16_lets_a_challenge_be_open_to_anyone_and_keeps_the_others(
        tmp_path: Path) -> None:
    db = tmp_path / "l.db"
    async with SqliteStore(db) as store:
        chat = Chat(store)
        await chat.ladder("nhwc")
        await chat.join("a", "b", "c")
        await chat.ok("c", "/challenge @a")
        await chat.ok("b", "/challenge @a")
        await chat.ok("a", "/accept @b")
    # The table as schema 15 had it: every challenge names the challenged player.
    with sqlite3.connect(db) as conn:
        conn.executescript("""
            CREATE TABLE old (ladder INTEGER NOT NULL REFERENCES ladders(id),
                id INTEGER NOT NULL, challenger INTEGER NOT NULL, challenged INTEGER NOT NULL,
                status TEXT NOT NULL, issued_at INTEGER NOT NULL, answered_at INTEGER,
                reminded INTEGER NOT NULL DEFAULT 0, match INTEGER,
                reason TEXT NOT NULL DEFAULT '', PRIMARY KEY (ladder, id)) WITHOUT ROWID;
            INSERT INTO old SELECT * FROM challenges;
            DROP TABLE challenges;
            ALTER TABLE old RENAME TO challenges;
            CREATE INDEX challenges_unfinished ON challenges (ladder, id)
                WHERE status IN ('open', 'accepted');""")
        rewound(conn, 15)
        with pytest.raises(sqlite3.IntegrityError):
            conn.execute("INSERT INTO challenges (ladder, id, challenger, challenged, status, "
                         "issued_at) VALUES (1, 9, 1, NULL, 'open', 0)")
    conn.close()

    async with SqliteStore(db) as store:
        chat = Chat(store)
        kept = await store.run(lambda repo: [(c.id, c.challenger, c.challenged, c.status)
                                             for c in repo.unfinished_challenges(1)])
        assert kept == [(1, 3, 1, "open"), (2, 2, 1, "accepted")]
        await chat.ok("c", "/challenge cancel")  # #1, to a
        assert "challenges anyone on main" in await chat.ok("c", "/challenge")
        assert "#3 to anyone" in await chat.ok("c", "/profile")
