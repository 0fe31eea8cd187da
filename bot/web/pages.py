"""The public web leaderboard and its JSON API, served by the bot process (aiohttp).

Read-only: every request is a rolled-back unit of work over stored projections. A ladder
that is not public answers 404 on its pages and its API alike, as one that does not
exist. Templates are autoescaped; charts are inline SVG holding no user text; there are
no scripts and no external assets, so the pages work where nothing outside is reachable.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
import multiprocessing
import re
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from aiohttp import web
from jinja2 import Environment, PackageLoader, select_autoescape

from bot.config import host_port
from bot.web.server import HEADER_TIMEOUT, Listener, throttle_logs, with_headers
from bot.web.words import accepted, speaker, when
from core.domain.chart import ChartData
from core.i18n import render, t
from core.service.queries.views import (
    hall_view,
    history_view,
    ladder_list,
    player_view,
    standings_view,
    tournaments_view,
)
from storage.sql.units import SqlStore

log = logging.getLogger(__name__)

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]

# An id in a path: ASCII digits, no leading zero, no longer than any stored id can be.
ID = "[1-9][0-9]{0,17}"
CACHED_CHARTS = 128  # rendered SVG charts kept (each a few tens of kilobytes)


def environment() -> Environment:
    """The page templates, escaping everything they are given."""
    env = Environment(loader=PackageLoader("bot", "templates"),
                      autoescape=select_autoescape(["html"]))
    env.filters["signed"] = lambda n: ("+" if n > 0 else "") + str(n)
    return env


class Web:
    """The site: public ladders' standings, Hall of Fame, players and history."""

    def __init__(self, store: SqlStore, clock: Callable[[], float] = time.time, *,
                 header_timeout: float = HEADER_TIMEOUT, connections: int | None = None,
                 chart_pool: Executor | None = None, language: str = "en") -> None:
        self.store = store
        self.language = language  # where no ladder is shown and the reader's is not ours
        self.clock = clock
        self.header_timeout = header_timeout
        self.connections = connections  # the cap (None: `connection_cap()`)
        self.templates = environment()
        self.charts = ChartCache(CACHED_CHARTS, chart_pool)
        self.app = web.Application(middlewares=[self._errors])
        self.app.on_cleanup.append(self._closed)
        self.app.on_response_prepare.append(with_headers)
        routes = [("", self.ladder, self.api_ladder), ("/hall", self.hall, self.api_hall),
                  ("/history", self.history, self.api_history),
                  ("/tournaments", self.tournaments, self.api_tournaments),
                  (f"/players/{{player:{ID}}}", self.player, self.api_player)]
        self.app.router.add_get("/", self.index)
        self.app.router.add_get("/api/ladders", self.api_index)
        for tail, page, api in routes:
            self.app.router.add_get(f"/ladders/{{ladder:{ID}}}{tail}", page)
            self.app.router.add_get(f"/api/ladders/{{ladder:{ID}}}{tail}", api)
        self._listener: Listener | None = None

    # ---- serving
    async def start(self, listen: str) -> str:
        """Listen on HOST:PORT (port 0: any free one); return the address in use."""
        host, port = host_port(listen, "127.0.0.1")
        throttle_logs()
        # aiohttp arms its keep-alive timer when a connection opens: a connection that has
        # not sent a whole request by then is closed, as an idle one is after a response.
        runner = web.AppRunner(self.app, access_log=None, keepalive_timeout=self.header_timeout)
        await runner.setup()
        self._listener = Listener(runner, self.connections)
        actual = await self._listener.start(host, port)
        address = f"http://{host}:{actual}"
        log.info("web pages at %s", address)
        return address

    async def _closed(self, app: web.Application) -> None:
        self.charts.close()

    async def stop(self) -> None:
        """Stop listening."""
        if self._listener is not None:
            await self._listener.stop()
            self._listener = None

    @web.middleware
    async def _errors(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        # One address per page: /ladders/%31 and /ladders/1 are not both served.
        if "%" in request.raw_path.partition("?")[0]:
            return self._not_found(request)
        try:
            return await handler(request)
        except web.HTTPNotFound:
            return self._not_found(request)
        except web.HTTPException:
            raise
        except Exception:
            log.exception("error serving %s", request.path)
            if request.path.startswith("/api/"):
                return web.json_response({"error": "internal error"}, status=500)
            language = accepted(request.headers.get("Accept-Language"), self.language)
            return web.Response(status=500, text=render(t("web.error"), language))

    def _not_found(self, request: web.Request) -> web.Response:
        if request.path.startswith("/api/"):
            return web.json_response({"error": "not found"}, status=404)
        return self.page(request, "404.html", {}, status=404)

    # ---- reading
    async def _read(self, work: Callable[[Any], Any]) -> Any:
        return await self.store.run(work, commit=False)

    def _now(self) -> int:
        return int(self.clock())

    def page(self, request: web.Request, name: str, data: dict[str, Any],
              status: int = 200) -> web.Response:
        """A page in its ladder's language, else in the reader's (`Accept-Language`)."""
        language = data.get("language") or accepted(request.headers.get("Accept-Language"),
                                                     self.language)
        html = self.templates.get_template(name).render(
            **data, lang=language, say=speaker(language), when=when(language))
        return web.Response(text=html, status=status, content_type="text/html")

    @staticmethod
    def _json(data: Any) -> web.Response:
        return web.Response(text=json.dumps(data, ensure_ascii=False, indent=1),
                            content_type="application/json")

    @staticmethod
    def _ids(request: web.Request) -> tuple[int, int]:
        return int(request.match_info["ladder"]), int(request.match_info.get("player", "0"))

    async def _standings(self, request: web.Request) -> dict[str, Any]:
        ladder, _ = self._ids(request)
        table, at = request.query.get("table"), self._now()
        data = await self._read(lambda repo: standings_view(repo, ladder, table, at))
        if data is None:
            raise web.HTTPNotFound()
        return data  # type: ignore[no-any-return]

    async def _player(self, request: web.Request) -> tuple[dict[str, Any], Any]:
        ladder, player = self._ids(request)
        at = self._now()
        found = await self._read(lambda repo: player_view(repo, ladder, player, at))
        if found is None:
            raise web.HTTPNotFound()
        return found  # type: ignore[no-any-return]

    async def _other(self, request: web.Request, view: Callable[..., Any]) -> dict[str, Any]:
        ladder, _ = self._ids(request)
        data = await self._read(lambda repo: view(repo, ladder))
        if data is None:
            raise web.HTTPNotFound()
        return data  # type: ignore[no-any-return]

    # ---- pages
    async def index(self, request: web.Request) -> web.Response:
        ladders = await self._read(ladder_list)
        return self.page(request, "index.html", {"ladders": ladders})

    async def ladder(self, request: web.Request) -> web.Response:
        return self.page(request, "ladder.html", await self._standings(request))

    async def hall(self, request: web.Request) -> web.Response:
        return self.page(request, "hall.html", await self._other(request, hall_view))

    async def history(self, request: web.Request) -> web.Response:
        return self.page(request, "history.html", await self._other(request, history_view))

    async def tournaments(self, request: web.Request) -> web.Response:
        return self.page(request, "tournaments.html",
                          await self._other(request, tournaments_view))

    async def player(self, request: web.Request) -> web.Response:
        data, chart = await self._player(request)
        svg = "" if chart is None else await self.charts.svg((data["id"], data["player"]["id"]),
                                                             chart)
        return self.page(request, "player.html", {**data, "chart_svg": svg})

    # ---- the API
    async def api_index(self, request: web.Request) -> web.Response:
        return self._json({"ladders": await self._read(ladder_list)})

    async def api_ladder(self, request: web.Request) -> web.Response:
        return self._json(await self._standings(request))

    async def api_hall(self, request: web.Request) -> web.Response:
        return self._json(await self._other(request, hall_view))

    async def api_history(self, request: web.Request) -> web.Response:
        return self._json(await self._other(request, history_view))

    async def api_tournaments(self, request: web.Request) -> web.Response:
        return self._json(await self._other(request, tournaments_view))

    async def api_player(self, request: web.Request) -> web.Response:
        data, chart = await self._player(request)
        if chart is not None:
            data["chart"] = {"ylabel": chart.ylabel,
                             "points": [[t, v] for t, v in chart.points],
                             "matches": [[t, v] for t, v in chart.matches]}
        return self._json(data)


class ChartCache:
    """Each player's chart, drawn once per picture (a game, a correction or a decay day
    changes it; its end moves on the hour). A page whose chart has changed shows the one
    drawn before while the new one is drawn in the background, so that under a busy
    writer no request waits for a drawing but a player's very first. Drawings take turns
    in a worker process: matplotlib is mostly Python, and drawing in a thread held the
    interpreter lock for more than half the time under a writer (p50 4.9 s a page)."""

    def __init__(self, size: int, pool: Executor | None = None) -> None:
        self.size = size
        self._done: OrderedDict[tuple[int, int], tuple[ChartData, str]] = OrderedDict()
        self._drawing: dict[tuple[int, int], asyncio.Task[str]] = {}
        self._pool = pool  # None: a worker process, started at the first drawing
        self._own_pool = pool is None

    async def svg(self, key: tuple[int, int], chart: ChartData) -> str:
        """The chart of player `key` (ladder, player) as a bare <svg> element."""
        chart = _on_the_hour(chart)
        done = self._done.get(key)
        if done is None:
            return await asyncio.shield(self._draw(key, chart))
        self._done.move_to_end(key)
        if done[0] != chart:
            self._draw(key, chart)  # in the background
        return done[1]

    async def settled(self) -> None:
        """Wait until every drawing under way is done."""
        while self._drawing:
            await asyncio.wait(list(self._drawing.values()))

    def close(self) -> None:
        """Stop the drawings under way, and the worker process."""
        for task in self._drawing.values():
            task.cancel()
        if self._own_pool and self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None

    def _draw(self, key: tuple[int, int], chart: ChartData) -> asyncio.Task[str]:
        task = self._drawing.get(key)
        if task is None:  # one drawing per player at a time; a later change draws again
            task = self._drawing[key] = asyncio.create_task(self._drawn(key, chart))
            task.add_done_callback(_logged)
        return task

    async def _drawn(self, key: tuple[int, int], chart: ChartData) -> str:
        try:
            try:
                svg = await self._render(chart)
            except BrokenProcessPool:  # the worker died (killed, out of memory): anew
                if not self._own_pool:
                    raise
                self._pool = None
                svg = await self._render(chart)
        finally:
            del self._drawing[key]
        self._done[key] = (chart, svg)
        self._done.move_to_end(key)
        while len(self._done) > self.size:
            self._done.popitem(last=False)
        return svg


    async def _render(self, chart: ChartData) -> str:
        if self._pool is None:
            spawn = multiprocessing.get_context("spawn")  # no fork of a threaded process
            self._pool = ProcessPoolExecutor(max_workers=1, mp_context=spawn)
        return await asyncio.get_running_loop().run_in_executor(self._pool, _svg, chart)


def _svg(chart: ChartData) -> str:
    """The chart drawn wide and narrow (the page's style shows one), as bare <svg> elements
    inline in the page. The narrow one's ids are its own: both define the same glyphs."""
    from bot.charts import NARROW, SIZE, render

    chart = dataclasses.replace(chart, title=("", ""))  # the page's heading names them
    wide, narrow = (render(chart, "svg", size).decode() for size in (SIZE, NARROW))
    narrow = re.sub(r'(id="|href="#|url\(#)', r"\1n-", narrow)
    return (f'<div class="wide">{wide[wide.index("<svg"):]}</div>'
            f'<div class="narrow">{narrow[narrow.index("<svg"):]}</div>')


def _logged(task: asyncio.Task[str]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.error("could not draw a chart", exc_info=task.exception())


def _on_the_hour(chart: ChartData) -> ChartData:
    """The chart with its line's last point (the present) moved back to the hour, never
    before the point ahead of it: the same picture for an hour of requests."""
    if not chart.points:
        return chart
    *rest, (at, value) = chart.points
    hour = at - at % 3600
    return dataclasses.replace(chart, points=(*rest, (max(hour, rest[-1][0]) if rest else hour,
                                                      value)))
