"""The end-to-end tests' harnesses: discord.py's and python-telegram-bot's real code against
loopback stand-ins of their servers; and the public site through aiohttp's test client."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.web.pages import Web
from storage.sqlite.store import SqliteStore
from tests.support.adapters import (
    DiscordHarness,
    TelegramHarness,
    discord_harness,
    telegram_harness,
)
from tests.support.chat import Chat
from tests.support.telegram_play import MOD
from tests.support.web_site import sample_ladders


@pytest.fixture
async def dc(tmp_path: Path) -> AsyncIterator[DiscordHarness]:
    async with discord_harness(tmp_path / "l.db") as harness:
        yield harness


@pytest.fixture
async def tg(tmp_path: Path) -> AsyncIterator[TelegramHarness]:
    """A group whose one administrator is the moderator `MOD`."""
    async with telegram_harness(tmp_path / "l.db", [MOD]) as harness:
        yield harness


@pytest.fixture
async def site(tmp_path: Path) -> AsyncIterator[tuple[TestClient[Any, Any], Chat]]:
    """The sample ladders (tests/support/web_site.py) served, with the chat that plays them."""
    async with SqliteStore(tmp_path / "l.db") as store:
        chat = Chat(store)
        await sample_ladders(chat)
        async with TestClient(TestServer(Web(store, clock=lambda: chat.at).app)) as client:
            yield client, chat
