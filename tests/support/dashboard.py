"""The dashboard's tests' common ground (issue 55): a Telegram login made as Telegram's
widget makes it, the site served with the dashboard on a chat's clock, and who the
platforms say moderates."""

from __future__ import annotations

import hashlib
import hmac
import re
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any
from urllib.parse import urlencode

from aiohttp.test_utils import TestClient, TestServer
from playwright.async_api import Page

from bot.web.dashboard import BEGUN, COOKIE, Dashboard
from bot.web.pages import Web
from core.domain.settings import Policy
from tests.support.chat import Chat

TOKEN = "123456:test-token"
HOSTILE = "<script>alert(1)</script>"
GROUP = "telegram:-100"  # the tests' Telegram group
Access = Callable[[str, str], Awaitable[tuple[bool, frozenset[str]] | None]]


def signed(fields: dict[str, str], token: str = TOKEN) -> dict[str, str]:
    """The widget's fields with their hash, made as Telegram's page says: the fields but
    `hash`, sorted, `key=value` a line, HMAC-SHA256 keyed by SHA-256 of the token."""
    lines = "\n".join(f"{k}={fields[k]}" for k in sorted(fields))
    key = hashlib.sha256(token.encode()).digest()
    return {**fields, "hash": hmac.new(key, lines.encode(), hashlib.sha256).hexdigest()}


def widget(at: int, uid: str, name: str) -> dict[str, str]:
    """What Telegram's widget sends back for a user who logged in at `at`."""
    return signed({"id": uid, "first_name": name.title(), "username": name,
                   "auth_date": str(at)})


async def login(client: TestClient[Any, Any], at: int, uid: str = "42",
                name: str = "alice") -> Any:
    """The widget's return to the site; its session's cookie kept by the test's client
    (which, over the test's plain http, would not send a Secure one back by itself)."""
    client.session.cookie_jar.update_cookies({BEGUN: "1"})  # (begun on the login page)
    done = await client.get("/login/telegram", params=widget(at, uid, name),
                            allow_redirects=False)
    if COOKIE in done.cookies:
        client.session.cookie_jar.update_cookies({COOKIE: done.cookies[COOKIE].value})
    return done


async def browser_login(page: Page, address: str, at: int, uid: str, name: str) -> None:
    """The same in a browser: the login page opened first, then the widget's way back."""
    await page.goto(f"{address}/login")  # (where a login begins)
    await page.goto(f"{address}/login/telegram?{urlencode(widget(at, uid, name))}")


def moderated_by(*keys: str, chats: tuple[str, ...] = (GROUP,)) -> Access:
    """The platforms' answer: `keys` moderate `chats`; anyone of the chat's platform is
    known there; another platform's account is not."""
    async def access(chat: str, user: str) -> tuple[bool, frozenset[str]] | None:
        if chat not in chats or user.split(":")[0] != chat.split(":")[0]:
            return None
        return user in keys, frozenset()
    return access


@asynccontextmanager
async def dashboard(chat: Chat, access: Access | None = None
                    ) -> AsyncIterator[tuple[TestClient[Any, Any], Web]]:
    """The site with the dashboard over the chat's store and clock, and a client of it."""
    web = Web(chat.store, clock=lambda: chat.at)
    Dashboard(web, Policy(web_url="http://127.0.0.1"), telegram_token=TOKEN,
              telegram_bot="LadderBot", access=access, secure=False, clock=lambda: chat.at)
    async with TestClient(TestServer(web.app)) as client:
        yield client, web


def csrf_of(page: str) -> str:
    """The CSRF token a page's forms carry."""
    found = re.search(r'name="csrf" value="([^"]+)"', page)
    assert found is not None, "the page has no form"
    return found.group(1)
