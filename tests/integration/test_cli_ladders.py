"""`ladderbot ladders` lists every chat and ladder, so `export --chat` needs no guessing."""

from __future__ import annotations

from pathlib import Path

from storage.sqlite.store import SqliteStore
from tests.support.chat import Chat
from tests.support.console import export, ladderbot


async def _database(path: Path) -> None:
    async with SqliteStore(path) as store:
        group = Chat(store, chat="telegram:-1001234")
        await group.ladder("duel")
        await group.join("alice")
        server = Chat(store, chat="discord:99")
        await server.ladder("nhwc", name="cup")
        await server.ok("mod", "/ladder set public=true")


async def test_ladders_lists_every_chat_and_ladder(tmp_path: Path) -> None:
    db = tmp_path / "l.db"
    await _database(db)
    done = ladderbot("ladders", "--db", str(db))
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "CHAT               LADDER  RULEBOOK  DEFAULT  PUBLIC  MEMBERS",
        "discord:99         cup     nhwc      yes      yes     0",
        "telegram:-1001234  main    duel      yes              1",
    ]
    # and export takes the chat key as listed, the way README writes it
    data = export(db, "2026-01-05T11:00:00+00:00", chat="telegram:-1001234")
    assert [p["name"] for p in data["players"]] == ["alice"]


async def test_export_of_the_wrong_chat_names_the_right_one(tmp_path: Path) -> None:
    db = tmp_path / "l.db"
    await _database(db)
    done = ladderbot("export", "--db", str(db), "--ladder", "main")
    assert done.returncode == 1
    assert "A ladder main is in: telegram:-1001234 (--chat). `ladderbot ladders` lists" \
        in done.stderr


def test_ladders_of_an_empty_or_missing_database(tmp_path: Path) -> None:
    done = ladderbot("ladders", "--db", str(tmp_path / "none.db"))
    assert done.returncode == 1 and "there is no database" in done.stderr
    ladderbot("console", "--db", str(tmp_path / "empty.db"), stdin="")
    done = ladderbot("ladders", "--db", str(tmp_path / "empty.db"))
    assert done.returncode == 0 and done.stdout == "No ladders in this database yet.\n"


async def test_export_as_readme_writes_it_takes_the_chats_default_ladder(tmp_path: Path) -> None:
    db = tmp_path / "l.db"
    await _database(db)
    done = ladderbot("export", "--db", str(db), "--chat", "discord:99")  # no --ladder
    assert done.returncode == 0, done.stderr
    assert '"ladder": "cup"' in done.stdout
