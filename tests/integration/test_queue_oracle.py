"""The queue worked out again from its rules (issue 27; CONSOLE.md, README) and compared
with the bot over random chats: places taken, shown and given up, ready checks passed,
failed at their deadline or left, places lapsing, players leaving the ladder and coming
back, games and moderators' voids changing the ratings a split is balanced by, and the
bot restarting (the store closed and opened on the file). After every step the bot's
queue must be the model's: who waits (in which place, until when), each formed match's
players, who said ready and whether it is on; and each match formed must be of the first
places, split with the smallest gap between the teams' mean ratings found by trying every split.

The rules, as the model reads them: a place is (the time it was taken, then who joined
the ladder first); a full queue forms a match of the first 2n places among members (a
player who left the ladder loses the place then); a ready check ends `ready_seconds` after
the match formed, when who said ready wait again in their places (a fresh `queue_minutes`)
and the others lose theirs; who leaves a ready check loses the place and the others wait
again; a place lapses `queue_minutes` after it was taken; jobs due at one instant run
places' lapses first, then ready checks by number.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest

from storage.sqlite.store import SqliteStore
from tests.support import depth
from tests.support.chat import Chat

NAMES = [f"p{i}" for i in range(7)]
READY, MINUTES = 60, 30


class Model:
    """The queue as the rules make it, from scratch."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.members = set(NAMES)
        self.places: dict[str, tuple[int, int]] = {}  # name -> (since, expires)
        self.checks: dict[int, dict[str, Any]] = {}  # id -> players, since, ready, at, on
        self.next_id = 1
        self.formed: list[tuple[int, list[str]]] = []  # (id, the players it must have)

    def order(self, name: str) -> tuple[int, int]:
        return self.places[name][0], NAMES.index(name)

    def form(self, now: int) -> None:
        for name in [n for n in self.places if n not in self.members]:
            del self.places[name]
        while len(self.places) >= 2 * self.size:
            chosen = sorted(self.places, key=self.order)[:2 * self.size]
            self.checks[self.next_id] = {"players": set(chosen), "ready": set(), "at": now,
                                         "on": False,
                                         "since": {n: self.places[n][0] for n in chosen}}
            self.formed.append((self.next_id, chosen))
            for name in chosen:
                del self.places[name]
            self.next_id += 1

    def fall_through(self, check_id: int, kept: set[str], now: int) -> None:
        check = self.checks.pop(check_id)
        for name in kept:
            self.places[name] = (check["since"][name], now + MINUTES * 60)
        self.form(now)

    def advance(self, now: int) -> None:
        """Every job due by `now`, in the bot's order."""
        while True:
            due = [(e, 0, 0) for e in {x for _, x in self.places.values()} if e <= now]
            due += [(c["at"] + READY, 1, i) for i, c in self.checks.items()
                    if not c["on"] and c["at"] + READY <= now]
            if not due:
                return
            at, kind, ref = min(due)
            if kind == 0:
                for name in [n for n, (_, e) in self.places.items() if e <= at]:
                    del self.places[name]
            else:
                self.fall_through(ref, self.checks[ref]["ready"], at)

    def check_of(self, name: str) -> int | None:
        return next((i for i, c in self.checks.items()
                     if not c["on"] and name in c["players"]), None)

    def join(self, name: str, now: int) -> bool:
        if name not in self.members:
            return False
        if self.check_of(name) is None and name not in self.places:
            self.places[name] = (now, now + MINUTES * 60)
            self.form(now)
        return True

    def leave(self, name: str, now: int) -> bool:
        if name not in self.members:
            return False
        if name in self.places:
            del self.places[name]
            return True
        check = self.check_of(name)
        if check is None:
            return False
        self.fall_through(check, self.checks[check]["players"] - {name}, now)
        return True

    def ready(self, name: str) -> bool:
        check = self.check_of(name)
        if name not in self.members or check is None:
            return False
        c = self.checks[check]
        c["ready"].add(name)
        c["on"] = c["ready"] == c["players"]
        return True


def best_gap(players: list[str], rating: dict[str, float]) -> float:
    """The smallest gap of mean ratings over every choice of the first team."""
    size = len(players) // 2
    return min(abs(sum(rating[p] for p in team) / size
                   - sum(rating[p] for p in players if p not in team) / size)
               for team in combinations(players, size))


async def bot_queue(store: SqliteStore) -> tuple[Any, dict[int, str]]:
    def read(repo: Any) -> tuple[Any, dict[int, str]]:
        names = {p: info.name for p, info in repo.players(1, list(range(1, 20))).items()}
        return repo.queue(1), names

    found: tuple[Any, dict[int, str]] = await store.run(read, commit=False)
    return found


