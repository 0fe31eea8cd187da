"""The web leaderboard in a real headless Chromium (Debian's, driven by Playwright): a
ladder played in the console, then the page shows the standings in order, the player
page shows the chart, a hostile name renders as text, and a private ladder is 404."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

import pytest
from playwright.async_api import Dialog, async_playwright

from bot.web.pages import Web
from core.domain.calendar import parse_instant
from storage.sqlite.store import SqliteStore
from tests.support.browser import ARGS, chromium

ROOT = Path(__file__).resolve().parents[2]
HOSTILE = "<script>alert(1)</script>"
SCRIPT = f"""\
!time 2026-01-05T10:00:00+00:00
@mod: /ladder create main preset=duel confirm=false calibration=0
@mod: /ladder create secret preset=warlight
@alice: /join
@bob: /join
@{HOSTILE}: /join
@alice: /report win @bob
@{HOSTILE}: /report win @bob
@alice: /report win @{HOSTILE}
@mod: /ladder set public=true
@alice: /join ladder=secret
"""


async def test_the_web_leaderboard_in_chromium(tmp_path: Path) -> None:
    executable = chromium()
    if executable is None:
        pytest.fail("Chromium is missing: run `python -m tests.support.browser --install` "
                    "(README's test command does)")
    db = tmp_path / "ladder.db"
    played = await asyncio.to_thread(
        subprocess.run, [sys.executable, "-m", "bot.cli", "console", "--db", str(db),
                         "--admin", "mod"], input=SCRIPT, text=True, capture_output=True,
        cwd=ROOT, timeout=120)
    assert played.returncode == 0, played.stderr
    async with SqliteStore(db) as store:
        site = Web(store, clock=lambda: parse_instant("2026-01-05T12:00:00+00:00"))
        address = await site.start("127.0.0.1:0")
        try:
            async with async_playwright() as playwright:
                browser = await playwright.chromium.launch(executable_path=executable,
                                                           args=ARGS)
                page = await browser.new_page(viewport={"width": 412, "height": 915})
                dialogs: list[str] = []

                async def refuse(dialog: Dialog) -> None:
                    dialogs.append(dialog.message)
                    await dialog.dismiss()

                page.on("dialog", refuse)
                response = await page.goto(f"{address}/ladders/1")
                assert response is not None and response.status == 200
                names = await page.locator("#standings td.player a").all_inner_texts()
                assert names == ["alice", HOSTILE, "bob"]  # 1031, 985, 984
                await page.get_by_role("link", name=HOSTILE).click()
                assert await page.locator("#player-name").inner_text() == HOSTILE
                assert await page.locator("#chart .narrow svg").is_visible()  # a phone's
                assert dialogs == []  # the name was text, not a script
                missing = await page.goto(f"{address}/ladders/2")
                assert missing is not None and missing.status == 404
                api = await page.goto(f"{address}/api/ladders/2")
                assert api is not None and api.status == 404
                await browser.close()
        finally:
            await site.stop()
