"""A correction beyond the journal, re-derived by following its ripple (`core.domain.ripple`),
leaves the store as a replay of the whole log leaves the in-memory twin: standings,
per-match history, match records, season tables and Hall of Fame; and the journal it
mends still rolls a later, recent correction back right."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

import core.domain.pairs
import core.domain.ripple
from core.domain.calendar import DAY, HOUR
from storage.memory.store import MemoryStore
from storage.postgres.store import PgStore
from storage.sql import rederive, tuning
from storage.sqlite.store import SqliteStore
from tests.support import depth, postgres
from tests.support.chat import Chat

PLAYERS = [f"p{i}" for i in range(40)]


def script(seed: int) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """(name, command) pairs: 120 games (some unrated: too short) with a season close
    every 30, then corrections of old games (one voided, then given a result again)
    and of one of the newest, which the journal reaches."""
    rng = random.Random(seed)
    played: list[tuple[str, str, str]] = []
    commands = []
    for k in range(1, 121):
        a, b = rng.sample(PLAYERS, 2)
        how, *rest = rng.choice(["win", "win", "win", "draw", "win moves=1"]).split()
        played.append((a, b, how))
        commands.append((a, " ".join([f"/report {how} @{b}", *rest])))
        if k % 30 == 15:  # the last one 15 games before the end: those are journaled
            commands.append(("mod", "/mod season close"))
    fixes = []
    for match in rng.sample(range(1, 90), 4):
        a, b, how = played[match - 1]
        fix = rng.choice([f"/mod void {match} never played",
                          f"/mod set {match} @{b} wrong winner",
                          f"/mod set {match} draw agreed"])
        if how == "draw" and fix.endswith("agreed"):  # the result it has: refused
            fix = f"/mod set {match} @{b} wrong winner"
        fixes.append(("mod", fix))
    # voided, then given a result after all: early enough that, every 12 hours, anti-
    # farming's record of it would be forgotten before the journal or within it
    again = rng.randrange(1, 45)
    fixes += [("mod", f"/mod void {again} not sure"),
              ("mod", f"/mod set {again} draw moves=30 it was")]  # rated again
    late = rng.randrange(106, 121)  # after the last close: in the journal
    fixes += [("mod", f"/mod void {late} recent"),  # and restored: rolled back in place
              ("mod", f"/mod set {late} @{played[late - 1][0]} it was played")]
    return commands, fixes


async def play(store: Any, seed: int) -> Chat:
    """The games of `seed`'s script: one every 3 hours (the old ones still in anti-
    farming's record at the end) or every 12 (the oldest forgotten by then)."""
    commands, _ = script(seed)
    chat = Chat(store)
    await chat.ladder("duel", "confirm=false", "calibration=2", "season_min_games=1")
    await chat.join(*PLAYERS)
    for name, text in commands:
        await chat.ok(name, text)
        await chat.tick((3 if seed % 2 else 12) * HOUR)
    return chat


def stored(repo: Any) -> list[Any]:
    """Everything a correction may rewrite, as the repository reads it back, and the
    standings it keeps in memory (anti-farming's record included)."""
    return [repo.state(1).fingerprint()] + [repo.changes(1, p) for p in range(1, 41)] + \
        [repo.match(1, m) for m in range(1, 121)] + \
        [repo.player_state(1, p) for p in range(1, 41)] + \
        [repo.season_table(1, label) for label in repo.state(1).frozen] + \
        [repo.hall_of_fame(1)]


@pytest.mark.parametrize(("kind", "seed", "prune_every"), depth.split(
    [("sqlite", 0, 1000), ("sqlite", 1, 1000), ("sqlite", 6, 7), ("sqlite", 7, 7),
     ("postgres", 0, 1000), ("postgres", 1, 7),
     ("sqlite", 2, 1000), ("sqlite", 3, 1000), ("sqlite", 8, 7)], fast=6))
async def test_a_rippled_correction_equals_the_replay(
        request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: Any, kind: str,
        seed: int, prune_every: int) -> None:
    """With anti-farming's record pruned as usual (never, in so few games) or every 7th
    event, so that the prunes the journal keeps have to be mended too."""
    monkeypatch.setattr(tuning, "UNDO_EVENTS", 30)  # the old ones lie beyond it
    monkeypatch.setattr(core.domain.pairs, "FARM_PRUNE_EVERY", prune_every)
    followed = []
    real = core.domain.ripple.ripple

    def counted(*args: Any) -> Any:
        done = real(*args)
        followed.append(done is not None)
        return done

    monkeypatch.setattr(rederive, "ripple", counted)
    twin = await play(MemoryStore(), seed)
    async with (SqliteStore(tmp_path / "l.db") if kind == "sqlite" else PgStore(
            await postgres.fresh_database(request.getfixturevalue("postgres_server")))) as store:
        chat = await play(store, seed)
        for name, text in script(seed)[1]:  # after each: a later one could mend it
            await chat.ok(name, text)
            await twin.ok(name, text)
            await store.restate_pending()  # for the corrections that replayed instead
            assert await chat.export() == await twin.export(), text
            assert await store.run(stored) == await twin.store.run(stored), text
    # Each script has old corrections of pairs that met once: some were followed (else
    # this test would pass with every ripple given up).
    assert any(followed), followed


@pytest.mark.parametrize("before_the_wait", [0, 8])
async def test_a_game_rated_again_after_anti_farming_forgot_it(
        tmp_path: Path, monkeypatch: Any, before_the_wait: int) -> None:
    """A game voided, then rated again after anti-farming would have forgotten it, then a
    rollback across the prune that forgot it: the standings, anti-farming's record
    included, are a replay's. With games before the wait, the last prune comes before
    the horizon passes, and the record is kept after all."""
    monkeypatch.setattr(tuning, "UNDO_EVENTS", 30)
    monkeypatch.setattr(core.domain.pairs, "FARM_PRUNE_EVERY", 7)
    names = [f"p{i}" for i in range(12)]

    async def setup(store: Any) -> Chat:
        chat = Chat(store)
        await chat.ladder("duel", "confirm=false", "calibration=0")
        await chat.join(*names)  # events 1-12
        await chat.ok("p0", "/report win @p1")  # match 1 (event 13): the pair's only game
        await chat.ok("mod", "/mod season close")  # the journal starts after this
        for k in range(10):  # events 15-24, prunes at 21
            if k == before_the_wait:
                await chat.tick(40 * DAY)  # anti-farming's horizon is 37 days
            a, b = names[2 + k], names[2 + (k + 1) % 10]
            await chat.ok(a, f"/report win @{b}")
        return chat

    twin = await setup(MemoryStore())
    async with SqliteStore(tmp_path / "l.db") as store:
        chat = await setup(store)
        for text in ("/mod void 1 never played", "/mod set 1 draw moves=30 it was",
                     "/mod void 2 rolled back across the prune"):
            await chat.ok("mod", text)
            await twin.ok("mod", text)
            assert await store.run(stored_state) == await twin.store.run(stored_state), text


def stored_state(repo: Any) -> Any:
    return repo.state(1).fingerprint(), [repo.player_state(1, p) for p in range(1, 13)]
