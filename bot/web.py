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
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web
from jinja2 import Environment, PackageLoader, select_autoescape

from bot.config import host_port
from bot.webserver import HEADER_TIMEOUT, Listener, throttle_logs, with_headers
from core.records import ChartData
from core.views import hall_view, history_view, ladder_list, player_view, standings_view
from storage.sqlite import SqliteStore

log = logging.getLogger(__name__)

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]

# An id in a path: ASCII digits, no leading zero, no longer than any stored id can be.
ID = "[1-9][0-9]{0,17}"
CACHED_CHARTS = 128  # rendered SVG charts kept (each a few tens of kilobytes)


def environment() -> Environment:
    """The page templates, escaping everything they are given."""
    env = Environment(loader=PackageLoader("bot", "templates"),
                      autoescape=select_autoescape(["html"]))
    env.filters["when"] = lambda text: (text or "").replace("T", " ")[:16]
    env.filters["signed"] = lambda n: ("+" if n > 0 else "") + str(n)
    return env


class Web:
    """The site: public ladders' standings, Hall of Fame, players and history."""

    def __init__(self, store: SqliteStore, clock: Callable[[], float] = time.time, *,
                 header_timeout: float = HEADER_TIMEOUT, connections: int | None = None
                 ) -> None:
        self.store = store
        self.clock = clock
        self.header_timeout = header_timeout
        self.connections = connections  # the cap (None: `connection_cap()`)
        self.templates = environment()
        self.charts = ChartCache(CACHED_CHARTS)
        self.app = web.Application(middlewares=[self._errors])
        self.app.on_response_prepare.append(with_headers)
        routes = [("", self.ladder, self.api_ladder), ("/hall", self.hall, self.api_hall),
                  ("/history", self.history, self.api_history),
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
            return web.Response(status=500, text="Sorry, something went wrong.")

    def _not_found(self, request: web.Request) -> web.Response:
        if request.path.startswith("/api/"):
            return web.json_response({"error": "not found"}, status=404)
        return self._page("404.html", {}, status=404)

    # ---- reading
    async def _read(self, work: Callable[[Any], Any]) -> Any:
        return await self.store.run(work, commit=False)

    def _now(self) -> int:
        return int(self.clock())

    def _page(self, name: str, data: dict[str, Any], status: int = 200) -> web.Response:
        html = self.templates.get_template(name).render(**data)
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
        return self._page("index.html", {"ladders": ladders})

    async def ladder(self, request: web.Request) -> web.Response:
        return self._page("ladder.html", await self._standings(request))

    async def hall(self, request: web.Request) -> web.Response:
        return self._page("hall.html", await self._other(request, hall_view))

    async def history(self, request: web.Request) -> web.Response:
        return self._page("history.html", await self._other(request, history_view))

    async def player(self, request: web.Request) -> web.Response:
        data, chart = await self._player(request)
        svg = "" if chart is None else await self.charts.svg(chart)
        return self._page("player.html", {**data, "chart_svg": svg})

    # ---- the API
    async def api_index(self, request: web.Request) -> web.Response:
        return self._json({"ladders": await self._read(ladder_list)})

    async def api_ladder(self, request: web.Request) -> web.Response:
        return self._json(await self._standings(request))

    async def api_hall(self, request: web.Request) -> web.Response:
        return self._json(await self._other(request, hall_view))

    async def api_history(self, request: web.Request) -> web.Response:
        return self._json(await self._other(request, history_view))

    async def api_player(self, request: web.Request) -> web.Response:
        data, chart = await self._player(request)
        if chart is not None:
            data["chart"] = {"ylabel": chart.ylabel,
                             "points": [[t, v] for t, v in chart.points],
                             "matches": [[t, v] for t, v in chart.matches]}
        return self._json(data)



class ChartCache:
    """Rendered charts by what they show: a player's chart is drawn once, until its line
    changes (a game, a correction, a decay day; its end moves on the hour). Requests for a
    chart being drawn wait for that drawing instead of starting their own."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._done: OrderedDict[ChartData, str] = OrderedDict()
        self._drawing: dict[ChartData, asyncio.Future[str]] = {}

    async def svg(self, chart: ChartData) -> str:
        """The chart as a bare <svg> element, for inline use."""
        chart = _on_the_hour(chart)
        if chart in self._done:
            self._done.move_to_end(chart)
            return self._done[chart]
        if chart in self._drawing:
            return await asyncio.shield(self._drawing[chart])
        drawing = self._drawing[chart] = asyncio.get_running_loop().create_future()
        try:
            from bot.charts import render

            svg = (await asyncio.to_thread(render, chart, "svg")).decode()
            svg = svg[svg.index("<svg"):]
        except BaseException as error:
            drawing.set_exception(error)
            drawing.exception()  # retrieved: waiting requests re-raise it, or nobody does
            raise
        finally:
            del self._drawing[chart]
        drawing.set_result(svg)
        self._done[chart] = svg
        while len(self._done) > self.size:
            self._done.popitem(last=False)
        return svg


def _on_the_hour(chart: ChartData) -> ChartData:
    """The chart with its line's last point (the present) moved back to the hour, never
    before the point ahead of it: the same picture for an hour of requests."""
    if not chart.points:
        return chart
    *rest, (at, value) = chart.points
    hour = at - at % 3600
    return dataclasses.replace(chart, points=(*rest, (max(hour, rest[-1][0]) if rest else hour,
                                                      value)))
