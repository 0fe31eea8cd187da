"""Standings read again from their stored projection (the players table, the ladder's row
and the head kept when a process let go of them: storage/sql/heads.py) equal a replay of
the log, on every store: read whole, and read in part as a big ladder's are, a player and a
pair at a time, through joins, leaves, reports that farm, a series, corrections, decay days
and a season's close."""

from __future__ import annotations

import contextlib
import random
from pathlib import Path
from typing import Any

import pytest

from core.domain import pairs
from core.domain.calendar import DAY
from core.domain.state import replay
from storage.memory.store import MemoryStore
from storage.sql import heads, tuning
from storage.sqlite.store import SqliteStore
from tests.support.chat import Chat
from tests.support.sql_stores import as_killed, sql_store

PRESETS = ["duel", "glicko2", "openskill", "dutch", "nhwc", "glicko2 period=day"]
NAMES = ["ann", "ben", "cat", "dan", "Ёлка"]
TIGHT_MB = 0.02  # 20 kB: about one small ladder's standings, so each is let go of often


def _script(seed: int) -> list[tuple[str, str]]:
    """(who, text) of one ladder's commands: mostly reports (the same pairs again, which
    anti-farming counts), a leave and a return, a newcomer, an adjustment, corrections,
    days passing."""
    rng = random.Random(seed)
    found: list[tuple[str, str]] = []
    for n in range(26):
        a, b = rng.sample(NAMES, 2)
        found.append((a, rng.choice([f"/report win @{b}", f"/report loss @{b}",
                                     f"/report draw @{b}", f"/report win @{b} again"])))
        if n == 8:
            found += [("dan", "/leave"), ("dan", "/join")]
        if n == 12:
            found.append(("mod", "/mod adjust @cat +7 a bonus"))
        if n == 16:  # a newcomer, whose row is written before the join that seats them
            found += [("Ева", "/join"), ("", "check"), ("Ева", "/report win @ann")]
        if n in (14, 22):
            found.append(("mod", f"/mod void {n // 3} a mistake"))
        if n % 5 == 0:
            found.append(("", "tick"))
    return found


async def _play(store: Any, check: Any = None) -> list[dict[str, Any]]:
    chats = [Chat(store, chat=f"c{i}") for i in range(len(PRESETS))]
    for chat, preset in zip(chats, PRESETS, strict=True):
        name, *options = preset.split()
        await chat.ladder(name, "confirm=false", *options)
        await chat.join(*NAMES)
    scripts = [_script(i) for i in range(len(chats))]
    for step in range(max(map(len, scripts))):
        for chat, script in zip(chats, scripts, strict=True):
            if step >= len(script):
                continue
            who, text = script[step]
            if text == "tick":  # days pass: decay, a rating period's close, a month's end
                await chat.tick(5 * DAY)
            elif text == "check":
                if check is not None:
                    await check()
            else:
                await chat.say(who, text)
        if check is not None and step % 10 == 9:
            await check()
    return [await chat.export() for chat in chats]


def _as_replayed(repo: Any) -> None:
    """Every ladder's standings, as the store has them, equal its log replayed: the same
    players in the same order, the same pairs' games, series, table and season."""
    for ladder in repo.every_ladder():
        state = repo.state(ladder.id)
        want = replay(repo.base_settings(ladder.id), repo.events(ladder.id))
        assert state.fingerprint() == want.fingerprint(), ladder.name
        assert list(state.players) == list(want.players), ladder.name


@pytest.mark.parametrize("kind", ["memory", "sqlite", "postgres"])
async def test_standings_read_again_from_the_projection_equal_a_replay(
        kind: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        request: pytest.FixtureRequest) -> None:
    monkeypatch.setattr(tuning, "PARTIAL_FROM", 0)  # every ladder read in part
    monkeypatch.setattr(pairs, "FARM_PRUNE_EVERY", 7)  # anti-farming's prune, often
    loads: list[bool] = []  # per read from a head: whether in part
    read = heads.Heads._from_head

    def counted(self: Any, ladder: int, seq: int) -> Any:
        found = read(self, ladder, seq)
        if found is not None:
            loads.append(found.partial is not None)
        return found

    monkeypatch.setattr(heads.Heads, "_from_head", counted)
    async with contextlib.AsyncExitStack() as stack:
        store = MemoryStore() if kind == "memory" else await stack.enter_async_context(
            await sql_store(kind, tmp_path / "l.db", request, cache_mb=TIGHT_MB))
        played = await _play(store, lambda: store.run(_as_replayed, commit=False))
    if not _TWIN:  # (the twin's standings never leave memory; played once a process)
        _TWIN.extend(played if kind == "memory" else await _play(MemoryStore()))
    assert played == _TWIN  # every reply's standings as the twin's
    if kind != "memory":
        assert sum(loads) > 80  # commands folded into standings read in part


_TWIN: list[dict[str, Any]] = []


async def test_a_head_the_log_has_moved_past_is_not_read(tmp_path: Path) -> None:
    """A head is of the log as it was: once another process (here one killed before it
    kept its own) has added an event, the standings are replayed instead."""
    path = tmp_path / "l.db"
    async with SqliteStore(path) as store:
        chat = Chat(store)
        await chat.ladder("duel", "confirm=false")
        await chat.join("ann", "ben")
        await chat.ok("ann", "/report win @ben")
    async with SqliteStore(path) as store:  # reads the head, adds a game, killed
        chat = Chat(store)
        await chat.ok("ben", "/report win @ann")
        as_killed(store)
    async with SqliteStore(path) as store:
        def check(repo: Any) -> Any:
            assert repo._one("SELECT seq FROM heads")[0] < repo.store.known(repo, "seq", 1)
            return repo.state(1).fingerprint()

        state = await store.run(check, commit=False)
    twin = Chat(MemoryStore())
    await twin.ladder("duel", "confirm=false")
    await twin.join("ann", "ben")
    await twin.ok("ann", "/report win @ben")
    await twin.ok("ben", "/report win @ann")
    assert state == await twin.store.run(lambda repo: repo.state(1).fingerprint())


async def test_a_prune_reads_the_whole_standings_first(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Anti-farming forgets pairs that have not played for long, at fixed events: a pair
    the standings read in part never read must be forgotten too."""
    monkeypatch.setattr(tuning, "PARTIAL_FROM", 0)
    monkeypatch.setattr(pairs, "FARM_PRUNE_EVERY", 7)
    monkeypatch.setattr(pairs, "FARM_SLACK", 0)  # forgotten after 7 days, within a month
    path = tmp_path / "l.db"
    script = [("ann", "/report win @ben")] + [("cat", "/report win @dan")] * 12
    async with SqliteStore(path) as store:
        chat = Chat(store)
        await chat.ladder("duel", "confirm=false")
        await chat.join("ann", "ben", "cat", "dan")
        await chat.ok(*script[0])  # the pair ann-ben, kept in the head
    async with SqliteStore(path) as store:  # read in part: ann-ben is never read
        chat = Chat(store)
        chat.at += 10 * DAY
        for who, text in script[1:]:
            await chat.ok(who, text)
        await store.run(_as_replayed, commit=False)
