"""Backups taken while the bot writes, restores that check first, daily backups that keep N."""

from __future__ import annotations

import asyncio
import hashlib
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from bot.backup import BackupError, backup, check, daily, restore, running
from bot.config import Config
from bot.runtime import Runtime
from core.domain.calendar import DAY, parse_instant
from storage.sqlite.store import SqliteStore
from tests.support.audit import audit
from tests.support.chat import Chat
from tests.support.console import ladderbot

ROOT = Path(__file__).resolve().parents[2]
AT = "2026-02-01T00:00:00+00:00"

# A bot process that keeps writing: it reports match after match through the command
# layer, one transaction each, and says how many it has done. It stops when told to
# (a line on stdin) or after 100,000 matches.
WRITER = textwrap.dedent("""
    import asyncio, sys, threading
    from core.domain.records import Context, UserRef
    from core.service.dispatch import handle
    from storage.sqlite.store import SqliteStore

    stop = threading.Event()
    threading.Thread(target=lambda: (sys.stdin.readline(), stop.set()), daemon=True).start()

    async def main():
        async with SqliteStore(sys.argv[1]) as store:
            user = lambda n: UserRef(f"console:{n}", n)
            at = int(sys.argv[2])
            for i in range(100_000):
                if stop.is_set():
                    break
                a, b = f"p{i % 10}", f"p{(i * 7 + 3) % 10}"
                if a == b:
                    continue
                ctx = Context("console", user(a), at + i * 60)
                await store.run(lambda repo: handle(repo, ctx, f"/report win @{b}", user))
                if i % 50 == 0:
                    print(i, flush=True)

    asyncio.run(main())
""")


async def seeded(db: Path) -> Chat:
    store = SqliteStore(db)
    await store.open()
    chat = Chat(store)
    await chat.ladder("duel", "confirm=false")
    await chat.join(*(f"p{i}" for i in range(10)))
    return chat


