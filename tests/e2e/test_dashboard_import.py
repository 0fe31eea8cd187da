"""The moderator page's import (issues 54 and 55): a match CSV sent from the page gets the
chat's dry run and a Confirm import button that only its sender's press spends; the
import is the chat's, told to the chat; a file over the chat's limit is refused in the
chat's words, a form without its token or from a non-moderator refused."""

from __future__ import annotations

import html
import io
import re
from pathlib import Path
from typing import Any

import pytest
from aiohttp import FormData
from aiohttp.test_utils import TestClient
from playwright.async_api import async_playwright

from core.service.chat_import import CHAT_FILE
from storage.sqlite.store import SqliteStore
from tests.support.browser import ARGS, chromium
from tests.support.chat import Chat
from tests.support.dashboard import (
    GROUP,
    HOSTILE,
    browser_login,
    csrf_of,
    dashboard,
    login,
    moderated_by,
)

FILE = ("played_at,players,result\n"
        f"2026-01-01T10:00:00+00:00,{HOSTILE} vs alice,1\n"
        f"2026-01-02T10:00:00+00:00,alice vs {HOSTILE},draw\n").encode()
ACCESS = moderated_by("telegram:1", "telegram:2")


def _form(csrf: str, action: str, data: bytes | None = None, number: str = "") -> FormData:
    form = FormData()
    form.add_field("csrf", csrf)
    form.add_field("action", action)
    if number:
        form.add_field("number", number)
    if data is not None:
        form.add_field("file", io.BytesIO(data), filename="old.csv", content_type="text/csv")
    return form


async def _csrf(client: TestClient[Any, Any]) -> str:
    return csrf_of(await (await client.get("/me")).text())


async def test_a_file_is_dry_run_then_imported_from_the_page(tmp_path: Path) -> None:
    async with SqliteStore(tmp_path / "l.db") as store:
        chat = Chat(store, chat=GROUP)
        await chat.ladder("duel")  # (made, never joined: it takes an older history)
        url = "/ladders/1/manage/import"
        async with dashboard(chat, ACCESS) as (client, _):
            await login(client, chat.at, uid="1", name="mod")
            page = await (await client.get("/ladders/1/manage")).text()
            assert f'action="{url}"' in page and 'type="file"' in page
            csrf = await _csrf(client)
            assert (await client.post(url, data=_form("x", "check", FILE))).status == 403
            assert (await client.post(url, data={"csrf": csrf})).status == 400
            shown = await client.post(url, data=_form(csrf, "check", FILE))
            said = await shown.text()
            assert shown.status == 200, said
            assert shown.headers["Cache-Control"] == "no-store"  # (it holds the token)
            assert "form-action 'self'" in shown.headers["Content-Security-Policy"]
            assert "A dry run, nothing changed yet: this would import 2 matches" in said
            assert html.escape(HOSTILE, quote=False) in said and HOSTILE not in said
            number = re.search(r'name="number" value="([0-9]+)"', said)
            assert number is not None
            assert (await chat.export())["players"] == []  # (nothing changed)
            # Another moderator's press is refused and spends nothing.
            await login(client, chat.at, uid="2", name="other")
            other = await client.post(url, data=_form(await _csrf(client), "confirm",
                                                      number=number.group(1)))
            assert other.status == 400
            assert "Only the moderator who sent the file" in await other.text()
            await login(client, chat.at, uid="1", name="mod")
            csrf = await _csrf(client)
            done = await client.post(url, data=_form(csrf, "confirm", number=number.group(1)))
            assert done.status == 200, await done.text()
            assert "Imported 2 matches" in await done.text()
            again = await client.post(url, data=_form(csrf, "confirm", number=number.group(1)))
            assert again.status == 400 and "no longer kept" in await again.text()
            big = await client.post(url, data=_form(csrf, "check", FILE + b"x" * CHAT_FILE))
            assert big.status == 400
            assert "larger than a chat import takes" in await big.text()
            await login(client, chat.at, uid="42", name="alice")
            assert (await client.post(url, data=_form(await _csrf(client), "check", FILE))
                    ).status == 404
        exported = await chat.export()
        assert [m["status"] for m in exported["matches"]] == ["confirmed", "confirmed"]
        told = await store.run(lambda repo: [a.text for _, _, a in repo.outbox_due(
            chat.at + 1)], commit=False)
        assert len(told) == 1 and told[0].startswith("Imported 2 matches")


async def test_an_import_from_the_page_in_chromium(tmp_path: Path) -> None:
    """The file chosen in Chromium, its dry run read, Confirm import pressed (390 px)."""
    executable = chromium()
    if executable is None:
        pytest.fail("Chromium is missing: run `python -m tests.support.browser --install`")
    (tmp_path / "old.csv").write_bytes(FILE)
    async with SqliteStore(tmp_path / "l.db") as store:
        chat = Chat(store, chat=GROUP)
        await chat.ladder("duel")
        async with dashboard(chat, ACCESS) as (_, web):
            address = await web.start("127.0.0.1:0")
            try:
                async with async_playwright() as playwright:
                    browser = await playwright.chromium.launch(executable_path=executable,
                                                               args=ARGS)
                    page = await browser.new_page(viewport={"width": 390, "height": 800})
                    dialogs: list[str] = []
                    page.on("dialog", lambda d: dialogs.append(d.message))
                    await browser_login(page, address, chat.at, "1", "mod")
                    await page.goto(f"{address}/ladders/1/manage")
                    await page.set_input_files("#import input[type=file]", tmp_path / "old.csv")
                    await page.click("#import button")
                    assert "A dry run" in await page.locator("p.said").inner_text()
                    await page.screenshot(path=str(tmp_path / "dry-run-390.png"), full_page=True)
                    await page.click("#confirm-import button")
                    assert "Imported 2 matches" in await page.locator("p.said").inner_text()
                    assert dialogs == []
                    await browser.close()
            finally:
                await web.stop()
        assert len((await chat.export())["matches"]) == 2
