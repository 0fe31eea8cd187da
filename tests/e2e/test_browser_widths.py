"""The public pages at a phone's width (390 px) and a wide screen's (1400 px) in Chromium:
nothing is cut off behind a scroll bar (a four-player free-for-all of long names in the
history, their standings, their tournaments' table and bracket), and the chart's text is
drawn no smaller than its own size."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.async_api import Page, async_playwright

from bot.web.pages import Web
from storage.sqlite.store import SqliteStore
from tests.support.browser import ARGS, chromium
from tests.support.chat import Chat

LONG = ["Wolfeschlegelsteinhausenberger", "Aleksandrovna_Konstantinopolska",
        "Maximiliane-Donnersmarck-Henckel", "Bartholomew_Featherstonehaugh_X"]
PAGES = ["/ladders/1", "/ladders/1/history", "/ladders/1/players/1", "/ladders/1/tournaments"]

# Every scrolling box on the page, how wide its content is against how wide it shows; and
# the shown chart's scale (its drawn size over its own, in which its text is 10 points).
MEASURE = """() => ({
  page: [document.documentElement.scrollWidth, window.innerWidth],
  boxes: [...document.querySelectorAll('.scroll')].map(b => [b.scrollWidth, b.clientWidth]),
  charts: [...document.querySelectorAll('.chart svg')].filter(s => s.getClientRects().length)
    .map(s => s.getBoundingClientRect().width / s.viewBox.baseVal.width),
})"""


async def _played(store: Any) -> None:
    chat = Chat(store)
    await chat.ladder("openskill", "confirm=false", "public=true")
    await chat.join(*LONG)
    await chat.ok(LONG[0], "/report ffa " + " ".join(f"@{n}" for n in LONG))
    for fmt in ("swiss", "double"):  # a table and a bracket of the long names
        await chat.ok("mod", f"/tournament create {fmt} format={fmt}")
        for name in LONG:
            await chat.ok(name, f"/tournament join {fmt}")
        await chat.ok("mod", f"/tournament start {fmt}")
        await chat.ok(LONG[0], f"/report win @{LONG[2]}")


async def _measured(page: Page, path: str) -> dict[str, Any]:
    response = await page.goto(path)
    assert response is not None and response.status == 200, path
    found: dict[str, Any] = await page.evaluate(MEASURE)
    return found


async def test_pages_fit_a_phone_and_a_wide_screen(tmp_path: Any) -> None:
    executable = chromium()
    if executable is None:
        pytest.fail("Chromium is missing: run `python -m tests.support.browser --install`")
    seen: dict[tuple[int, str], dict[str, Any]] = {}
    async with SqliteStore(tmp_path / "l.db") as store:
        await _played(store)
        site = Web(store)
        address = await site.start("127.0.0.1:0")
        try:
            async with async_playwright() as playwright:
                browser = await playwright.chromium.launch(executable_path=executable,
                                                           args=ARGS)
                for width in (390, 1400):
                    page = await browser.new_page(viewport={"width": width, "height": 900})
                    for path in PAGES:
                        seen[width, path] = await _measured(page, address + path)
                await browser.close()
        finally:
            await site.stop()
    for (width, path), found in seen.items():
        assert found["page"][0] <= found["page"][1], (width, path)  # no sideways page
        for content, shown in found["boxes"]:  # no column behind a scroll bar
            assert content <= shown, (width, path, content, shown)
        if path.endswith("/players/1"):  # one chart shown, its text full size
            assert len(found["charts"]) == 1 and found["charts"][0] >= 1.0, (width, found)
