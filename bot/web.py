"""The public web leaderboard and its JSON API, served by the bot process (aiohttp).

Read-only: every request is a rolled-back unit of work over stored projections. A ladder
that is not public answers 404 on its pages and its API alike, as one that does not
exist. Templates are autoescaped; charts are inline SVG holding no user text; there are
no scripts and no external assets, so the pages work where nothing outside is reachable.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web
from jinja2 import Environment, PackageLoader, select_autoescape

from bot.config import host_port
from core.views import hall_view, history_view, ladder_list, player_view, standings_view
from storage.sqlite import SqliteStore

log = logging.getLogger(__name__)

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def environment() -> Environment:
    """The page templates, escaping everything they are given."""
    env = Environment(loader=PackageLoader("bot", "templates"),
                      autoescape=select_autoescape(["html"]))
    env.filters["when"] = lambda text: (text or "").replace("T", " ")[:16]
    env.filters["signed"] = lambda n: ("+" if n > 0 else "") + str(n)
    return env


class Web:
    """The site: public ladders' standings, Hall of Fame, players and history."""

    def __init__(self, store: SqliteStore, clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.clock = clock
        self.templates = environment()
        self.app = web.Application(middlewares=[self._errors])
        self.app.router.add_get("/", self.index)
        self.app.router.add_get("/ladders/{ladder:\\d+}", self.ladder)
        self.app.router.add_get("/ladders/{ladder:\\d+}/hall", self.hall)
        self.app.router.add_get("/ladders/{ladder:\\d+}/history", self.history)
        self.app.router.add_get("/ladders/{ladder:\\d+}/players/{player:\\d+}", self.player)
        self.app.router.add_get("/api/ladders", self.api_index)
        self.app.router.add_get("/api/ladders/{ladder:\\d+}", self.api_ladder)
        self.app.router.add_get("/api/ladders/{ladder:\\d+}/hall", self.api_hall)
        self.app.router.add_get("/api/ladders/{ladder:\\d+}/history", self.api_history)
        self.app.router.add_get("/api/ladders/{ladder:\\d+}/players/{player:\\d+}",
                                self.api_player)
        self._runner: web.AppRunner | None = None

    # ---- serving
    async def start(self, listen: str) -> str:
        """Listen on HOST:PORT (port 0: any free one); return the address in use."""
        host, port = host_port(listen, "127.0.0.1")
        self._runner = web.AppRunner(self.app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, host, port)
        await site.start()
        server = site._server
        actual = server.sockets[0].getsockname()[1] if server is not None else port
        address = f"http://{host}:{actual}"
        log.info("web pages at %s", address)
        return address

    async def stop(self) -> None:
        """Stop listening."""
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    @web.middleware
    async def _errors(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        try:
            return await handler(request)
        except web.HTTPNotFound:
            return self._not_found(request)
        except web.HTTPException:
            raise
        except Exception:
            log.exception("error serving %s", request.path)
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
        svg = ""
        if chart is not None:
            from bot.charts import render

            svg = (await asyncio.to_thread(render, chart, "svg")).decode()
            svg = svg[svg.index("<svg"):]  # the bare element, inline in the page
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

