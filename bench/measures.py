"""The measurements. Ladders are built through the command layer, in batches of commands
per transaction (each command still runs as it would for a chat, in its own savepoint),
then each number is taken several times and the median kept."""

from __future__ import annotations

import asyncio
import functools
import random
import sqlite3
import statistics
import time
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from core.domain.calendar import DAY, parse_instant
from core.domain.records import Context, Reply, UserRef
from core.service.dispatch import handle
from core.service.jobs import catch_up_due
from storage.sql.units import SqlStore
from storage.sqlite.schema import prepare
from storage.sqlite.store import SqliteStore

T0 = parse_instant("2026-01-05T10:00:00+00:00")


@dataclass(frozen=True)
class Sizes:
    """How big each ladder is."""

    players: int  # the ladder of reports and corrections
    reports: int  # reports timed one transaction each
    matches: int  # matches played before the corrections
    void_at: int  # the old match the moderator voids
    decay_players: int  # the ladder of decay, standings and profile
    engine_matches: int  # matches replayed against openskill
    web_requests: int  # player pages fetched by 50 clients at once, per run
    rulebook_games: int  # games replayed on glicko2 and openskill ladders
    glicko2_games: int  # games of the Glicko-2 ladder whose middle one is voided

    def as_dict(self) -> dict[str, int]:
        return asdict(self)


FULL = Sizes(10_000, 20_000, 1_000_000, 500_000, 1_000_000, 200_000, 2000, 200_000, 100_000)
QUICK = Sizes(10_000, 2_000, 100_000, 50_000, 100_000, 20_000, 500, 20_000, 10_000)


def user(name: str) -> UserRef:
    return UserRef(f"bench:{name}", name)


def median_of(samples: Iterable[float]) -> float:
    return statistics.median(list(samples))


class Bot:
    """A chat on a store, with a clock that only moves forward."""

    def __init__(self, store: SqlStore, chat: str = "bench") -> None:
        self.store = store
        self.chat = chat
        self.at = T0

    def _ctx(self, name: str, moderator: bool) -> Context:
        return Context(self.chat, user(name), self.at, moderator=moderator)

    async def one(self, name: str, text: str, moderator: bool = False) -> Reply:
        """One command in one transaction, as a chat message is handled."""
        ctx = self._ctx(name, moderator)
        reply = await self.store.run(lambda repo: handle(repo, ctx, text, user))
        assert reply is not None
        return reply

    async def many(self, commands: Iterable[tuple[str, str]], per_tx: int = 2000,
                   step: int = 0, progress: Callable[[int], None] | None = None) -> int:
        """Commands in batches of `per_tx` per transaction; the clock moves `step` s each."""
        done = 0
        batch: list[tuple[str, str]] = []

        def run(items: list[tuple[str, str]], start: int) -> int:
            def work(repo: Any) -> int:
                refused = 0
                for k, (name, text) in enumerate(items):
                    ctx = Context(self.chat, user(name), start + k * step,
                                  moderator=name == "mod")
                    reply = handle(repo, ctx, text, user)
                    refused += bool(reply is not None and reply.error)
                return refused
            return work  # type: ignore[return-value]

        for command in commands:
            batch.append(command)
            if len(batch) == per_tx:
                await self.store.run(run(batch, self.at))  # type: ignore[arg-type]
                self.at += step * len(batch)
                done += len(batch)
                batch = []
                if progress:
                    progress(done)
        if batch:
            await self.store.run(run(batch, self.at))  # type: ignore[arg-type]
            self.at += step * len(batch)
            done += len(batch)
        return done


def pairs(players: int, count: int, seed: int = 7) -> list[tuple[int, int]]:
    """Deterministic random distinct pairs."""
    rng = random.Random(seed)
    found = []
    for _ in range(count):
        a = rng.randrange(players)
        b = rng.randrange(players - 1)
        found.append((a, b + 1 if b >= a else b))
    return found


# ------------------------------------------------------------------ raw sqlite3


