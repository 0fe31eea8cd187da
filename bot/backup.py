"""Backups and restores of the SQLite database, safe while the bot runs.

A backup is SQLite's online backup API: a consistent snapshot, taken while the bot
keeps writing. A restore checks the copy first (integrity, schema version, that it is a
Ladderbot database), keeps the current database beside it, and writes the copy into
place through the same API: journaled by SQLite, so an interrupted restore leaves the
old database, never half of each. A running bot holds `<db>.lock`; restore refuses then.
"""

from __future__ import annotations

import asyncio
import calendar
import contextlib
import errno
import fcntl
import sqlite3
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

from core.domain.calendar import DAY
from storage.sql.versions import migrations
from storage.sqlite import files
from storage.sqlite.schema import configure
from storage.sqlite.store import SqliteStore

STAMP = "%Y%m%d-%H%M%S"  # in names of backups, UTC
SQLITE_HEADER = b"SQLite format 3\x00"  # how every SQLite database file begins


class BackupError(Exception):
    """A backup or restore that cannot be done; the message says why."""


def backup(db: Path, target: Path, folder: bool = False) -> Path:
    """A consistent copy of `db` at `target` (into it, dated, if it is or is meant to be a
    folder), taken online and checked; returns the copy's path."""
    if not db.exists():
        raise BackupError(f"there is no database at {db}")
    if folder:
        target.mkdir(parents=True, exist_ok=True)
    if target.is_dir():
        target = target / f"{db.stem}-{time.strftime(STAMP, time.gmtime())}.db"
    target.parent.mkdir(parents=True, exist_ok=True)
    with _replaceable(db, target), contextlib.closing(sqlite3.connect(db, timeout=30)) \
            as source:
        _copy(source, target)
    check(target)
    return target


@contextlib.contextmanager
def _replaceable(db: Path, target: Path) -> Iterator[None]:
    """Refuse a target whose replacement would take a database from under a program: the
    database itself, or one a Ladderbot runs on (held off it while the copy is written).
    The copy is put in place by a rename, and a program that has the old file open goes on
    writing into it, its journal now beside the copy: SQLite finds the database damaged
    after its next checkpoint. Nor is a file that is no SQLite database replaced."""
    with contextlib.ExitStack() as held:
        if target.exists():
            _not_to_replace(db, target)
            if Path(f"{target}.lock").exists():  # (else no Ladderbot has run on it)
                try:
                    held.enter_context(running(target, exclusive=True))
                except BackupError:
                    raise BackupError(f"a Ladderbot runs on {target}: name another file for "
                                      "the copy") from None
        yield


def _not_to_replace(db: Path, target: Path) -> None:
    """Refuse a target that is the database itself, or a file that is no SQLite database."""
    if target.samefile(db):
        raise BackupError(f"{target} is the database itself: name another file for the copy "
                          "(ladderbot backup PATH copies the database to PATH)")
    with target.open("rb") as file:
        head = file.read(len(SQLITE_HEADER))
    if head and head != SQLITE_HEADER:
        raise BackupError(f"{target} is not a SQLite database: it was left as it is; name "
                          "another file for the copy")


def _copy(source: sqlite3.Connection, target: Path) -> None:
    """`copy_database`, its failure (a full disk, a lock held too long) said as a
    BackupError."""
    try:
        files.copy_database(source, target)
    except sqlite3.Error as error:
        raise _not_written(target, error) from None


def _not_written(target: Path, error: sqlite3.Error) -> BackupError:
    return BackupError(f"could not write {target}: {error} (nothing was left behind; is the "
                       "disk full?)")


