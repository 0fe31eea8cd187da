"""The SQLite schema: its numbered migrations (storage/sqlite/migrations) applied, how a
file is checked before it is touched, and the settings every connection needs."""

from __future__ import annotations

import functools
import logging
import sqlite3

from storage.sql.versions import migrations, refuse_newer
from storage.sqlite import files

log = logging.getLogger("storage.sqlite")  # (the name the operators' logs know)


def prepare(conn: sqlite3.Connection, path: str = "this file", existing: bool = False) -> int:
    """Refuse a database from a newer version, or another application's file (with
    `existing`, anything but a Ladderbot database), before touching it; else configure,
    migrate."""
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    known = migrations()
    refuse_newer(version, known[-1][0] if known else 0)
    if existing:
        files.schema_version(conn, path, known[-1][0])
    if version:  # (an existing database: none of it is read or written if damaged)
        files.require_intact(conn, path)
    if not existing and files.is_foreign(conn):
        raise files.UnusableDatabase(
            f"{path} holds another application's tables, not a Ladderbot database (it was "
            "not changed): give Ladderbot a file of its own")
    configure(conn)
    return migrate(conn, version, known)


def migrate(conn: sqlite3.Connection, version: int, known: list[tuple[int, str]]) -> int:
    """Bring the schema up to date, each migration in its own transaction. A new database
    is given the schema they lead to in one: 5 ms, where the migrations take 35 (a test
    run makes over a thousand databases)."""
    if not version and known:
        version = _create(conn, known)
    return _apply(conn, version, known)


def _create(conn: sqlite3.Connection, known: list[tuple[int, str]]) -> int:
    """Give a new database the schema `known` leads to, in one transaction; the schema
    version it has after (another process's, if one made it meanwhile)."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        version = int(conn.execute("PRAGMA user_version").fetchone()[0])
        if version or files.tables(conn):
            conn.execute("ROLLBACK")
            return version
        for statement in _schema(tuple(known)):
            conn.execute(statement)
        conn.execute(f"PRAGMA user_version = {known[-1][0]}")
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    return known[-1][0]


@functools.cache
def _schema(known: tuple[tuple[int, str], ...]) -> tuple[str, ...]:
    """The statements that make the schema `known` leads to, read once a process from a
    database migrated in memory, in the order it made them."""
    conn = sqlite3.connect(":memory:", isolation_level=None)
    try:
        configure(conn)
        _apply(conn, 0, list(known))
        return tuple(sql for (sql,) in conn.execute(
            "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite%' "
            "ORDER BY rowid"))
    finally:
        conn.close()


def _apply(conn: sqlite3.Connection, version: int, known: list[tuple[int, str]]) -> int:
    """Each migration after `version`, in its own transaction."""
    latest = known[-1][0] if known else 0
    for number, sql in known:
        if number <= version:
            continue
        if version:  # a new database is simply created; an upgrade is worth a line
            log.info("upgrading the database schema from version %d to %d", number - 1, number)
        try:
            conn.executescript(f"BEGIN IMMEDIATE;\n{sql}\nPRAGMA user_version = {number};\nCOMMIT;")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
    return latest


def configure(conn: sqlite3.Connection) -> None:
    """Settings every connection needs (PITFALLS.md): WAL, a busy timeout, foreign keys."""
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA busy_timeout=10000")
    conn.execute("PRAGMA foreign_keys=ON")
    conn.execute("PRAGMA synchronous=NORMAL")
    # A big sort (the leaderboard index rebuilt after a bulk decay) may use a second core.
    conn.execute("PRAGMA threads=2")
    # Some builds (Debian's) overwrite every freed page with zeros (secure_delete=1): a
    # correction deleting stale snapshots wrote them all out again, 0.15-0.3 s of the
    # first old correction on the bench ladder, and a bulk decay the dropped index.
    # FAST still zeroes deleted rows on the pages a change writes anyway; whole freed
    # pages wait on the freelist for reuse. Nothing is deleted here but what is derived
    # again (standings, history, snapshots) or was posted (delivered announcements).
    conn.execute("PRAGMA secure_delete=FAST")


