"""Serving the public site on the open internet: bounded connections, a deadline for a
request's headers, security headers on every response, and logs that cannot flood.

Without these, 300 half-open connections under `ulimit -n 256` stopped every request for as
long as they lasted, while asyncio logged 48,628 lines in 12 s.
"""

from __future__ import annotations

import asyncio
import logging
import resource
from typing import Any

from aiohttp import web

HEADER_TIMEOUT = 10.0  # seconds a connection may take to send a whole request
MOST_CONNECTIONS = 256  # open connections at once, at most (a quarter of the fd limit)
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
    if response.status == 200:
        response.headers["Cache-Control"] = f"public, max-age={FRESH_SECONDS}"
    else:
        response.headers["Cache-Control"] = "no-store"
    if request.path.startswith("/api/"):
        response.headers["Access-Control-Allow-Origin"] = "*"


class _Refused(asyncio.Protocol):
    """A connection over the cap: closed as soon as it is accepted."""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        transport.close()


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

    def __init__(self, runner: web.AppRunner, cap: int | None = None) -> None:
        self.runner = runner
        self.cap = connection_cap() if cap is None else cap
        self._server: asyncio.Server | None = None

    def _protocol(self) -> asyncio.BaseProtocol:
        server = self.runner.server
        assert server is not None
        if len(server.connections) >= self.cap:
            return _Refused()
        return server()

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
