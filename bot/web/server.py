"""Serving the public site on the open internet: bounded connections (a share for each
client address), a deadline for a request's headers, security headers on every response
(aiohttp's own answers to requests it cannot read included), and logs that cannot flood.

Without these, 300 half-open connections under `ulimit -n 256` stopped every request for as
long as they lasted, while asyncio logged 48,628 lines in 12 s.
"""

from __future__ import annotations

import asyncio
import logging
import resource
from http import HTTPStatus
from typing import Any

from aiohttp import web
from aiohttp.web_protocol import RequestHandler
from aiohttp.web_request import BaseRequest
from aiohttp.web_response import StreamResponse

HEADER_TIMEOUT = 10.0  # seconds a connection may take to send a whole request
MOST_CONNECTIONS = 256  # open connections at once, at most (a quarter of the fd limit)
PER_ADDRESS = 16  # of them from one address (a browser opens 6 at most to a site)
# Pages hold no script and load nothing from elsewhere; their one stylesheet is inline.
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; "
                               "img-src data:; frame-ancestors 'none'; base-uri 'none'; "
                               "form-action 'none'",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
}
FRESH_SECONDS = 30  # how long a browser or proxy may keep a page before asking again
# The dashboard's pages (bot/web/dashboard.py): never kept by anyone, their forms posted
# back here, and the login page's one script Telegram's widget (no inline script).
DASHBOARD = ("/login", "/me", "/logout")  # (and each ladder's /manage, and below it)
DASHBOARD_POLICY = ("default-src 'none'; style-src 'unsafe-inline'; img-src data:; "
                    "frame-ancestors 'none'; base-uri 'none'; form-action 'self'")
LOGIN_POLICY = (DASHBOARD_POLICY + "; script-src https://telegram.org; "
                "frame-src https://oauth.telegram.org")


def _managing(path: str) -> bool:
    """Whether a path is a ladder's moderator page or below it (its import)."""
    return path.startswith("/ladders/") and (path.endswith("/manage") or "/manage/" in path)


def _address(transport: asyncio.BaseTransport | None) -> str | None:
    """The client's address of a connection (None: it has none, or it closed)."""
    peer = transport.get_extra_info("peername") if transport is not None else None
    return str(peer[0]) if isinstance(peer, tuple) and peer else None


def connection_cap() -> int:
    """How many connections to hold at once: MOST_CONNECTIONS, or a quarter of the open
    files this process may have, whichever is smaller (so accept() never runs out)."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    return MOST_CONNECTIONS if soft == resource.RLIM_INFINITY else \
        max(4, min(MOST_CONNECTIONS, soft // 4))


async def with_headers(request: web.Request, response: web.StreamResponse) -> None:
    """Security headers on every response; caching for pages; the JSON API readable from
    any site's scripts (it is public and read-only); no server version."""
    response.headers.update(SECURITY_HEADERS)
    response.headers["Server"] = "Ladderbot"
    if request.path.startswith(DASHBOARD) or _managing(request.path):
        response.headers["Content-Security-Policy"] = \
            LOGIN_POLICY if request.path == "/login" else DASHBOARD_POLICY
        response.headers["Cache-Control"] = "no-store"
    elif response.status == 200:
        response.headers["Cache-Control"] = f"public, max-age={FRESH_SECONDS}"
    else:
        response.headers["Cache-Control"] = "no-store"
    if request.path.startswith("/api/"):
        response.headers["Access-Control-Allow-Origin"] = "*"


class _Handler(RequestHandler):
    """aiohttp's connection handler, answering a request it cannot read (a bad request
    line, headers too long) as our pages are answered: with the security headers, no
    server version, and nothing of the request echoed back."""

    __slots__ = ()

    def handle_error(self, request: BaseRequest, status: int = 500,
                     exc: BaseException | None = None,
                     message: str | None = None) -> StreamResponse:
        super().handle_error(request, status, exc)  # (its log line, throttled; its page
        # named the server's version and echoed the request's words)
        response = web.Response(status=status, text=f"{status} {HTTPStatus(status).phrase}\n")
        response.headers.update(SECURITY_HEADERS)
        response.headers["Server"] = "Ladderbot"
        response.headers["Cache-Control"] = "no-store"
        response.force_close()
        return response


class _Gate(asyncio.Protocol):
    """A connection just accepted: handed to a request handler if its address holds no
    more than PER_ADDRESS connections and the site no more than its cap, else closed."""

    def __init__(self, listener: Listener) -> None:
        self.listener = listener

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        handler = self.listener.admit(transport)
        if handler is None:
            transport.close()
            return
        transport.set_protocol(handler)
        handler.connection_made(transport)


class Throttle(logging.Filter):
    """Let the same message through once per `interval` seconds (by the record's time)."""

    def __init__(self, interval: float = 60.0) -> None:
        super().__init__()
        self.interval = interval
        self.last: dict[tuple[str, Any], float] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        key = (record.name, record.msg)
        if record.created - self.last.get(key, -self.interval) < self.interval:
            return False
        if len(self.last) > 1000:
            self.last.clear()
        self.last[key] = record.created
        return True


THROTTLE = Throttle()


def throttle_logs() -> None:
    """Throttle what asyncio and aiohttp log per connection (accept errors, bad requests)."""
    for name in ("asyncio", "aiohttp.server"):
        logger = logging.getLogger(name)
        if THROTTLE not in logger.filters:
            logger.addFilter(THROTTLE)


class Listener:
    """The site's listening socket: the runner's requests, within the connection cap."""

    def __init__(self, runner: web.AppRunner, cap: int | None = None,
                 per_address: int = PER_ADDRESS) -> None:
        self.runner = runner
        self.cap = connection_cap() if cap is None else cap
        self.per_address = per_address
        self._server: asyncio.Server | None = None

    def _protocol(self) -> asyncio.BaseProtocol:
        return _Gate(self)

    def admit(self, transport: asyncio.BaseTransport) -> RequestHandler | None:
        """A handler for a new connection, or None: over the site's cap, or over its
        address's share (one client holding 260 unfinished connections had 93% of the
        others' requests refused)."""
        server = self.runner.server
        assert server is not None
        open_now = server.connections
        if len(open_now) >= self.cap:
            return None
        address = _address(transport)
        if sum(1 for h in open_now if _address(h.transport) == address) >= self.per_address:
            return None
        # (aiohttp's own handler, made as its server makes one, answering errors our way)
        return _Handler(server, loop=asyncio.get_running_loop(), **server._kwargs)

    async def start(self, host: str, port: int) -> int:
        """Listen; return the port in use."""
        loop = asyncio.get_running_loop()
        self._server = await loop.create_server(self._protocol, host, port, backlog=128,
                                                reuse_address=True)
        return int(self._server.sockets[0].getsockname()[1])

    async def stop(self) -> None:
        """Stop accepting, close what is open, and wait until all is closed."""
        server, self._server = self._server, None
        if server is not None:
            server.close()
        await self.runner.cleanup()
        if server is not None:
            await server.wait_closed()
