"""A SQLite file as a file: what it is, opening it only to read, and copying it whole.

The commands that only read never create a database or add tables to another
application's file: `export` needs a Ladderbot database (an older one is upgraded), and
`web` opens one of this version read-only, on a read-only mount too. Copies (backups,
restores) are atomic, leave nothing behind when they fail, and give up when another
program keeps the file locked.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from urllib.parse import quote

import aiosqlite

from storage.sqlite import dbthread

# The tables every Ladderbot database has, from its first migration on.
LADDERBOT_TABLES = frozenset({"ladders", "events", "players"})
BUSY_SECONDS = 10.0  # how long a copy waits for another program's lock (the busy timeout)
COPY_PAGES = 1024  # pages a copy takes per step, so that a lock is noticed between steps


class UnusableDatabase(Exception):
    """A file that is not a Ladderbot database this version can use; the message says why
    and what to do."""


def tables(conn: sqlite3.Connection) -> set[str]:
    """The names of the file's tables (sqlite3.DatabaseError: not a SQLite database)."""
    return {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}


def is_foreign(conn: sqlite3.Connection) -> bool:
    """Whether the file holds another application's tables: a Ladderbot database has a
    schema version from its first migration on, and a new file has no tables."""
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    return version == 0 and bool(tables(conn))


def schema_version(conn: sqlite3.Connection, path: str, latest: int) -> int:
    """The schema version of a Ladderbot database no newer than `latest`, or
    UnusableDatabase (a foreign, empty or newer file)."""
    version = int(conn.execute("PRAGMA user_version").fetchone()[0])
    if version == 0 or not tables(conn) >= LADDERBOT_TABLES:
        raise UnusableDatabase(f"{path} is not a Ladderbot database (the file was not "
                               "changed)")
    if version > latest:
        raise UnusableDatabase(f"{path} was made by a newer Ladderbot (schema {version}; this "
                               f"one knows up to {latest}): upgrade Ladderbot to read it")
    return version


def require_intact(conn: sqlite3.Connection, path: str) -> None:
    """Refuse a database whose pages SQLite finds damaged, before anything reads or
    writes it (the console wrote to one, and export and web served it). SQLite's quick
    check: every page and record, in one pass over the file; the full integrity check
    also compares every index with its table, which `ladderbot backup` and `restore` do."""
    try:
        found = [row[0] for row in conn.execute("PRAGMA quick_check(3)")]
    except sqlite3.DatabaseError as error:  # (damage SQLite meets before it can check)
        found = [str(error)]
    if found != ["ok"]:
        raise UnusableDatabase(f"{path} is damaged (SQLite's check: {'; '.join(found)}): "
                               "restore a backup with ladderbot restore")


def require_current(conn: sqlite3.Connection, path: str, latest: int) -> int:
    """For a read-only store: refuse anything but a Ladderbot database of schema `latest`
    (an older one cannot be upgraded without writing), or one that is damaged."""
    conn.execute("PRAGMA busy_timeout=10000")
    version = schema_version(conn, path, latest)
    require_intact(conn, path)
    if version < latest:
        raise UnusableDatabase(
            f"{path} was written by an older Ladderbot (schema {version}; this one has "
            f"{latest}): start the bot on it once (ladderbot run or console) to upgrade it")
    return version


async def connect_readonly(path: str, check: Callable[[sqlite3.Connection], object]
                           ) -> aiosqlite.Connection:
    """A connection that only reads `path`, once `check` (on the database thread) passed;
    UnusableDatabase when SQLite cannot read the file."""
    for immutable in (False, True):
        db = await aiosqlite.connect(readonly_uri(path, immutable), uri=True,
                                     isolation_level=None)
        try:
            await dbthread.call(db, check)
            return db
        except sqlite3.OperationalError as error:
            await db.close()
            # On a read-only mount SQLite cannot create the file it shares with writers;
            # with no log of unwritten changes beside it, the file alone is the truth.
            if immutable or not await asyncio.to_thread(can_be_immutable, path):
                raise UnusableDatabase(f"{path}: {error}") from None
        except sqlite3.DatabaseError as error:
            await db.close()
            raise UnusableDatabase(f"{path} is not a Ladderbot database: {error}") from None
        except BaseException:
            await db.close()
            raise
    raise AssertionError("unreachable")


def readonly_uri(path: str, immutable: bool = False) -> str:
    """The URI that opens `path` only to read; `immutable` where SQLite may not even
    create its shared-memory file beside it (a read-only mount)."""
    return f"file:{quote(os.path.abspath(path))}?mode=ro" + ("&immutable=1" if immutable
                                                            else "")


def on_read_only(path: str) -> bool:
    """Whether `path` (or, for a file still to be made, its folder) lies on a file system
    mounted read-only."""
    where = path if os.path.exists(path) else (os.path.dirname(path) or ".")
    try:
        return bool(os.statvfs(where).f_flag & os.ST_RDONLY)
    except OSError:  # no such folder: opening the file will say so
        return False


def can_be_immutable(path: str) -> bool:
    """Whether `path` may be read as immutable: no write-ahead log beside it holds
    changes that reading the file alone would miss."""
    wal = Path(f"{path}-wal")
    return not wal.exists() or wal.stat().st_size == 0


def copy_database(source: sqlite3.Connection, target: Path) -> None:
    """Copy a whole database into a new self-contained file, atomically (a temp file, then
    a rename), with SQLite's backup API: one consistent snapshot even while others write.
    On any failure (a full disk, a lock held longer than BUSY_SECONDS) nothing is left
    behind."""
    partial = target.with_name(f".{target.name}.partial")
    _remove(partial)
    try:
        dest = sqlite3.connect(partial)
        try:
            backup(source, dest)
            dest.execute("PRAGMA journal_mode=DELETE")
        finally:
            dest.close()
        os.replace(partial, target)
    except BaseException:
        _remove(partial)
        raise


def backup(source: sqlite3.Connection, dest: sqlite3.Connection, *,
           busy_seconds: float = BUSY_SECONDS,
           clock: Callable[[], float] = time.monotonic) -> None:
    """`source.backup(dest)`, giving up with sqlite3.OperationalError once either side has
    been locked by another program for `busy_seconds` (Python's own loop waits forever)."""
    moved = [clock()]  # when the copy last made progress (a step may wait in SQLite first)

    def progress(status: int, remaining: int, total: int) -> None:
        now = clock()
        if status not in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
            moved[0] = now
        elif now - moved[0] >= busy_seconds:
            raise sqlite3.OperationalError(
                f"another program has held the database locked for {busy_seconds:g} s")

    source.backup(dest, pages=COPY_PAGES, progress=progress, sleep=0.05)


def _remove(partial: Path) -> None:
    for path in (partial, *(Path(f"{partial}{end}") for end in ("-journal", "-wal", "-shm"))):
        path.unlink(missing_ok=True)


def discard_new(path: Path) -> None:
    """Remove a database this process made moments ago, with its journal and lock files,
    if it holds no ladder: what a refused command (an import into a mistyped --db) would
    otherwise leave behind."""
    try:
        with contextlib.closing(sqlite3.connect(readonly_uri(str(path)), uri=True)) as conn:
            if conn.execute("SELECT 1 FROM ladders LIMIT 1").fetchone() is not None:
                return
    except sqlite3.DatabaseError:  # (not there, or not made whole: nothing to keep either)
        pass
    _remove(path)
    Path(f"{path}.lock").unlink(missing_ok=True)
