"""A loopback stand-in for Discord: the REST routes discord.py calls and a gateway.

Interaction responses, follow-ups and messages are recorded as the HTTP requests
discord.py really made. Ids are real snowflakes (PITFALLS.md: short ids make member
conversion wait silently). What the real API refuses (tests/support/platform_limits.py: sizes of
messages, embeds and components, autocomplete choices, command registration) is refused
alike, with HTTP 400 and code 50035 "Invalid Form Body", and kept in `refused`; files
over the upload limit with 413 and code 40005.

Interactions keep Discord's times (interactions/receiving-and-responding), on an injected
clock: the first response within 3 seconds of the interaction (then 404, 10062 "Unknown
interaction"), once (400, 40060), follow-ups only after it and within 15 minutes (401,
50027). A deferred command shows a loading message that the first follow-up fills, with
the flags of the deferral, not its own: a refusal meant for one person, sent as that
follow-up, would be shown to the whole channel. Deleting the loading message first lets
a follow-up of its own be private.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from aiohttp import WSMsgType, web

from tests.support import platform_limits as limits
from tests.support.discord_guild import Guild
from tests.support.discord_payloads import (
    APP,
    BOT_USER,
    CHANNEL,
    EPHEMERAL,
    GUILD,
    bot_message,
    member,
    person,
    snowflake,
)

# A server's member routes (GET a member, PUT and DELETE a member's role) share one
# bucket per server here: 10 requests, refilled at one a second. Discord does not
# publish its numbers (they come in each answer's headers); this is of their size.
MEMBER_BURST, MEMBER_RATE = 10.0, 1.0
MAX_ROLES, ROLE_NAME = 250, 100  # a server's roles, a role's name (discord-api-docs)
FIRST_RESPONSE, TOKEN_LIFE = 3.0, 15 * 60.0  # seconds
DEFERRED, DEFERRED_UPDATE, UPDATE = 5, 6, 7  # callback types


@dataclass
class _Interaction:
    """What the stand-in knows of one interaction it sent."""

    born: float
    kind: int  # 2 a command, 3 a component, 4 autocomplete
    acked: int | None = None  # the callback type it was answered with
    flags: int = 0  # of the deferral
    loading: bool = False  # a loading message waits for its first follow-up


class FakeDiscord:
    """Records every request; answers like Discord; runs a gateway for any shards, and
    sends a guild's events only to the shard that owns the guild, as Discord does."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.interactions: dict[str, _Interaction] = {}  # by token
        self.shown: list[dict[str, Any]] = []  # answers as the users see them
        self.requests: list[tuple[str, str, Any]] = []
        self.uploads: list[tuple[str, dict[str, bytes]]] = []  # path, its files by name
        self.changed = asyncio.Event()
        self.sockets: list[web.WebSocketResponse] = []
        self.identified = asyncio.Event()
        self.shards: dict[web.WebSocketResponse, tuple[int, int]] = {}  # socket -> shard
        self.seq = 0
        self.port = 0
        self.refused: list[tuple[str, str, list[str]]] = []  # method, path, problems
        self.links: list[str] = []  # what readers could click in the bot's messages
        self.guild = Guild()
        self.deleted: set[str] = set()  # ids of messages someone deleted
        self.no_access: set[str] = set()  # channels the bot lost access to (403)
        self.bucket: tuple[float, float] = (MEMBER_BURST, clock())  # level, when
        self.files: dict[str, bytes] = {}  # what users attached, by attachment id
        self.downloads: list[str] = []  # the attachments the bot read

    def attach(self, filename: str, data: bytes) -> dict[str, Any]:
        """A file a user attaches to a command: its attachment object, served from this
        stand-in's CDN path (read only through its URL, as Discord's are)."""
        number = snowflake()
        self.files[number] = data
        url = f"http://127.0.0.1:{self.port}/attachments/{CHANNEL}/{number}/{filename}"
        return {"id": number, "filename": filename, "size": len(data), "url": url,
                "proxy_url": url, "content_type": "text/csv; charset=utf-8"}

    async def cdn(self, request: web.Request) -> web.Response:
        number = request.match_info["id"]
        self.downloads.append(number)
        if number not in self.files:
            return web.Response(status=404)
        return web.Response(body=self.files[number], content_type="text/csv")

    def arrive(self, payload: dict[str, Any]) -> None:
        """An interaction is sent to the bot now: its clock starts."""
        self.interactions[payload["token"]] = _Interaction(self.clock(), payload["type"])

    # ---- what the bot said
    def responses(self) -> list[dict[str, Any]]:
        """The answers to interactions as their users see them, in order: each response
        and follow-up with a message (not a bare deferral), with the flags it is shown
        with (a loading message's first follow-up takes the deferral's)."""
        return list(self.shown)

    def texts(self) -> list[str]:
        """The content (or embed title and description) of each response."""
        out = []
        for r in self.responses():
            if r.get("embeds"):
                e = r["embeds"][0]
                out.append(f"{e.get('title', '')}\n{e.get('description', '')}".strip())
            else:
                out.append(r.get("content", ""))
        return out

    def channel_posts(self, channel: int) -> list[str]:
        return [body.get("content", "") for method, path, body in self.requests
                if method == "POST" and path == f"/channels/{channel}/messages"]

    async def wait_responses(self, count: int) -> None:
        """Wait (at most 20 s) until the bot has made `count` responses in all."""
        await self.wait_until(lambda: len(self.responses()) >= count,
                              lambda: f"{len(self.responses())} of {count} responses")

    def edits(self) -> list[Any]:
        """The bodies of every message edit (PATCH of a channel's message), in order."""
        return [body for method, path, body in self.requests
                if method == "PATCH" and path.startswith("/channels/") and "/messages/" in path]

    async def wait_until(self, done: Callable[[], bool], what: Callable[[], str]) -> None:
        """Wait (at most 20 s) until `done()` holds after some request; `what()` says what
        was seen instead when it never does."""
        async def enough() -> None:
            while not done():
                self.changed.clear()
                await self.changed.wait()

        try:
            await asyncio.wait_for(enough(), 20)
        except TimeoutError:
            raise AssertionError(f"{what()} after 20 s: {self.texts()}") from None

    # ---- REST
    async def rest(self, request: web.Request) -> web.Response:
        path = "/" + request.match_info["path"]
        body: Any = None
        if request.can_read_body:
            if request.content_type == "application/json":
                body = await request.json()
            else:
                form = await request.post()
                body = json.loads(str(form.get("payload_json", "{}")))
                files = {f.filename: f.file.read() for f in form.values()
                         if isinstance(f, web.FileField)}
                self.uploads.append((path, files))
                too_large = limits.discord_files(files)
                if too_large:
                    self.refused.append((request.method, path, [too_large]))
                    return web.Response(status=413, body=json.dumps(
                        {"message": too_large, "code": 40005}).encode(),
                        headers={"Content-Type": "application/json"})
        self.requests.append((request.method, path, body))
        self.links += self.linked(body)
        self.changed.set()
        status, answer = self.answer(request.method, path, body or {})
        if answer is None:
            return web.Response(status=204)
        # discord.py parses JSON only under exactly this content type (no charset).
        return web.Response(status=status, body=json.dumps(answer).encode(),
                            headers={"Content-Type": "application/json"})

    @staticmethod
    def linked(body: Any) -> list[str]:
        """The links Discord would show in a message the bot sends."""
        if not isinstance(body, dict):
            return []
        data = body.get("data")
        message: dict[str, Any] = data if isinstance(data, dict) else body
        texts = [message.get("content") or ""]
        for embed in message.get("embeds") or []:
            texts += [embed.get("title") or "", embed.get("description") or ""]
        return [link for text in texts for link in limits.discord_links(text)]

    @staticmethod
    def problems(method: str, path: str, body: Any) -> list[str]:
        """What Discord would refuse in this request."""
        if path.endswith("/callback"):
            data = body.get("data") or {}
            if body.get("type") == 8:
                return limits.discord_choices(data)
            return limits.discord_message(data, create=body.get("type") == 4)
        if path.endswith("/commands") and isinstance(body, list):
            return limits.discord_commands(body)
        if method in ("POST", "PATCH") and isinstance(body, dict) and (
                path.startswith(f"/webhooks/{APP}/") or "/messages" in path):
            return limits.discord_message(body, create=method == "POST")
        return []

    def answer(self, method: str, path: str, body: dict[str, Any]) -> tuple[int, Any]:
        problems = self.problems(method, path, body)
        if problems:
            self.refused.append((method, path, problems))
            return 400, {"message": "Invalid Form Body", "code": 50035,
                         "errors": {"_errors": [{"code": "BASE_TYPE_INVALID", "message": p}
                                                for p in problems]}}
        late = self.timing(method, path, body)
        if late is not None:
            self.refused.append((method, path, [late[1]["message"]]))
            return late
        ws = f"ws://127.0.0.1:{self.port}/gateway"
        if path == f"/guilds/{GUILD}" and method == "GET":
            return 200, self.guild.payload()
        if path.startswith(f"/guilds/{GUILD}/"):
            return self.guild_route(method, path.split("/")[3:], body)
        if method == "PATCH" and path.split("/")[-1] in self.deleted:
            return 404, {"message": "Unknown Message", "code": 10008}
        if path.startswith("/channels/") and path.split("/")[2] in self.no_access:
            return 403, {"message": "Missing Access", "code": 50001}
        if path == "/users/@me":
            return 200, BOT_USER
        if path == "/oauth2/applications/@me":
            return 200, {"id": str(APP), "name": "Ladderbot", "description": "", "icon": None,
                         "bot_public": True, "bot_require_code_grant": False,
                         "owner": BOT_USER, "verify_key": "0" * 64, "flags": 0,
                         "rpc_origins": [], "team": None, "summary": ""}
        if path in ("/gateway/bot", "/gateway"):
            return 200, {"url": ws, "shards": 1, "session_start_limit": {
                "total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}}
        if path.endswith("/callback") or (path.startswith(f"/webhooks/{APP}/") and
                                          method == "DELETE"):
            if method == "DELETE":
                return 204, None
            message = bot_message(CHANNEL, body.get("data", {}).get("content", ""),
                               body.get("data", {}))
            return 200, {"interaction": {"id": path.split("/")[2], "type": 2,
                                         "response_message_id": message["id"],
                                         "response_message_loading": False,
                                         "response_message_ephemeral": False},
                         "resource": {"type": body["type"], "message": message}}
        if path.startswith(f"/webhooks/{APP}/") or path.startswith("/channels/"):
            channel = int(path.split("/")[2]) if path.startswith("/channels/") else CHANNEL
            return 200, bot_message(channel, body.get("content", ""), body)
        if path.startswith(f"/applications/{APP}/") and path.endswith("/commands"):
            return 200, [{**c, "id": snowflake(), "application_id": str(APP), "version": "1"}
                         for c in body] if isinstance(body, list) else []
        return 404, {"message": "Unknown route", "code": 0}

    def guild_route(self, method: str, parts: list[str], body: dict[str, Any]
                    ) -> tuple[int, Any]:
        """The server's roles and members, with Discord's refusals: Manage Roles, the
        bot's place among the roles, the number of roles, and the member bucket."""
        g = self.guild
        if parts == ["roles"] and method == "GET":
            return 200, list(g.roles.values())
        if parts == ["roles"] and method == "POST":
            if not g.may_manage():
                return self._forbidden(method, parts)
            if len(g.roles) >= MAX_ROLES:
                return 400, {"message": "Maximum number of guild roles reached (250)",
                             "code": 30005}
            problems = [] if 1 <= len(body.get("name", "")) <= ROLE_NAME else ["role name"]
            if problems:
                self.refused.append((method, "/".join(parts), problems))
                return 400, {"message": "Invalid Form Body", "code": 50035}
            everyone = int(g.roles[str(GUILD)]["permissions"])  # (Discord's default)
            return 200, g.add_role(body["name"], int(body.get("color", 0)),
                                   permissions=int(body.get("permissions", everyone)))
        if parts[0] != "members" or len(parts) < 2:
            return 404, {"message": "Unknown route", "code": 0}
        if not self._take():
            self.refused.append((method, "/".join(parts), ["rate limited"]))
            return 429, {"message": "You are being rate limited.", "retry_after": 0.01,
                         "global": False}
        user = parts[1]
        if user in g.left:
            return 404, {"message": "Unknown Member", "code": 10007}
        if len(parts) == 2 and method == "GET":
            return 200, {**member(person(int(user), f"u{user}")),
                         "roles": sorted(g.members.get(user, set()))}
        if len(parts) != 4 or parts[2] != "roles" or method not in ("PUT", "DELETE"):
            return 404, {"message": "Unknown route", "code": 0}
        role = g.roles.get(parts[3])
        if role is None:
            return 404, {"message": "Unknown Role", "code": 10011}
        if not g.may_manage() or role["position"] >= g.top():
            return self._forbidden(method, parts)
        held = g.members.setdefault(user, set())
        (held.add if method == "PUT" else held.discard)(role["id"])
        return 204, None

    def _forbidden(self, method: str, parts: list[str]) -> tuple[int, Any]:
        self.refused.append((method, "/".join(parts), ["missing permissions"]))
        return 403, {"message": "Missing Permissions", "code": 50013}

    def _take(self) -> bool:
        level, at = self.bucket
        level = min(MEMBER_BURST, level + (self.clock() - at) * MEMBER_RATE)
        if level < 1:
            return False
        self.bucket = (level - 1, self.clock())
        return True

    def timing(self, method: str, path: str, body: dict[str, Any]) -> tuple[int, Any] | None:
        """Discord's rules of when an interaction may be answered (None: in time), and
        what the users see of an answer that is."""
        parts = path.split("/")
        if path.endswith("/callback"):
            return self._callback(self.interactions.get(parts[3]), body)
        if not path.startswith(f"/webhooks/{APP}/"):
            return None
        found = self.interactions.get(parts[3])
        if found is None or found.acked is None:
            return 404, {"message": "Unknown Webhook", "code": 10015}
        if self.clock() - found.born > TOKEN_LIFE:
            return 401, {"message": "Invalid Webhook Token", "code": 50027}
        original = parts[4:] == ["messages", "@original"]
        if method == "DELETE" and original:
            found.loading = False
        elif method == "POST" or (method == "PATCH" and original and found.loading):
            flags = found.flags if found.loading else body.get("flags", 0)
            found.loading = False
            self.shown.append(body | {"flags": flags})
        return None

    def _callback(self, found: _Interaction | None, body: dict[str, Any]
                  ) -> tuple[int, Any] | None:
        if found is None or self.clock() - found.born > FIRST_RESPONSE:
            return 404, {"message": "Unknown interaction", "code": 10062}
        if found.acked is not None:
            return 400, {"message": "Interaction has already been acknowledged.",
                         "code": 40060}
        kind = body["type"]
        if kind in (DEFERRED_UPDATE, UPDATE) and found.kind != 3:
            return 400, {"message": "Interaction response type invalid", "code": 50035}
        found.acked = kind
        data = body.get("data") or {}
        if kind == DEFERRED:
            found.flags, found.loading = data.get("flags", 0) & EPHEMERAL, True
        elif kind != DEFERRED_UPDATE:
            self.shown.append(data | {"type": kind})
        return None

    # ---- gateway
    async def gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        self.sockets.append(ws)
        await ws.send_str(json.dumps({"op": 10, "d": {"heartbeat_interval": 41250}}))
        async for msg in ws:
            if msg.type != WSMsgType.TEXT:
                continue
            data = json.loads(msg.data)
            if data["op"] == 1:
                await ws.send_str(json.dumps({"op": 11}))
            elif data["op"] == 2:
                shard = data["d"].get("shard", [0, 1])
                self.shards[ws] = (shard[0], shard[1])
                await self._send(ws, "READY", {
                    "v": 10, "user": BOT_USER, "guilds": [], "session_id": "session",
                    "resume_gateway_url": f"ws://127.0.0.1:{self.port}/gateway",
                    "shard": shard,
                    "application": {"id": str(APP), "flags": 0}})
                self.identified.set()
        return ws

    async def _send(self, ws: web.WebSocketResponse, event: str,
                    payload: dict[str, Any]) -> None:
        self.seq += 1
        await ws.send_str(json.dumps({"op": 0, "t": event, "s": self.seq, "d": payload}))

    async def dispatch(self, event: str, payload: dict[str, Any]) -> None:
        """Send an event to the shard of its guild: (guild_id >> 22) % shard count."""
        guild = payload.get("guild_id")
        if event == "INTERACTION_CREATE":
            self.arrive(payload)
        for ws in self.sockets:
            shard, count = self.shards.get(ws, (0, 1))
            if not ws.closed and (guild is None or (int(guild) >> 22) % count == shard):
                await self._send(ws, event, payload)

    async def serve(self) -> web.AppRunner:
        app = web.Application()
        app.router.add_get("/gateway", self.gateway)
        app.router.add_route("*", "/api/v10/{path:.*}", self.rest)
        app.router.add_get("/attachments/{channel}/{id}/{name}", self.cdn)
        runner = web.AppRunner(app)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        return runner
