"""How the web server holds up: security headers on every response, reads beside a writer holding
the lock, charts drawn once and by a process that is replaced when it dies, slow, idle and
greedy connections closed and capped, log floods throttled, and requests aiohttp cannot read
answered as our pages are."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.web.pages import Web
from storage.sqlite.store import SqliteStore
from tests.support.chat import Chat


@pytest.mark.parametrize("path", ["/", "/ladders/1", "/ladders/1/players/1", "/nowhere",
                                  "/api/ladders/1", "/api/nowhere"])
async def test_every_response_carries_the_security_headers(site: Any, path: str) -> None:
    client, _ = site
    response = await client.get(path)
    headers = response.headers
    assert headers["Content-Security-Policy"].startswith("default-src 'none';")
    assert "script" not in headers["Content-Security-Policy"]
    assert "frame-ancestors 'none'" in headers["Content-Security-Policy"]
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Referrer-Policy"] == "no-referrer"
    assert headers["Server"] == "Ladderbot"  # no versions
    assert headers["Cache-Control"] == ("public, max-age=30" if response.status == 200
                                        else "no-store")
    assert headers.get("Access-Control-Allow-Origin") == (
        "*" if path.startswith("/api/") else None)


async def test_pages_are_read_beside_a_writer_that_holds_the_lock(site: Any,
                                                                  tmp_path: Path) -> None:
    # The web took SQLite's write lock even to read: while another process wrote for 12 s,
    # a page answered 500 after exactly the 10 s busy timeout.
    import asyncio
    import sqlite3

    client, _ = site
    writer = sqlite3.connect(tmp_path / "l.db", isolation_level=None)
    try:
        writer.execute("BEGIN IMMEDIATE")
        writer.execute("UPDATE ladders SET name = name")
        for path in ("/ladders/1", "/ladders/1/players/1", "/api/ladders/1/history"):
            response = await asyncio.wait_for(client.get(path), 5)
            assert response.status == 200, path
    finally:
        writer.execute("ROLLBACK")
        writer.close()


async def test_a_chart_is_drawn_once_until_its_line_changes(
        site: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    # Player pages drew their chart on every request: 50 clients got p50 4.66 s.
    import bot.charts

    drawn: list[Any] = []
    real = bot.charts.render

    def counting(chart: Any, kind: str = "png", size: Any = bot.charts.SIZE) -> bytes:
        if size == bot.charts.SIZE:  # (a page's chart is drawn wide and narrow: count once)
            drawn.append(chart)
        return real(chart, kind, size)

    monkeypatch.setattr(bot.charts, "render", counting)
    from concurrent.futures import ThreadPoolExecutor

    _, chat = site
    # Drawn in a thread here, where the counting stand-in is seen (the site's worker
    # process imports the real one).
    with ThreadPoolExecutor(1) as pool:
        web = Web(chat.store, clock=lambda: chat.at, chart_pool=pool)
        await drawn_once(web, chat, drawn)


async def drawn_once(web: Web, chat: Chat, drawn: list[Any]) -> None:
    async with TestClient(TestServer(web.app)) as client:
        pages = [await (await client.get("/ladders/1/players/1")).text() for _ in range(3)]
        assert len(drawn) == 1 and pages[0] == pages[2] and "<svg" in pages[0]
        chat.at += 60  # a minute on: the same hour, the same picture
        await client.get("/ladders/1/players/1")
        assert len(drawn) == 1
        await chat.ok("alice", "/report win @bob")
        # The line changed: the page shows the chart it has while the new one is drawn.
        stale = await (await client.get("/ladders/1/players/1")).text()
        assert svg(stale) == svg(pages[0]) and stale != pages[0]
        await web.charts.settled()
        assert len(drawn) == 2 and len(drawn[1].matches) == len(drawn[0].matches) + 1
        fresh = await (await client.get("/ladders/1/players/1")).text()
        assert len(drawn) == 2 and svg(fresh) != svg(pages[0])


def svg(page: str) -> str:
    """The chart of a player page."""
    return page[page.index("<svg"):page.index("</svg>")]


async def test_slow_or_idle_connections_are_closed_and_capped(tmp_path: Path) -> None:
    import asyncio

    async with SqliteStore(tmp_path / "l.db") as store:
        site = Web(store, header_timeout=0.2, connections=2)
        address = await site.start("127.0.0.1:0")
        port = int(address.rsplit(":", 1)[1])
        try:
            # Two connections that never finish their headers fill the cap: a third is
            # closed at once, and the two are closed at the header timeout.
            slow = [await asyncio.open_connection("127.0.0.1", port) for _ in range(2)]
            for _, writer in slow:
                writer.write(b"GET / HTTP/1.1\r\nHost: x\r\n")
            refused, closing = await asyncio.open_connection("127.0.0.1", port)
            assert await asyncio.wait_for(refused.read(), 5) == b""
            for reader, _ in slow:
                assert await asyncio.wait_for(reader.read(), 5) == b""
            for _, each in [*slow, (refused, closing)]:
                each.close()
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(b"GET /api/ladders HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            answer = await asyncio.wait_for(reader.read(), 5)
            assert answer.startswith(b"HTTP/1.1 200 OK") and b'{\n "ladders": []' in answer
            writer.close()
        finally:
            await site.stop()


def test_a_flood_of_one_log_message_is_throttled() -> None:
    import logging

    from bot.web.server import Throttle

    throttle = Throttle(interval=60)

    def record(at: float, msg: str = "socket.accept() out of system resource") -> bool:
        entry = logging.LogRecord("asyncio", logging.ERROR, __file__, 1, msg, None, None)
        entry.created = at
        return throttle.filter(entry)

    passed = [record(1000 + i / 1000) for i in range(48_628)]
    assert passed.count(True) == 1 and passed[0]
    assert record(1001, "another message") and record(1061)


async def test_a_dead_drawing_process_is_replaced(site: Any,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    from concurrent.futures import ThreadPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    import bot.web.pages

    started: list[Any] = []

    class Worker(ThreadPoolExecutor):  # the first dies at once, as a killed process would
        def __init__(self, **_: Any) -> None:
            super().__init__(1)
            started.append(self)

        def submit(self, *args: Any, **kwargs: Any) -> Any:
            if self is started[0]:
                raise BrokenProcessPool("a worker died")
            return super().submit(*args, **kwargs)

    monkeypatch.setattr(bot.web.pages, "ProcessPoolExecutor", Worker)
    _, chat = site
    web = Web(chat.store, clock=lambda: chat.at)
    async with TestClient(TestServer(web.app)) as client:
        page = await client.get("/ladders/1/players/1")
        assert page.status == 200 and "<svg" in await page.text()
    assert len(started) == 2
    for worker in started:
        worker.shutdown()


def test_the_connection_cap_leaves_room_below_the_open_file_limit(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # 300 half-open connections under `ulimit -n 256` stopped every request.
    import resource

    from bot.web.server import MOST_CONNECTIONS, connection_cap

    for soft, cap in [(256, 64), (1024, MOST_CONNECTIONS), (8, 4),
                      (resource.RLIM_INFINITY, MOST_CONNECTIONS)]:
        monkeypatch.setattr(resource, "getrlimit", lambda _, s=soft: (s, s))
        assert connection_cap() == cap


async def test_one_address_cannot_hold_the_others_connections(tmp_path: Path) -> None:
    # One client holding 260 unfinished connections had 93% of the others' requests
    # refused: each address has its share of the cap.
    import asyncio

    from bot.web import server as webserver

    async with SqliteStore(tmp_path / "l.db") as store:
        site = Web(store, header_timeout=5, connections=10)
        address = await site.start("127.0.0.1:0")
        port = int(address.rsplit(":", 1)[1])
        assert site._listener is not None
        site._listener.per_address = 3
        try:
            slow = [await asyncio.open_connection("127.0.0.1", port) for _ in range(3)]
            for _, writer in slow:
                writer.write(b"GET / HTTP/1.1\r\nHost: x\r\n")
            refused, closing = await asyncio.open_connection("127.0.0.1", port)
            assert await asyncio.wait_for(refused.read(), 5) == b""  # its fourth
            closing.close()
            reader, writer = await asyncio.open_connection("127.0.0.1", port,
                                                           local_addr=("127.0.0.2", 0))
            writer.write(b"GET /api/ladders HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            answer = await asyncio.wait_for(reader.read(), 5)
            assert answer.startswith(b"HTTP/1.1 200 OK")  # another client is served
            writer.close()
            for _, each in slow:
                each.close()
        finally:
            await site.stop()
    assert webserver.PER_ADDRESS <= webserver.MOST_CONNECTIONS // 8


async def test_a_request_aiohttp_cannot_read_is_answered_as_our_pages_are(
        tmp_path: Path) -> None:
    # aiohttp's own 400 skipped the security headers, named its version and echoed the
    # request's words.
    import asyncio

    from bot.web.server import SECURITY_HEADERS

    async with SqliteStore(tmp_path / "l.db") as store:
        site = Web(store)
        address = await site.start("127.0.0.1:0")
        port = int(address.rsplit(":", 1)[1])
        try:
            for bad in (b"GET /<script>alert(1)</script> HTTP/1.1\x00\r\n\r\n",
                        b"GET / HTTP/1.1\r\nHost: x\r\nX-Evil\x01: <b>\r\n\r\n",
                        b"<script>alert(1)</script>\r\n\r\n"):
                reader, writer = await asyncio.open_connection("127.0.0.1", port)
                writer.write(bad)
                answer = (await asyncio.wait_for(reader.read(), 5)).decode("latin-1")
                writer.close()
                head, _, body = answer.partition("\r\n\r\n")
                assert head.startswith(("HTTP/1.1 400 ", "HTTP/1.0 400 ")), answer
                assert "Server: Ladderbot" in head and "aiohttp" not in answer, answer
                for name, value in SECURITY_HEADERS.items():
                    assert f"{name}: {value}" in head, (name, head)
                assert "script" not in body and "Evil" not in body, body
        finally:
            await site.stop()
