"""The end-to-end tests' harnesses: discord.py's and python-telegram-bot's real code against
loopback stand-ins of their servers."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.support.adapters import (
    DiscordHarness,
    TelegramHarness,
    discord_harness,
    telegram_harness,
)
from tests.support.telegram_play import MOD


@pytest.fixture
async def dc(tmp_path: Path) -> AsyncIterator[DiscordHarness]:
    async with discord_harness(tmp_path / "l.db") as harness:
        yield harness


@pytest.fixture
async def tg(tmp_path: Path) -> AsyncIterator[TelegramHarness]:
    """A group whose one administrator is the moderator `MOD`."""
    async with telegram_harness(tmp_path / "l.db", [MOD]) as harness:
        yield harness
