"""What only the SQL stores keep, compared with the in-memory twin on both: the stored history an
old correction restates, snapshots replayed after corrections, and the frozen tables of closed
seasons."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from core.domain.calendar import DAY
from core.domain.events import collect_corrections
from core.domain.state import replay
from storage.memory.store import MemoryStore
from storage.sql import tuning
from storage.sql.codec import state_from_json
from tests.support.chat import Chat
from tests.support.sql_stores import SQL_STORES, sql_store


@SQL_STORES
async def test_history_of_an_old_correction_is_restated_after(
    tmp_path: Path, monkeypatch: Any, kind: str, request: pytest.FixtureRequest
) -> None:
    """Far back, a correction rewrites standings at once and history in chunks after."""

    monkeypatch.setattr(tuning, "SYNC_RESTATE", 4)
    script = [("a", "/report win @b"), ("b", "/report win @c"), ("c", "/report draw @a"),
              ("a", "/report win @c"), ("b", "/report win @a"), ("c", "/report win @b")]

    async def play(store: Any) -> Chat:
        chat = Chat(store)
        await chat.ladder("duel", "confirm=false", "calibration=0")
        await chat.join("a", "b", "c")
        for _ in range(3):
            for name, text in script:
                await chat.ok(name, text)
                await chat.tick(DAY)
        await chat.ok("mod", "/mod void 2 never played")
        return chat

    twin = await play(MemoryStore())
    async with await sql_store(kind, tmp_path / "l.db", request, snapshot_every=4,
                               snapshot_per_player=0) as store:
        chat = await play(store)
        assert await store.run(lambda repo: repo.stale_ladders()) == [1]
        # the standings are right at once
        assert await chat.export() == await twin.export()

        def history(repo: Any) -> list[Any]:
            return [(p, repo.changes(1, p)) for p in (1, 2, 3)] + \
                [repo.match(1, m) for m in range(1, 19)]

        assert await store.run(history) != await twin.store.run(history)

        def snapshots(repo: Any) -> dict[int, str]:
            return dict(repo.conn.execute("SELECT seq, body FROM snapshots WHERE ladder=1"))

        # the stale part's snapshots wait for the restate too; the recent ones are there
        start, end = await store.run(lambda repo: repo.conn.execute(
            "SELECT restate_from, restate_to FROM ladders WHERE id=1").fetchone())
        deferred = [seq for seq in range(start, end) if seq % 4 == 0]
        assert deferred and not set(deferred) & set(await store.run(snapshots))
        assert any(seq >= end for seq in await store.run(snapshots))
        await store.restate_pending()
        assert await store.run(lambda repo: repo.stale_ladders()) == []
        assert await store.run(history) == await twin.store.run(history)
        stored = await store.run(snapshots)
        assert set(deferred) <= set(stored)
        events = await store.run(lambda repo: repo.events(1))
        base = await store.run(lambda repo: repo.base_settings(1))
        corrections = collect_corrections(events)
        loaded = await store.run(lambda repo: {
            seq: state_from_json(body, lambda labels: repo._frozen(1, labels))
            for seq, body in stored.items()})
        for seq, state in loaded.items():  # each the standings after its first seq events
            assert state.fingerprint() == replay(base, events[:seq], corrections).fingerprint()


@SQL_STORES
async def test_corrections_replayed_from_a_snapshot_match_the_twin(
    tmp_path: Path, monkeypatch: Any, kind: str, request: pytest.FixtureRequest
) -> None:
    """A correction beyond the journal replays from a snapshot, then rewrites the players
    who can stand differently: those of the replayed events when they are few against the
    ladder, else every player compared. Both ways give the twin's standings and history."""

    monkeypatch.setattr(tuning, "UNDO_EVENTS", 1)  # never roll back in place
    names = [f"p{i}" for i in range(40)]

    async def play(store: Any, voids: list[int]) -> Chat:
        chat = Chat(store)
        await chat.ladder("duel", "confirm=false", "calibration=0")
        await chat.join(*names)
        for k in range(30):
            await chat.ok(names[k % 7], f"/report win @{names[(3 * k + 1) % 40]}")
        for a, b in (("p0", "p1"), ("p1", "p2"), ("p2", "p0")):  # each game moves the next
            await chat.ok(a, f"/report win @{b}")
        for match in voids:
            await chat.ok("mod", f"/mod void {match} test")
        return chat

    def history(repo: Any) -> list[Any]:
        return [repo.changes(1, p) for p in range(1, 41)] + \
            [repo.match(1, m) for m in range(1, 34)]

    def rows(repo: Any) -> list[Any]:  # the stored rows that standings and profiles read
        return [repo.player_state(1, p) for p in range(1, 41)]

    # voiding match 31 replays 3 events of 40 players (who played is tracked); match 3,
    # 31 events (every player is compared)
    for voids in ([31], [3], [31, 3]):
        twin = await play(MemoryStore(), voids)
        async with await sql_store(kind, tmp_path / f"{voids}.db", request, snapshot_every=4,
                                   snapshot_per_player=0) as store:
            chat = await play(store, voids)
            await store.restate_pending()
            assert await chat.export() == await twin.export()
            assert await store.run(history) == await twin.store.run(history)
            assert await store.run(rows) == await twin.store.run(rows)