async def compare(store: SqliteStore, model: Model, rating: dict[str, float],
                  step: str) -> None:
    state, names = await bot_queue(store)
    got = {names[e.player]: (e.since, e.expires) for e in state.entries}
    assert got == model.places, f"places after {step}"
    checks = {m.id: {"players": {names[p] for p in m.players}, "at": m.formed_at,
                     "ready": {names[p] for p in m.ready}, "on": m.on}
              for m in state.matches if not m.on}
    want = {i: {k: c[k] for k in ("players", "at", "ready", "on")}
            for i, c in model.checks.items() if not c["on"]}
    assert checks == want, f"ready checks after {step}"
    by_id = {m.id: m for m in state.matches}
    for check_id, chosen in model.formed:  # each new match: the first places, balanced
        if check_id not in by_id:  # formed and failed within one catch-up
            continue
        match = by_id[check_id]
        teams = [[names[p] for p in team] for team in match.teams]
        assert sorted(teams[0] + teams[1]) == sorted(chosen), f"#{check_id} after {step}"
        means = [sum(rating[p] for p in team) / len(team) for team in teams]
        assert abs(abs(means[0] - means[1]) - best_gap(chosen, rating)) < 1e-9, step
    model.formed = []
    for check_id, c in model.checks.items():  # a match on is kept for play_hours (168)
        if c["on"] and check_id in by_id:
            assert by_id[check_id].on, f"#{check_id} on after {step}"


async def ratings(chat: Chat) -> dict[str, float]:
    return {p["name"]: float(p["rating"]) for p in (await chat.export())["players"]}


async def queue_step(chat: Chat, model: Model, rng: random.Random, name: str,
                     roll: float) -> str:
    """/queue, /queue leave or /ready (mostly by a player a check waits for), answered as
    the model says: refused exactly where the model refuses."""
    expected: Callable[[], bool]
    if roll < 0.35:
        command, expected = "/queue", lambda: model.join(name, chat.at)
    elif roll < 0.45:
        command, expected = "/queue leave", lambda: model.leave(name, chat.at)
    else:
        waiting = [n for c in model.checks.values() if not c["on"] for n in c["players"]]
        name = rng.choice(waiting) if waiting and rng.random() < 0.8 else name
        command, expected = "/ready", lambda: model.ready(name)
    step = f"{name}: {command}"
    model.advance(chat.at)
    reply = await chat.say(name, command)
    assert reply is not None and reply.error != expected(), step
    return step


async def ladder_step(chat: Chat, model: Model, rng: random.Random, name: str, roll: float,
                      reported: int) -> str | None:
    """Time passing, a member joining or leaving, a report or a void (every later rating
    moves); None where there was nothing to do."""
    if roll < 0.82:
        seconds = rng.choice([5, 20, 59, 60, 61, 130, 600, MINUTES * 60, 3700])
        await chat.tick(seconds)
        model.advance(chat.at)
        return f"tick {seconds}"
    if roll < 0.87:
        joined = name not in model.members
        step = f"{name}: {'/join' if joined else '/leave'}"
        model.advance(chat.at)
        await chat.ok(name, "/join" if joined else "/leave")
        (model.members.add if joined else model.members.discard)(name)
        return step
    if roll < 0.93:
        players = sorted(model.members)
        if len(players) < 2:
            return None
        a, b = rng.sample(players, 2)
        model.advance(chat.at)
        await chat.ok(a, f"/report win @{b} again")
        return f"{a}: /report win @{b}"
    step = f"/mod void {rng.randrange(1, reported + 1)}"
    model.advance(chat.at)
    await chat.say("mod", f"{step} test")  # (refused if voided already)
    return step


@pytest.mark.parametrize("seed", depth.seeds())
async def test_the_queue_behaves_as_its_rules(tmp_path: Path, seed: int) -> None:
    rng = random.Random(seed)
    size = 1 if seed % 3 == 0 else 2
    model = Model(size)
    store = SqliteStore(tmp_path / "l.db")
    await store.open()
    try:
        chat = Chat(store)
        await chat.ladder("warlight", "whole=true", "start=1000", "confirm=false",
                          f"queue={size}v{size}", f"ready_seconds={READY}",
                          f"queue_minutes={MINUTES}")
        await chat.join(*NAMES)
        reported = 0
        for _ in range(150):
            rating = await ratings(chat)
            roll = rng.random()
            name = rng.choice(NAMES)
            if roll < 0.65:
                step = await queue_step(chat, model, rng, name, roll)
            elif roll < 0.93 or (roll < 0.96 and reported):
                played = await ladder_step(chat, model, rng, name, roll, reported)
                if played is None:
                    continue
                step = played
                reported += "/report" in step
            else:
                step = "restart"
                await store.close()
                store = SqliteStore(store.path)
                await store.open()
                chat.store = store
            await compare(store, model, rating, step)
    finally:
        await store.close()
