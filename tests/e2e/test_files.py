"""The database as a file: what the command line does with files that are not a sound
Ladderbot database, a read-only mount, a full disk, and another program's lock. Each
case printed a raw sqlite3 traceback, changed a file that was not ours, left a partial
copy behind, or waited forever (hardening, round two)."""

from __future__ import annotations

import hashlib
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from bot.backup import BackupError, restore
from bot.cli import main
from storage.sql.versions import migrations
from tests.support.console import DUEL_START, ROOT, console, ladderbot

AT = "2026-01-05T11:00:00+00:00"


def made(tmp_path: Path, name: str = "l.db") -> Path:
    db = tmp_path / name
    console(db, DUEL_START.replace("preset=duel", "preset=duel public=true"))
    return db


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def foreign(path: Path) -> None:
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE notes (x)")
    conn.close()


def void(_: object) -> None:
    """(What a file's write returns, its size, is not wanted here.)"""


def corrupt(path: Path, source: Path) -> None:
    data = bytearray(source.read_bytes())
    data[4096 * 3:4096 * 4] = b"\xff" * 4096  # a page of the tables, past the schema
    path.write_bytes(bytes(data))


BROKEN: dict[str, Callable[[Path, Path], None]] = {
    "foreign": lambda p, _: foreign(p),
    "text": lambda p, _: void(p.write_text("name,rating\nalice,1016\n")),
    "random": lambda p, _: void(p.write_bytes(bytes(range(256)) * 64)),
    "truncated": lambda p, good: void(p.write_bytes(good.read_bytes()[:5000])),
    "corrupt": corrupt,
}


@pytest.mark.parametrize("kind", BROKEN)
def test_a_file_that_is_not_a_sound_database_gets_one_clear_line(
        tmp_path: Path, kind: str, capsys: pytest.CaptureFixture[str]) -> None:
    good = made(tmp_path)
    bad = tmp_path / f"{kind}.db"
    BROKEN[kind](bad, good)
    before = digest(bad)
    runs = [("export", "--db", str(bad), "--ladder", "main", "--at", AT),
            ("web", "--db", str(bad), "--listen", "127.0.0.1:0")]
    for args in runs:  # (in this process: a process of its own costs a second)
        capsys.readouterr()
        code = main(list(args))
        err = capsys.readouterr().err
        assert code == 1, (args, err)
        [line] = err.splitlines()
        assert line.startswith(f"ladderbot {args[0]}: ") and "Traceback" not in line
    done = ladderbot("console", "--db", str(bad), stdin="@alice: /standings\n")
    assert "Traceback" not in done.stderr and done.stderr.strip(), done.stderr
    # (a damaged database was opened and written by the console, exit 0, and served by
    # export and web: it is refused before anything reads or writes it)
    assert done.returncode == 1 and len(done.stderr.splitlines()) == 1, done.stderr
    if kind == "corrupt":
        assert "is damaged" in done.stderr and "ladderbot restore" in done.stderr
    assert digest(bad) == before
    assert not Path(f"{bad}-wal").exists()


