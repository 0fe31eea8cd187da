"""Logging in to the dashboard with Discord: OAuth2's authorization code flow with the
`identify` scope, through Authlib's client. The `state` it makes is bound to the browser
by a short-lived cookie and checked when Discord sends the visitor back; the token is
used once, for who they are, and kept nowhere."""

from __future__ import annotations

from dataclasses import dataclass

from authlib.integrations.httpx_client import AsyncOAuth2Client
from authlib.oauth2 import OAuth2Error
from httpx import HTTPError

from core.domain.names import shown_name
from core.domain.records import UserRef

DISCORD = "https://discord.com"


@dataclass(frozen=True)
class DiscordOAuth:
    """The application's client and where Discord's OAuth2 endpoints are."""

    client_id: str
    client_secret: str
    redirect: str  # the site's /login/discord/back, as registered with the application
    base: str = DISCORD

    def _client(self) -> AsyncOAuth2Client:
        return AsyncOAuth2Client(self.client_id, self.client_secret, scope="identify",
                                 redirect_uri=self.redirect, timeout=10)

    def start(self) -> tuple[str, str]:
        """Where to send the visitor to log in, and the `state` to check on return."""
        url, state = self._client().create_authorization_url(f"{self.base}/oauth2/authorize")
        return str(url), str(state)

    async def finish(self, code: str) -> UserRef | None:
        """Who the code Discord sent back says the visitor is (None: it says nobody)."""
        async with self._client() as client:
            try:
                await client.fetch_token(f"{self.base}/api/oauth2/token", code=code)
                answer = await client.get(f"{self.base}/api/users/@me")
                answer.raise_for_status()
                me = answer.json()
            except (OAuth2Error, HTTPError, ValueError):
                return None
        if not isinstance(me, dict) or not str(me.get("id", "")).isdigit():
            return None
        name = str(me.get("global_name") or me.get("username") or me["id"])
        return UserRef(f"discord:{me['id']}", shown_name(name))
