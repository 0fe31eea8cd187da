"""The end-to-end tests' Discord harness: discord.py's real code against a loopback stand-in."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.support.adapters import DiscordHarness, discord_harness


@pytest.fixture
async def dc(tmp_path: Path) -> AsyncIterator[DiscordHarness]:
    async with discord_harness(tmp_path / "l.db") as harness:
        yield harness
