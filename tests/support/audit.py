"""Check a database file the way an operator would after a crash or a restore."""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path
from typing import Any

from core.domain.state import replay
from storage.postgres.store import is_url
from storage.sql.repo import SqlRepo
from storage.stores import store_for


def integrity(path: Path) -> str:
    """SQLite's verdict on the file ('ok' when sound)."""
    with contextlib.closing(sqlite3.connect(path)) as conn:
        return str(conn.execute("PRAGMA integrity_check").fetchone()[0])


def _ladder_audit(repo: SqlRepo, ladder: int) -> tuple[int, str]:
    """(confirmed matches, '' or what differs) for one ladder: the standings a fresh
    replay of its whole log gives against the stored state and the players table."""
    events = repo.events(ladder)
    fresh = replay(repo.base_settings(ladder), events)
    if fresh.fingerprint() != repo.state(ladder).fingerprint():
        return 0, f"ladder {ladder}: the stored state differs from a replay of its log"
    rungs = {p: i + 1 for i, p in enumerate(fresh.order)} if fresh.settings.is_position \
        else {}
    rows = repo.conn.execute(
        "SELECT id, member, rating, rung, games, wins, losses, draws FROM players "
        "WHERE ladder=?", (ladder,)).fetchall()
    for pid, member, rating, rung, games, wins, losses, draws in rows:
        s = fresh.players.get(pid)
        want: tuple[Any, ...] = (0, None, 0, 0, 0, 0) if s is None else (
            int(s.member), rungs.get(pid), s.games, s.wins, s.losses, s.draws)
        if (member, rung, games, wins, losses, draws) != want or \
                (s is not None and rating != s.rating):
            return 0, f"ladder {ladder}: player {pid}'s row differs from the replay"
    matches = repo.conn.execute("SELECT count(*) FROM events WHERE ladder=? AND kind='match'",
                                (ladder,)).fetchone()[0]
    return int(matches), ""


async def audit(target: Path | str) -> dict[int, int]:
    """Fail unless the database is sound (a SQLite file: SQLite's integrity check) and
    every ladder's standings equal a replay of its log; returns the matches per ladder."""
    if not is_url(str(target)):
        assert integrity(Path(target)) == "ok"
    async with store_for(str(target)) as store:  # a fresh store: nothing cached from before
        await store.restate_pending()

        def every(repo: SqlRepo) -> dict[int, int]:
            found = {}
            for ladder in repo.every_ladder():
                count, problem = _ladder_audit(repo, ladder.id)
                assert not problem, problem
                found[ladder.id] = count
            return found

        result: dict[int, int] = await store.run(every, commit=False)
    return result
