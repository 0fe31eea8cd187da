"""A loopback stand-in for Discord's OAuth2 endpoints (discord-api-docs, topics/oauth2):
the authorization page (which approves at once, as a user pressing Authorize would),
the token endpoint and /users/@me. It refuses what Discord refuses: another client, an
unregistered redirect, a code used twice or made for another redirect, another token."""

from __future__ import annotations

import base64
import secrets
from typing import Any
from urllib.parse import urlencode

from aiohttp import web

CLIENT_ID, CLIENT_SECRET = "1300000000000000777", "s3cret"


class FakeDiscordOAuth:
    """Discord's OAuth2 for one application, one user logging in."""

    def __init__(self, user: dict[str, Any], redirect: str = "") -> None:
        self.user, self.redirect = user, redirect
        self.codes: dict[str, str] = {}  # code -> its redirect
        self.tokens: set[str] = set()
        self.refused: list[str] = []

    def app(self) -> web.Application:
        app = web.Application()
        app.router.add_get("/oauth2/authorize", self.authorize)
        app.router.add_post("/api/oauth2/token", self.token)
        app.router.add_get("/api/users/@me", self.me)
        return app

    async def authorize(self, request: web.Request) -> web.Response:
        q = request.query
        if q.get("client_id") != CLIENT_ID or q.get("redirect_uri") != self.redirect \
                or q.get("response_type") != "code" or "identify" not in q.get("scope", ""):
            self.refused.append("authorize")
            return web.Response(status=400, text="Invalid OAuth2 request")
        code = secrets.token_urlsafe(16)
        self.codes[code] = q["redirect_uri"]
        back = urlencode({"code": code, "state": q.get("state", "")})
        raise web.HTTPFound(f"{q['redirect_uri']}?{back}")

    async def token(self, request: web.Request) -> web.Response:
        form = await request.post()
        client, secret = form.get("client_id"), form.get("client_secret")
        basic = request.headers.get("Authorization", "")
        if basic.startswith("Basic "):
            client, _, secret = base64.b64decode(basic[6:]).decode().partition(":")
        code = str(form.get("code", ""))
        if (client, secret) != (CLIENT_ID, CLIENT_SECRET) or \
                form.get("grant_type") != "authorization_code" or \
                self.codes.pop(code, None) != form.get("redirect_uri"):
            self.refused.append("token")
            return web.json_response({"error": "invalid_grant"}, status=400)
        token = secrets.token_urlsafe(16)
        self.tokens.add(token)
        return web.json_response({"access_token": token, "token_type": "Bearer",
                                  "expires_in": 604800, "scope": "identify"})

    async def me(self, request: web.Request) -> web.Response:
        if request.headers.get("Authorization", "").removeprefix("Bearer ") not in self.tokens:
            self.refused.append("me")
            return web.json_response({"message": "401: Unauthorized", "code": 0}, status=401)
        return web.json_response(self.user)
