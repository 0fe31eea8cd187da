"""`python -m bench --import`: how fast `ladderbot import` puts a match CSV into SQLite
(issue 54's target: at least 50,000 one-on-one matches a second), and what `/ladder whatif`
costs on the ladder it made.

The file is 100,000 duels among 200 players a minute apart (quick: 5,000), read once; each
run imports it into a new database in one transaction through `import_matches`, as the CLI
does. The median of three runs.
"""

from __future__ import annotations

import asyncio
import sqlite3
import statistics
import tempfile
import time
from itertools import combinations
from pathlib import Path
from typing import Any

from core.domain.calendar import iso, parse_instant
from core.domain.match_file import FileMatch, read_match_file
from core.domain.records import Context
from core.domain.settings import Policy, preset
from core.service.dispatch import handle
from core.service.importing import IMPORTER, import_matches
from storage.sqlite.store import SqliteStore

START = parse_instant("2026-01-01T00:00:00+00:00")
TARGET = 50_000  # matches a second


def match_file(count: int, players: int = 200) -> bytes:
    """`count` duels a minute apart, every pair of `players` in a fixed shuffle."""
    pairs = list(combinations(range(players), 2))
    lines = ["played_at,players,result"]
    for i in range(count):
        a, b = pairs[(i * 7919) % len(pairs)]
        outcome = "draw" if i % 5 == 0 else ("1" if i % 3 else "2")
        lines.append(f"{iso(START + 60 * i)},p{a} vs p{b},{outcome}")
    return ("\n".join(lines) + "\n").encode()


async def _import(path: Path, matches: list[FileMatch]) -> float:
    """Seconds to import `matches` into a new database at `path`."""
    now = matches[-1].at + 60
    async with SqliteStore(path) as store:
        started = time.perf_counter()
        await store.run(lambda repo: import_matches(repo, "console", "main", preset("duel"),
                                                    matches, now))
        return time.perf_counter() - started


async def _whatif(path: Path, now: int) -> float:
    """Seconds a /ladder whatif preset=glicko2 takes on the imported ladder."""
    ctx = Context("console", IMPORTER, now, moderator=True)
    async with SqliteStore(path) as store:
        started = time.perf_counter()
        await store.run(lambda repo: handle(repo, ctx, "/ladder whatif preset=glicko2",
                                            lambda _: None, Policy()), commit=False)
        return time.perf_counter() - started


def imports(quick: bool, progress: bool, folder: str | None = None) -> dict[str, Any]:
    """The import's matches a second (median of three), and the what-if's seconds."""
    count = 5_000 if quick else 100_000
    started = time.perf_counter()
    matches = read_match_file(match_file(count))
    read_s = time.perf_counter() - started
    seconds = []
    with tempfile.TemporaryDirectory(dir=folder) as tmp:
        for run in range(3):
            path = Path(tmp) / f"import{run}.db"
            seconds.append(asyncio.run(_import(path, matches)))
            if progress:
                print(f"  run {run + 1}: {count / seconds[-1]:,.0f} matches/s", flush=True)
        whatif_s = asyncio.run(_whatif(path, matches[-1].at + 60))
        floor_s = asyncio.run(_rows_alone(path, Path(tmp) / "rows.db"))
    rate = round(count / statistics.median(seconds))
    return {"matches": count, "read_per_s": round(count / read_s),
            "import_per_s": rate, "rows_alone_per_s": round(count / floor_s),
            "whatif_s": round(whatif_s, 2),
            "targets_met": {"import_per_s": rate >= TARGET}}


# The tables an imported match writes rows to, each row as the import stored it.
ROWS = ("events", "matches", "match_players", "changes")


async def _rows_alone(imported: Path, path: Path) -> float:
    """Seconds SQLite takes to write the rows the import wrote (its matches' events,
    records, players and changes, by executemany in one transaction) into a new database
    of the same schema: what the import's writes cost with nothing else to do."""
    with sqlite3.connect(imported) as source:
        ladder = source.execute("SELECT * FROM ladders").fetchone()
        rows = {table: source.execute(f"SELECT * FROM {table} WHERE ladder=1 AND "
                                      + ("kind='match'" if table == "events" else "1")
                                      ).fetchall() for table in ROWS}
    async with SqliteStore(path):  # (the schema)
        pass
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        conn.execute("PRAGMA foreign_keys=ON")
        conn.execute(f"INSERT INTO ladders VALUES ({', '.join('?' * len(ladder))})", ladder)
        started = time.perf_counter()
        conn.execute("BEGIN IMMEDIATE")
        for table, found in rows.items():
            conn.executemany(f"INSERT INTO {table} VALUES ({', '.join('?' * len(found[0]))})",
                             found)
        conn.execute("COMMIT")
        return time.perf_counter() - started
    finally:
        conn.close()


def show(results: dict[str, Any]) -> None:
    """`--import`'s figures."""
    machine = results["machine"]
    met = "ok" if results["targets_met"]["import_per_s"] else "MISSED"
    print(f"\nImport ({results['mode']}, {results['seconds']} s) on {machine['cpu']} "
          f"({machine['cores']} cores), {results['matches']:,} duels into SQLite:\n"
          f"  read the CSV      {results['read_per_s']:>9,} matches/s\n"
          f"  import            {results['import_per_s']:>9,} matches/s   at least "
          f"{TARGET:,}  {met}\n"
          f"  its rows alone    {results['rows_alone_per_s']:>9,} matches/s   (the same "
          "rows written by executemany, nothing else)\n"
          f"  whatif glicko2    {results['whatif_s']:>9} s")