async def _two_closed_seasons(store: Any) -> Chat:
    """A duel ladder of three whose first two seasons are closed, each with a table."""
    chat = Chat(store)
    await chat.ladder("duel", "confirm=false", "calibration=0", "season_min_games=1")
    await chat.join("a", "b", "c")
    await chat.ok("a", "/report win @b")
    await chat.ok("a", "/report win @c")
    await chat.ok("mod", "/mod season close first")
    await chat.ok("b", "/report win @c")
    await chat.ok("mod", "/mod season close second")
    return chat


@SQL_STORES
async def test_a_correction_rewrites_the_frozen_tables_it_reaches(
        tmp_path: Path, kind: str, request: pytest.FixtureRequest) -> None:
    """Voiding a match of a closed season rewrites the stored tables it changes and the
    Hall of Fame, as the twin has them (no other test looked at the stored tables)."""

    async def play(store: Any) -> Chat:
        chat = await _two_closed_seasons(store)
        await chat.ok("c", "/report win @b")
        return chat

    def seasons(repo: Any) -> list[Any]:
        return [repo.season_table(1, label) for label in repo.state(1).frozen] + \
            [repo.hall_of_fame(1)]

    twin = await play(MemoryStore())
    await twin.ok("mod", "/mod void 1 never played")
    async with await sql_store(kind, tmp_path / "l.db", request) as store:
        chat = await play(store)
        before = await store.run(seasons)
        assert len(before) == 3 and all(before)
        await chat.ok("mod", "/mod void 1 never played")
        after = await store.run(seasons)
        assert after != before and after[0] != before[0]
        assert after == await twin.store.run(seasons)


@SQL_STORES
async def test_snapshots_name_closed_seasons_and_read_their_tables(
    tmp_path: Path, kind: str, request: pytest.FixtureRequest
) -> None:
    """A snapshot keeps the closed seasons by label, their tables come back from
    `seasons` (after a correction rewrote one too), and a snapshot of the earlier format,
    tables inside, still loads."""
    async with await sql_store(kind, tmp_path / "l.db", request, snapshot_every=2,
                               snapshot_per_player=0) as store:
        chat = await _two_closed_seasons(store)
        await chat.ok("mod", "/mod void 1 never played")  # both tables change
        for _ in range(3):
            await chat.ok("c", "/report win @a")

        def loaded(repo: Any) -> list[tuple[int, str, Any, Any]]:
            return [(seq, body, state_from_json(body, lambda labels: repo._frozen(1, labels)),
                     {label: repo.season_table(1, label) for label in repo.state(1).frozen})
                    for seq, body in repo.conn.execute(
                        "SELECT seq, body FROM snapshots WHERE ladder=1 ORDER BY seq")]

        snapshots = await store.run(loaded)
        events = await store.run(lambda repo: repo.events(1))
        base = await store.run(lambda repo: repo.base_settings(1))

    def unread(labels: list[str]) -> dict[str, Any]:
        raise AssertionError("a snapshot with its tables inside read them again")

    corrections = collect_corrections(events)
    assert [seq for seq, _, state, _ in snapshots if len(state.frozen) == 2]
    for seq, body, state, stored in snapshots:
        data = json.loads(body)
        assert "frozen" not in data and data["seasons"] == list(state.frozen)
        expected = replay(base, events[:seq], corrections)
        assert state.frozen == expected.frozen
        assert state.fingerprint() == expected.fingerprint()
        for label, table in state.frozen.items():  # as stored, the void's rewrite too
            assert list(table) == stored[label]
        earlier = {k: v for k, v in data.items() if k != "seasons"}
        earlier["frozen"] = {label: [[r.player, r.value, r.rated_games] for r in rows]
                             for label, rows in state.frozen.items()}
        assert state_from_json(json.dumps(earlier), unread).fingerprint() == \
            state.fingerprint()


@SQL_STORES
# runs folded one by one; at once (past 64), rated or waiting for their day's close
@pytest.mark.parametrize(("every", "period"), [(4, "game"), (200, "game"), (200, "day")])
async def test_a_glicko2_correction_restates_each_changes_rd(
    tmp_path: Path, monkeypatch: Any, kind: str, request: pytest.FixtureRequest, every: int,
    period: str
) -> None:
    """A correction replayed from a snapshot folds the plain games after it in runs; the
    changes they restate keep each player's RD after the game (a chart's band), as the
    twin's one-by-one fold gives them."""
    monkeypatch.setattr(tuning, "UNDO_EVENTS", 1)  # never roll back in place
    names = [f"p{i}" for i in range(12)]

    async def play(store: Any) -> Chat:
        chat = Chat(store)
        await chat.ladder("glicko2", f"confirm=false period={period}")
        await chat.join(*names)
        for k in range(90):  # more than a run's shortest (core.domain.batch.SHORTEST_RUN)
            await chat.ok(names[k % 12], f"/report win @{names[(5 * k + 1) % 12]}")
            await chat.tick(DAY // 4 if period == "game" else 60)  # (a day's close ends a run)
        await chat.ok("mod", "/mod void 2 test")
        return chat

    def history(repo: Any) -> list[Any]:
        return [repo.changes(1, p) for p in range(1, 13)]

    twin = await play(MemoryStore())
    async with await sql_store(kind, tmp_path / "g.db", request, snapshot_every=every,
                               snapshot_per_player=0) as store:
        await play(store)
        await store.restate_pending()
        stored = await store.run(history)
    assert stored == await twin.store.run(history)
    assert sum(c.rd is not None for mine in stored for c in mine) >= 170  # every game's two