def test_another_applications_database_is_left_as_it_was(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # export and web added 16 tables to it, set its user_version and switched it to WAL.
    other = tmp_path / "notes.db"
    foreign(other)
    before = digest(other)
    for args in [("export", "--db", str(other), "--ladder", "main"),
                 ("web", "--db", str(other), "--listen", "127.0.0.1:0")]:
        capsys.readouterr()
        assert main(list(args)) == 1
        assert capsys.readouterr().err == f"ladderbot {args[0]}: {other} is not a Ladderbot " \
                                          "database (the file was not changed)\n"
    done = ladderbot("console", "--db", str(other), stdin="@alice: /join\n")
    assert done.returncode == 1 and "another application's tables" in done.stderr
    assert digest(other) == before
    with sqlite3.connect(other) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone() == ("delete",)
    conn.close()


def _can_mount() -> bool:
    found = shutil.which("unshare")
    return found is not None and subprocess.run(
        [found, "-m", "true"], capture_output=True).returncode == 0


# Serves the database with `ladderbot web` on a free port and reads its first ladder.
SERVE = """
import json, socket, subprocess, sys, time, urllib.request
with socket.socket() as s:
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
web = subprocess.Popen([sys.executable, "-m", "bot.cli", "web", "--db", sys.argv[1],
                        "--listen", f"127.0.0.1:{port}"])
try:
    for _ in range(600):
        try:
            answer = urllib.request.urlopen(f"http://127.0.0.1:{port}/api/ladders/1")
            break
        except OSError:
            time.sleep(0.05)  # until the server listens
    print("web:", answer.status, json.load(answer)["name"])
finally:
    web.terminate()
    web.wait()
"""


@pytest.mark.skipif(not _can_mount(), reason="needs unshare -m (root) for a read-only mount")
def test_export_and_web_read_a_database_on_a_read_only_mount(tmp_path: Path) -> None:
    # Both failed: "unable to open database file" (SQLite could not create its -shm).
    folder = tmp_path / "ro"
    folder.mkdir()
    db = made(folder)
    serve = tmp_path / "serve.py"
    serve.write_text(SERVE)
    python = sys.executable
    script = (f"mount --bind {folder} {folder} && mount -o remount,bind,ro {folder} && "
              f"! touch {folder}/x 2>/dev/null && "
              f"{python} -m bot.cli export --db {db} --ladder main --at {AT} && "
              f"{python} {serve} {db} && "
              f"! echo '@bob: /confirm' | {python} -m bot.cli console --db {db}")
    done = subprocess.run(["unshare", "-m", "sh", "-c", script], capture_output=True,
                          text=True, timeout=120, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert '"name": "alice",\n      "rating": 1000' in done.stdout  # the report is pending
    assert '"status": "pending"' in done.stdout and "web: 200 main" in done.stdout
    # The console writes: refused once, where it answered every line with an apology.
    assert done.stderr == (f"ladderbot console: {db} is on a read-only file system, and "
                           "this command writes to its database (ladderbot web and export "
                           "read one there)\n")


def test_a_backup_onto_a_full_disk_leaves_nothing_behind(tmp_path: Path) -> None:
    db = made(tmp_path)
    with sqlite3.connect(db) as conn:  # a database larger than the disk has room for
        conn.execute("CREATE TABLE padding (x)")
        conn.execute("INSERT INTO padding VALUES (randomblob(3000000))")
    conn.close()
    folder = tmp_path / "backups"
    folder.mkdir()
    done = ladderbot("backup", f"{folder}/", "--db", str(db), limit=1_000_000)
    assert done.returncode == 1
    [line] = done.stderr.splitlines()
    assert line.startswith(f"ladderbot backup: could not write {folder}/l-") and \
        line.endswith("(nothing was left behind; is the disk full?)")
    assert list(folder.iterdir()) == []


def test_the_console_on_a_full_disk_says_so_in_one_line(tmp_path: Path) -> None:
    db = made(tmp_path)
    before = digest(db)
    done = ladderbot("console", "--db", str(db), stdin="@bob: /confirm\n", limit=20_000)
    assert done.returncode == 1
    assert done.stderr == f"ladderbot console: {db}: disk I/O error\n"
    assert digest(db) == before


def test_a_restore_gives_up_while_another_program_holds_the_lock(tmp_path: Path) -> None:
    db = made(tmp_path)
    copy = made(tmp_path, "copy.db")
    writer = sqlite3.connect(db, isolation_level=None)
    try:
        writer.execute("BEGIN IMMEDIATE")
        with pytest.raises(BackupError, match=rf"^{db} was not restored: another program has "
                                              r"held the database locked for 0.2 s"):
            restore(copy, db, busy_seconds=0.2)
    finally:
        writer.execute("ROLLBACK")
        writer.close()
    done = ladderbot("export", "--db", str(db), "--ladder", "main", "--at", AT)
    assert done.returncode == 0 and '"name": "alice"' in done.stdout


async def test_a_failed_daily_backup_leaves_nothing_and_says_why(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from bot.backup import daily
    from storage.sqlite import files
    from storage.sqlite.store import SqliteStore

    def full(source: sqlite3.Connection, dest: sqlite3.Connection, **_: object) -> None:
        dest.execute("CREATE TABLE half (x)")  # the copy had begun
        dest.execute("INSERT INTO half VALUES (randomblob(100000))")
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(files, "backup", full)
    folder = tmp_path / "backups"
    async with SqliteStore(tmp_path / "l.db") as store:
        with pytest.raises(BackupError, match=r"could not write .*: database or disk is full "
                                              r"\(nothing was left behind"):
            await daily(store, folder, keep=7, now=1_767_607_200)
    assert list(folder.iterdir()) == []


def test_the_web_asks_for_an_older_database_to_be_upgraded_first(tmp_path: Path) -> None:
    old = tmp_path / "old.db"
    old.write_bytes((ROOT / "tests" / "fixtures" / "schema1.db").read_bytes())
    before = digest(old)
    done = ladderbot("web", "--db", str(old), "--listen", "127.0.0.1:0")
    assert done.returncode == 1
    latest = migrations()[-1][0]
    assert done.stderr == (f"ladderbot web: {old} was written by an older Ladderbot (schema 1; "
                           f"this one has {latest}): start the bot on it once (ladderbot run "
                           "or console) to upgrade it\n")
    assert digest(old) == before


def test_export_and_web_leave_nothing_where_there_is_no_database(tmp_path: Path) -> None:
    for args in [("export", "--ladder", "main"), ("web", "--listen", "127.0.0.1:0")]:
        done = ladderbot(args[0], "--db", str(tmp_path / "none.db"), *args[1:])
        assert done.returncode == 1
        assert done.stderr == f"ladderbot {args[0]}: there is no database at " \
                              f"{tmp_path / 'none.db'}\n"
    assert list(tmp_path.iterdir()) == []
