"""What only the SQLite store does: its bulk decay (an index rebuilt beside the standings'
fold) and its handling of freed pages. The contract all stores share is in
tests/integration/test_storage_contract.py."""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from core.domain.match_file import read_match_file
from core.domain.records import Context, UserRef
from core.domain.settings import preset
from core.domain.state import LadderState
from core.service.dispatch import handle
from core.service.importing import import_matches
from storage.sql import tuning
from storage.sqlite.store import SqliteStore
from tests.support.chat import Chat


async def test_deleted_pages_are_not_written_out_again(tmp_path: Path) -> None:
    """secure_delete=FAST on every connection, whatever the build's default (Debian's
    zeroes every freed page, which made deleting stale snapshots write them again)."""
    async with SqliteStore(tmp_path / "l.db") as store:
        mode = await store.run(lambda repo: repo.conn.execute(
            "PRAGMA secure_delete").fetchone()[0], commit=False)
    assert mode == 2  # FAST


async def test_bulk_decay_rebuilds_index_trigger_and_histogram(
    tmp_path: Path, monkeypatch: Any
) -> None:
    monkeypatch.setattr(tuning, "BULK_DECAY", 1)
    db = tmp_path / "l.db"
    async with SqliteStore(db) as store:
        chat = Chat(store)
        await chat.ladder("dutch", "start=1000", "confirm=false")
        await chat.join("a", "b", "c")
        await chat.ok("mod", "/mod adjust @a +500 up")
        await chat.time("2026-01-08T00:00:00+00:00")
        assert await chat.ratings() == {"a": 1500 - 18 - 17 - 17, "b": 1000 - 8 - 7 - 7,
                                        "c": 1000 - 8 - 7 - 7}
    with sqlite3.connect(db) as conn:
        names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
        counts = dict(conn.execute("SELECT bucket, n FROM rating_counts"))
    conn.close()
    assert {"players_by_rating", "rating_counts_update"} <= names
    assert counts == {1448: 1, 978: 2}


async def test_bulk_decay_that_fails_midway_leaves_the_database_as_before(
    tmp_path: Path, monkeypatch: Any
) -> None:
    def stored() -> tuple[Any, ...]:
        with contextlib.closing(sqlite3.connect(db)) as conn:
            return (sorted(conn.execute("SELECT id, rating FROM players")),
                    sorted(conn.execute("SELECT bucket, n FROM rating_counts WHERE n > 0")),
                    sorted(r[0] for r in conn.execute("SELECT name FROM sqlite_master")),
                    conn.execute("SELECT last_decay FROM ladders").fetchall())

    monkeypatch.setattr(tuning, "BULK_DECAY", 1)
    db = tmp_path / "l.db"
    async with SqliteStore(db) as store:
        chat = Chat(store)
        await chat.ladder("dutch", "start=1000", "confirm=false")
        await chat.join("a", "b")
        await chat.ok("mod", "/mod adjust @a +500 up")
        before = stored()
        real = LadderState._decay

        def broken(self: LadderState, day: str) -> Any:
            real(self, day)  # the standings in memory are half way through the unit
            raise RuntimeError("the fold failed")

        # The fold runs on its own thread while the database rewrites the ratings.
        monkeypatch.setattr(LadderState, "_decay", broken)
        with pytest.raises(RuntimeError, match="the fold failed"):
            await chat.time("2026-01-08T00:00:00+00:00")
        assert stored() == before
        monkeypatch.setattr(LadderState, "_decay", real)
        await chat.time("2026-01-08T00:00:00+00:00")
        # RULES.md: 1500 loses 18 a day, 1000 loses 8; three days once each.
        assert await chat.ratings() == {"a": 1500 - 18 - 17 - 17, "b": 1000 - 8 - 7 - 7}
    assert stored()[1] == [(978, 1), (1448, 1)]