async def test_online_backups_are_consistent_while_another_process_writes(
    tmp_path: Path
) -> None:
    db = tmp_path / "l.db"
    chat = await seeded(db)
    await chat.store.close()
    writer = subprocess.Popen(  # noqa: ASYNC220 (read from a thread below)
        [sys.executable, "-c", WRITER, str(db), str(chat.at + 60)],
        cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert writer.stdin is not None and writer.stdout is not None
    copies = []
    try:
        # Three copies, each once the writer has written more since the one before.
        for n in range(3):
            while int(await asyncio.to_thread(writer.stdout.readline)) < 100 * (n + 1):
                pass
            copies.append(await asyncio.to_thread(backup, db, tmp_path / f"copy{n}.db"))
        writer.stdin.write("stop\n")
        writer.stdin.close()
        await asyncio.to_thread(writer.wait, 60)
    finally:
        writer.kill()
        writer.wait()
        writer.stdout.close()
    assert writer.returncode == 0
    counts = [sum((await audit(copy)).values()) for copy in copies]
    final = sum((await audit(db)).values())
    assert 100 <= counts[0] < counts[1] < counts[2] <= final


async def test_restore_brings_back_exactly_what_was_backed_up(tmp_path: Path) -> None:
    db = tmp_path / "l.db"
    chat = await seeded(db)
    await chat.ok("p1", "/report win @p2")
    at = parse_instant(AT)
    before = await chat.export(at=at)
    await chat.store.backup(tmp_path / "b.db")  # the running bot's own online copy
    await chat.ok("p3", "/report win @p1")
    await chat.ok("mod", "/mod void 1 oops")
    assert await chat.export(at=at) != before
    await chat.store.close()

    kept = restore(tmp_path / "b.db", db)
    assert kept is not None and kept.exists()
    restored = ladderbot("export", "--db", str(db), "--ladder", "main", "--at", AT)
    original = ladderbot("export", "--db", str(tmp_path / "b.db"), "--ladder", "main",
                         "--at", AT)
    assert restored.returncode == 0 and restored.stdout == original.stdout
    async with SqliteStore(db) as store:
        assert await Chat(store).export(at=at) == before
    # the database it replaced is whole, with the later void in it
    async with SqliteStore(kept) as store:
        assert await Chat(store).export(at=at) != before
    await audit(db)


def hashed(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def made(path: Path, sql: str) -> Path:
    with sqlite3.connect(path) as conn:
        conn.executescript(sql)
    conn.close()
    return path


@pytest.mark.parametrize(("build", "why"), [
    (lambda p: p.write_bytes(b"not a database at all" * 100), "not a readable SQLite"),
    (lambda p: made(p, "CREATE TABLE notes (x);"), "not a Ladderbot database"),
    (lambda p: made(p, "CREATE TABLE ladders (x); CREATE TABLE events (x); "
                       "CREATE TABLE players (x); PRAGMA user_version = 999;"),
     "newer Ladderbot"),
    (lambda p: None, "there is no file"),
], ids=["garbage", "foreign", "newer", "missing"])
async def test_restore_refuses_what_is_not_a_sound_backup(
    tmp_path: Path, build: object, why: str
) -> None:
    db = tmp_path / "l.db"
    chat = await seeded(db)
    await chat.store.close()
    before = hashed(db)
    bad = tmp_path / "bad.db"
    build(bad)  # type: ignore[operator]
    with pytest.raises(BackupError, match=why):
        restore(bad, db)
    assert hashed(db) == before
    assert not await asyncio.to_thread(lambda: list(tmp_path.glob("l.db.before-restore-*")))


async def test_a_truncated_backup_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "l.db"
    chat = await seeded(db)
    await chat.store.close()
    whole = backup(db, tmp_path / "b.db")
    whole.write_bytes(whole.read_bytes()[: whole.stat().st_size // 2])
    with pytest.raises(BackupError):
        check(whole)


async def test_restore_refuses_while_a_bot_runs(tmp_path: Path) -> None:
    db = tmp_path / "l.db"
    chat = await seeded(db)
    await chat.store.close()
    copy = backup(db, tmp_path / "b.db")
    before = hashed(db)
    bot = subprocess.Popen(  # noqa: ASYNC220 (only written to, then waited for)
        [sys.executable, "-m", "bot.cli", "console", "--db", str(db)], cwd=ROOT,
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert bot.stdin is not None
        bot.stdin.write("!time 2026-01-05T10:00:00+00:00\n@p1: /standings\n")
        bot.stdin.flush()
        assert bot.stdout is not None
        assert (await asyncio.to_thread(bot.stdout.readline)).startswith("bot: ")
        done = ladderbot("restore", str(copy), "--db", str(db))
        assert done.returncode == 1
        assert "a Ladderbot is running on" in done.stderr and "stop it first" in done.stderr
        assert hashed(db) == before
    finally:
        bot.communicate(timeout=60)
    done = ladderbot("restore", str(copy), "--db", str(db))
    assert done.returncode == 0, done.stderr
    assert "Restored" in done.stdout and "kept at" in done.stdout


def test_the_lock_is_shared_between_bots_and_exclusive_for_a_restore(tmp_path: Path) -> None:
    db = tmp_path / "l.db"
    with running(db), running(db), pytest.raises(BackupError, match="running"), \
            running(db, exclusive=True):  # a bot and the web pages, then a restore
        pass
    with running(db, exclusive=True), pytest.raises(BackupError, match="being restored"), \
            running(db):
        pass


def test_the_backup_command(tmp_path: Path) -> None:
    db = tmp_path / "l.db"
    ladderbot("console", "--db", str(db), "--admin", "mod",
              stdin="@mod: /ladder create main preset=duel\n@a: /join\n")
    done = ladderbot("backup", str(tmp_path / "daily") + "/", "--db", str(db))
    assert done.returncode == 0, done.stderr
    [copy] = (tmp_path / "daily").glob("l-*.db")
    assert f"Backed up {db} to {copy}" in done.stdout
    assert check(copy) > 0
    missing = ladderbot("backup", str(tmp_path / "x.db"), "--db", str(tmp_path / "none.db"))
    assert missing.returncode == 1 and "there is no database at" in missing.stderr


async def test_a_backup_never_replaces_a_database_in_use_nor_another_file(
        tmp_path: Path) -> None:
    """`ladderbot backup ladder.db` (the path is where the copy goes) copied the database
    onto itself: renamed over the file a running bot had open, which went on writing into
    the old one, and SQLite found the database damaged after the bot's next checkpoint.
    Such a target is refused, as is one a bot runs on and a file that is no database;
    an earlier backup is replaced."""
    db, other, notes = tmp_path / "l.db", tmp_path / "other.db", tmp_path / "notes.txt"
    for made in (db, other):
        await (await seeded(made)).store.close()
    notes.write_text("my notes")
    before = db.read_bytes(), other.read_bytes()
    with running(db):  # (a bot on each)
        for target in (db, tmp_path / "." / "l.db"):
            with pytest.raises(BackupError, match="is the database itself"):
                backup(db, target)
        with running(other), pytest.raises(BackupError, match="a Ladderbot runs on"):
            backup(db, other)
        with pytest.raises(BackupError, match="is not a SQLite database"):
            backup(db, notes)
    assert (db.read_bytes(), other.read_bytes()) == before and notes.read_text() == "my notes"
    copy = tmp_path / "copy.db"
    assert backup(db, copy) == copy and backup(db, copy) == copy and check(copy) > 0


async def test_daily_backups_one_a_day_across_restarts_keeping_the_last_n(
    tmp_path: Path
) -> None:
    db = tmp_path / "l.db"
    chat = await seeded(db)
    folder = tmp_path / "backups"
    start = parse_instant("2026-03-01T00:30:00+00:00")
    written = []
    for hour in range(0, 24 * 5, 3):  # asked every 3 hours for five days
        if hour % 24 == 12:  # and the bot restarts every midday
            await chat.store.close()
            await chat.store.open()
        made_now = await daily(chat.store, folder, 3, start + hour * 3600)
        if made_now is not None:
            written.append(made_now.name)
    await chat.store.close()
    assert written == [f"l-202603{d:02d}-003000.db" for d in range(1, 6)]
    assert sorted(p.name for p in folder.iterdir()) == written[-3:]
    for copy in folder.iterdir():
        assert check(copy) > 0


async def test_the_running_bot_takes_the_daily_backup(tmp_path: Path) -> None:
    db = tmp_path / "l.db"
    chat = await seeded(db)
    config = Config(backup_dir=str(tmp_path / "b"), backup_keep=2)
    now = parse_instant("2026-03-01T00:30:00+00:00")
    runtime = Runtime(config, chat.store, [], clock=lambda: now)
    assert [job for job, _, _ in runtime.scheduler.extra] == ["backup"]
    await runtime.backup()
    await runtime.backup()  # the hourly check: already done today
    now += DAY
    await runtime.backup()
    await chat.store.close()
    assert sorted(p.name for p in (tmp_path / "b").iterdir()) == [
        "l-20260301-003000.db", "l-20260302-003000.db"]
    assert Runtime(Config(), chat.store, []).scheduler.extra == []