def raw_tx_per_s(folder: Path, players: int, count: int = 5000, runs: int = 3) -> float:
    """Plain sqlite3 on the bot's schema and settings: one transaction inserts a match and
    updates two players, the rows and indexes a confirmed report writes at the least."""
    path = folder / "raw.db"
    conn = sqlite3.connect(path, isolation_level=None)
    prepare(conn)
    conn.execute("INSERT INTO ladders (id, chat, name, base_settings, settings, created_at, "
                 "clock) VALUES (1, 'raw', 'raw', '{}', '{}', 0, 0)")
    conn.execute("BEGIN")
    conn.executemany("INSERT INTO players (ladder, id, member, rating) VALUES (1, ?, 1, 1000)",
                     [(i,) for i in range(players)])
    conn.execute("COMMIT")
    rates = []
    match = 0
    for _ in range(runs):
        started = time.perf_counter()
        for a, b in pairs(players, count, seed=match):
            match += 1
            conn.execute("BEGIN IMMEDIATE")
            conn.execute("INSERT INTO matches (ladder, id, status, reporter, reported_at, "
                         "result, confirmed_at, rated) VALUES (1, ?, 'confirmed', ?, ?, ?, ?, 1)",
                         (match, a, match, f'{{"s":[[{a}],[{b}]]}}', match))
            conn.execute("UPDATE players SET rating = rating + 16, games = games + 1 "
                         "WHERE ladder = 1 AND id = ?", (a,))
            conn.execute("UPDATE players SET rating = rating - 16, games = games + 1 "
                         "WHERE ladder = 1 AND id = ?", (b,))
            conn.execute("COMMIT")
        rates.append(count / (time.perf_counter() - started))
    conn.close()
    return median_of(rates)


# ------------------------------------------------------------------ the report ladder


async def report_rate(bot: Bot, players: int, reports: int, runs: int = 3,
                      concurrency: int = 32) -> float:
    """Confirmed duel reports per second, one command per transaction, many chats'
    worth of them in flight at once."""
    per_run = reports // runs
    rates = []
    todo = pairs(players, per_run * runs, seed=11)
    for r in range(runs):
        chunk = todo[r * per_run:(r + 1) * per_run]
        gate = asyncio.Semaphore(concurrency)

        async def send(a: int, b: int, gate: asyncio.Semaphore = gate) -> None:
            async with gate:
                bot.at += 1
                reply = await bot.one(f"p{a}", f"/report win @p{b}")
                assert not reply.error, reply.text

        started = time.perf_counter()
        await asyncio.gather(*(send(a, b) for a, b in chunk))
        rates.append(len(chunk) / (time.perf_counter() - started))
    return median_of(rates)


async def timed(run: Callable[[], Awaitable[Reply]]) -> tuple[float, Reply]:
    started = time.perf_counter()
    reply = await run()
    return time.perf_counter() - started, reply


async def old_corrections(bot: Bot, void_at: int) -> list[float]:
    """Seconds to void match `void_at`, then restore it, then void it again."""
    samples = []
    for text in (f"/mod void {void_at} bench", f"/mod set {void_at} draw bench",
                 f"/mod void {void_at} bench again"):
        seconds, reply = await timed(functools.partial(bot.one, "mod", text, moderator=True))
        assert not reply.error, reply.text
        samples.append(seconds)
    return samples


async def corrections(bot: Bot, void_at: int, last: int) -> tuple[float, float]:
    """Seconds to void (then restore, then void again) an old match; milliseconds to void
    recent ones. Each is a correction re-deriving everything after the match."""
    old = await old_corrections(bot, void_at)
    recent = []
    for match in (last - 5, last - 300, last - 900):
        seconds, reply = await timed(functools.partial(bot.one, "mod",
                                                       f"/mod void {match} bench",
                                                       moderator=True))
        assert not reply.error, reply.text
        recent.append(seconds * 1000)
    return median_of(old), median_of(recent)


# ------------------------------------------------------------------ the big ladder


async def decay(store: SqliteStore, bot: Bot, days: int = 3) -> float:
    """Seconds to apply one dutch decay day over every player (the scheduler's path)."""
    samples = []
    for _ in range(days):
        midnight = (bot.at // DAY + 1) * DAY
        bot.at = midnight + 60
        started = time.perf_counter()
        await store.run(functools.partial(catch_up_due, now=bot.at))
        samples.append(time.perf_counter() - started)
    return median_of(samples)


async def reads(bot: Bot, players: int, runs: int = 15) -> tuple[float, float]:
    """Milliseconds of `/standings` (top 20) and of `/profile` of a mid-table player."""
    standings, profiles = [], []
    for _ in range(runs):
        seconds, reply = await timed(lambda: bot.one("p1", "/standings"))
        assert not reply.error and str(reply.text).count("\n") >= 20, reply.text
        standings.append(seconds * 1000)
        seconds, reply = await timed(lambda: bot.one("p1", f"/profile @p{players // 2}"))
        assert not reply.error and "rank" in str(reply.text), reply.text
        profiles.append(seconds * 1000)
    return median_of(standings), median_of(profiles)


# ------------------------------------------------------------------ the engine
