"""The web pages under load, beside a writer: `ladderbot web` in a process of its own, 50
clients at once (each from its own loopback address) on player pages (each drawing a
chart), while this process reports games into the same database. Measured before the
read transactions and the chart cache: p50 4.66 s for a player page, and reports waiting
up to 7.1 s."""

from __future__ import annotations

import asyncio
import random
import socket
import statistics
import sys
import time
from pathlib import Path

import aiohttp

from bench.measures import Bot, median_of, pairs
from storage.sqlite.store import SqliteStore

CLIENTS = 50
PLAYERS = 100


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def _serving(session: aiohttp.ClientSession, base: str) -> None:
    for _ in range(600):  # the server starts in a second or two
        try:
            async with session.get(f"{base}/api/ladders") as answer:
                if answer.status == 200:
                    return
        except aiohttp.ClientError:
            pass
        await asyncio.sleep(0.05)
    raise RuntimeError("ladderbot web did not start")


async def _clients(base: str, requests: int, seed: int) -> list[float]:
    """`requests` player pages fetched by CLIENTS clients at once, each from an address of
    its own on the loopback network (the site lets one address hold only a few
    connections, as it would a stranger's); their latencies (s)."""
    rng = random.Random(seed)
    queue = [rng.randrange(1, PLAYERS + 1) for _ in range(requests)]
    latencies: list[float] = []

    async def client(n: int) -> None:
        one = aiohttp.TCPConnector(limit=1, local_addr=(f"127.0.1.{n + 1}", 0))
        async with aiohttp.ClientSession(connector=one) as session:
            while queue:
                player = queue.pop()
                start = time.perf_counter()
                async with session.get(f"{base}/ladders/1/players/{player}") as answer:
                    await answer.read()
                    assert answer.status == 200, answer.status
                latencies.append(time.perf_counter() - start)

    await asyncio.gather(*(client(n) for n in range(CLIENTS)))
    return latencies


async def _reports(bot: Bot, stop: asyncio.Event, seed: int) -> list[float]:
    """Reports, one transaction each, until `stop`; their latencies (s)."""
    latencies: list[float] = []
    for a, b in pairs(PLAYERS, 100_000, seed=seed):
        if stop.is_set():
            break
        bot.at += 60
        start = time.perf_counter()
        await bot.one(f"p{a}", f"/report win @p{b}")
        latencies.append(time.perf_counter() - start)
        await asyncio.sleep(0.005)  # a busy chat, not a flood
    return latencies


async def web_beside_a_writer(folder: Path, requests: int, runs: int = 3
                              ) -> tuple[float, float]:
    """(median player-page latency in ms, the longest a report waited in ms), each the
    median over `runs`."""
    db = folder / "web.db"
    async with SqliteStore(db) as store:
        bot = Bot(store)
        await bot.one("mod", "/ladder create main preset=duel confirm=false public=true", True)
        await bot.many((f"p{i}", "/join") for i in range(1, PLAYERS + 1))
        await bot.many(((f"p{a}", f"/report win @p{b}") for a, b in pairs(PLAYERS, 5000)),
                       step=60)
        port = _free_port()
        server = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot.cli", "web", "--db", str(db), "--listen",
            f"127.0.0.1:{port}", stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.DEVNULL)
        pages: list[float] = []
        waits: list[float] = []
        try:
            base = f"http://127.0.0.1:{port}"
            async with aiohttp.ClientSession() as session:
                await _serving(session, base)
            for run in range(runs):
                stop = asyncio.Event()
                writer = asyncio.create_task(_reports(bot, stop, seed=run))
                latencies = await _clients(base, requests, seed=run)
                stop.set()
                pages.append(statistics.median(latencies) * 1000)
                waits.append(max(await writer) * 1000)
        finally:
            server.terminate()
            await server.wait()
    return median_of(pages), median_of(waits)