def check(path: Path) -> int:
    """Refuse a file that is not a sound Ladderbot database; return its schema version."""
    if not path.exists():
        raise BackupError(f"there is no file at {path}")
    try:
        with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as conn:
            verdict = conn.execute("PRAGMA integrity_check").fetchone()[0]
            if verdict != "ok":
                raise BackupError(f"{path} fails SQLite's integrity check: {verdict}")
            return files.schema_version(conn, str(path), migrations()[-1][0])
    except sqlite3.DatabaseError as error:
        raise BackupError(f"{path} is not a readable SQLite database: {error}") from None
    except files.UnusableDatabase as error:
        raise BackupError(str(error)) from None


@contextlib.contextmanager
def running(db: Path, exclusive: bool = False) -> Iterator[None]:
    """Hold the database's lock file: shared while a bot runs (several may), exclusive
    for a restore. The operating system releases it however the process ends."""
    try:
        lock = open(Path(f"{db}.lock"), "a")  # noqa: SIM115 (held for the whole block)
    except OSError as error:
        if error.errno != errno.EROFS or exclusive:
            raise
        yield  # a read-only mount: no restore can replace the file under a reader
        return
    try:
        try:
            fcntl.flock(lock, (fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH) | fcntl.LOCK_NB)
        except BlockingIOError:
            raise BackupError(f"a Ladderbot is running on {db}: stop it first" if exclusive
                              else f"{db} is being restored") from None
        yield
    finally:
        lock.close()


def restore(source: Path, db: Path, busy_seconds: float = files.BUSY_SECONDS
            ) -> Path | None:
    """Put a checked backup in place of `db`; return where the replaced database is kept
    (None when there was none)."""
    check(source)
    with running(db, exclusive=True):
        if not db.exists():
            with contextlib.closing(sqlite3.connect(f"file:{source}?mode=ro", uri=True)) as new:
                _copy(new, db)
            return None
        kept = db.with_name(f"{db.name}.before-restore-{time.strftime(STAMP, time.gmtime())}")
        with contextlib.closing(sqlite3.connect(db, timeout=busy_seconds)) as live:
            _copy(live, kept)
            with contextlib.closing(sqlite3.connect(f"file:{source}?mode=ro", uri=True)) as new:
                try:
                    files.backup(new, live, busy_seconds=busy_seconds)  # journaled by SQLite
                except sqlite3.OperationalError as error:
                    raise BackupError(f"{db} was not restored: {error}. Stop the program "
                                      f"writing to it; {db} is unchanged, and a copy of it is "
                                      f"at {kept}") from None
            configure(live)
            verdict = live.execute("PRAGMA integrity_check").fetchone()[0]
        if verdict != "ok":  # pragma: no cover - the backup API does not produce this
            raise BackupError(f"the restored database fails its integrity check: {verdict}")
    return kept


def _taken(path: Path, stem: str) -> float | None:
    """When a backup file of ours was taken, from its name (None for other files)."""
    try:
        return float(calendar.timegm(time.strptime(path.stem.removeprefix(f"{stem}-"), STAMP)))
    except ValueError:
        return None


async def daily(store: SqliteStore, folder: Path, keep: int, now: float) -> Path | None:
    """The scheduled backup: a new copy in `folder` unless one was taken in the last day,
    then only the newest `keep` kept. Asking often is cheap, so restarts never skip a day
    (an interval trigger would start counting again at every restart)."""
    stem = Path(store.path).stem

    def ours() -> list[tuple[float, Path]]:
        folder.mkdir(parents=True, exist_ok=True)
        found = ((_taken(p, stem), p) for p in folder.glob(f"{stem}-*.db"))
        return sorted((t, p) for t, p in found if t is not None)

    taken = await asyncio.to_thread(ours)
    if taken and now - taken[-1][0] < DAY:
        return None
    target = folder / f"{stem}-{datetime.fromtimestamp(now, UTC).strftime(STAMP)}.db"
    try:
        await store.backup(target)
    except sqlite3.Error as error:
        raise _not_written(target, error) from None
    await asyncio.to_thread(check, target)
    for _, old in (await asyncio.to_thread(ours))[:-keep]:
        await asyncio.to_thread(old.unlink)
    return target