async def test_bulk_decay_equals_the_statement_by_statement_decay(
    tmp_path: Path, monkeypatch: Any
) -> None:
    """The bulk path (ratings by one statement, the standings and the histogram counted
    on a helper thread) against the plain one (the histogram kept by its triggers), on
    ratings at the edges of the decay formula: the floor and the steps of R*R/125000."""
    adjustments = ["-1000", "-999", "-647", "-646", "-501", "-500", "+1000", "+1001", "-300"]

    async def decayed(bulk: int | None, name: str) -> tuple[dict[str, Any], list[Any]]:
        monkeypatch.setattr(tuning, "BULK_DECAY", bulk)
        db = tmp_path / f"{name}.db"
        async with SqliteStore(db) as store:
            chat = Chat(store)
            await chat.ladder("dutch", "start=1000", "confirm=false")
            players = [f"p{i}" for i in range(len(adjustments))]
            await chat.join(*players)
            for player, amount in zip(players, adjustments, strict=True):
                await chat.ok("mod", f"/mod adjust @{player} {amount} edge")
            await chat.time("2026-01-08T00:00:00+00:00")
            ratings = await chat.ratings()
        with contextlib.closing(sqlite3.connect(db)) as conn:
            counts = conn.execute("SELECT bucket, n FROM rating_counts WHERE n > 0 "
                                  "ORDER BY bucket").fetchall()
        return ratings, counts

    bulk = await decayed(1, "bulk")
    plain = await decayed(None, "plain")
    assert bulk == plain
    # RULES.md: 1000 - 999 = 1 decays to 0 and stays; 0 never decays.
    assert bulk[0]["p0"] == 0 and bulk[0]["p1"] == 0
    assert len(bulk[1]) > 5



def steps(repo: Any, work: Callable[[], object]) -> int:
    """SQLite's virtual-machine steps (in tens) that `work` takes on the repository's
    connection: a cost that time's noise does not blur."""
    counted = [0]

    def count() -> int:
        counted[0] += 1
        return 0

    repo.conn.set_progress_handler(count, 10)
    try:
        work()
    finally:
        repo.conn.set_progress_handler(None, 0)
    return counted[0]


async def test_a_join_costs_the_same_on_a_small_and_a_large_ladder(tmp_path: Path) -> None:
    """The lookalike check reads the names it still has to fill through their index: it
    read every player of the ladder on each join (100,000 joins took 7 minutes), counted
    here in SQLite's virtual-machine steps, not in time."""
    def user(name: str) -> UserRef:
        return UserRef(f"t:{name}", name)

    def join(repo: Any, name: str) -> int:
        replies: list[Any] = []
        found = steps(repo, lambda: replies.append(handle(
            repo, Context("c", user(name), 1_000, moderator=False), "/join", user)))
        assert replies[0] is not None and not replies[0].error
        return found

    def joins(repo: Any) -> tuple[int, int]:
        handle(repo, Context("c", user("mod"), 1_000, moderator=True),
               "/ladder create main preset=duel", user)
        small = join(repo, "p0")
        for i in range(1, 3_000):
            join(repo, f"p{i}")
        return small, join(repo, "last")

    async with SqliteStore(tmp_path / "l.db") as store:
        small, large = await store.run(joins)
    assert large < 2 * small, (small, large)


async def test_a_ladders_open_matches_are_read_alike_after_few_and_many_games(
        tmp_path: Path) -> None:
    """Every plan of a ladder's jobs reads its open reports: through their index, not
    through every match of the ladder (5 ms at 100,000, as SQLite chose without
    statistics), counted in SQLite's virtual-machine steps."""
    def file(count: int, day: str) -> list[Any]:
        return read_match_file(b"played_at,players,result\n" + b"".join(
            f"2026-01-{day}T10:{i // 60 % 60:02d}:{i % 60:02d}+00:00,a vs b,1\n".encode()
            for i in range(count)))

    def read(repo: Any) -> int:
        found: list[Any] = []
        counted = steps(repo, lambda: found.append(repo.open_matches(1)))
        assert found == [[]]
        return counted

    async with SqliteStore(tmp_path / "l.db") as store:
        await store.run(lambda repo: import_matches(repo, "c", "main", preset("duel"),
                                                    file(2, "05"), 2_000_000_000))
        few = await store.run(read)
        await store.run(lambda repo: import_matches(repo, "c", "main", None,
                                                    file(3_000, "06"), 2_000_000_000))
        many = await store.run(read)
    assert many < 2 * few + 10, (few, many)
