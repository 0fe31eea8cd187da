"""The web pages and JSON API, through aiohttp's test client: public only, escaped,
read-only."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.web import Web
from storage.sqlite import SqliteStore
from tests.chat import Chat

HOSTILE = "<script>alert(1)</script>"


@pytest.fixture
async def site(tmp_path: Path) -> AsyncIterator[tuple[TestClient[Any, Any], Chat]]:
    async with SqliteStore(tmp_path / "l.db") as store:
        chat = Chat(store)
        await chat.ladder("duel", "confirm=false", "calibration=0", "public=true")
        await chat.join("alice", "bob", HOSTILE)
        await chat.ok("alice", "/report win @bob")
        await chat.ok(HOSTILE, "/report win @bob")
        await chat.ok("alice", f"/report win @{HOSTILE}")
        await chat.ok("mod", "/mod void 2 <b>not</b> played")
        await chat.ladder("warlight", name="secret")  # not public
        await chat.ok("alice", "/join ladder=secret")
        async with TestClient(TestServer(Web(store, clock=lambda: chat.at).app)) as client:
            yield client, chat


async def test_index_lists_public_ladders_only(site: Any) -> None:
    client, _ = site
    page = await (await client.get("/")).text()
    assert "/ladders/1" in page and "secret" not in page
    data = await (await client.get("/api/ladders")).json()
    assert [lad["name"] for lad in data["ladders"]] == ["main"]


async def test_standings_in_order_with_escaped_names(site: Any) -> None:
    client, _ = site
    response = await client.get("/ladders/1")
    page = await response.text()
    assert response.status == 200
    assert HOSTILE not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert page.index(">alice<") < page.index("&lt;script&gt;") < page.index(">bob<")
    data = await (await client.get("/api/ladders/1")).json()
    assert [r["name"] for r in data["rows"]] == ["alice", HOSTILE, "bob"]
    assert [r["rating"] for r in data["rows"]] == [1031, 985, 984]


async def test_tabs_and_hall_of_fame(site: Any) -> None:
    client, chat = site
    season = await client.get("/ladders/1?table=season")
    assert season.status == 200 and "Season" in await season.text()
    await chat.time("2026-02-01T00:00:00+00:00")
    hall = await (await client.get("/api/ladders/1/hall")).json()
    assert hall["seasons"] == []  # nobody had 3 rated games in January


async def test_player_page_has_chart_history_and_corrections(site: Any) -> None:
    client, _ = site
    page = await (await client.get("/ladders/1/players/1")).text()
    assert "<svg" in page and 'id="chart"' in page
    assert "void #2" not in page  # alice did not play match #2
    bob = await (await client.get("/ladders/1/players/2")).text()
    assert "mod</strong> void #2" in bob and "&lt;b&gt;not&lt;/b&gt; played" in bob
    data = await (await client.get("/api/ladders/1/players/1")).json()
    assert data["player"]["name"] == "alice" and data["player"]["rating"] == 1031
    assert len(data["chart"]["matches"]) == 2
    hostile = await (await client.get("/ladders/1/players/3")).text()
    assert HOSTILE not in hostile


async def test_history_shows_who_corrected_what_and_why(site: Any) -> None:
    client, _ = site
    data = await (await client.get("/api/ladders/1/history")).json()
    assert data["corrections"][0] | {"at": None} == {
        "at": None, "by": "mod", "action": "void", "reason": "<b>not</b> played", "match": 2,
        "player": None, "detail": f"{HOSTILE} beat bob"}
    assert [m["status"] for m in data["matches"]] == ["confirmed", "voided", "confirmed"]


@pytest.mark.parametrize("path", ["/ladders/2", "/ladders/2/players/1", "/ladders/2/history",
                                  "/ladders/2/hall", "/ladders/99", "/ladders/1/players/99"])
async def test_private_or_missing_is_404_on_pages(site: Any, path: str) -> None:
    client, _ = site
    response = await client.get(path)
    assert response.status == 404 and "Not found" in await response.text()


@pytest.mark.parametrize("path", ["/api/ladders/2", "/api/ladders/2/players/1",
                                  "/api/ladders/2/history", "/api/ladders/99/hall"])
async def test_private_or_missing_is_404_on_the_api(site: Any, path: str) -> None:
    client, _ = site
    response = await client.get(path)
    assert response.status == 404 and await response.json() == {"error": "not found"}


async def test_the_server_only_reads(site: Any) -> None:
    client, chat = site
    before = await chat.export()
    for method in ("post", "put", "delete"):
        assert (await getattr(client, method)("/ladders/1")).status == 405
    for path in ("/", "/ladders/1", "/ladders/1/players/1", "/api/ladders/1/history"):
        await client.get(path)
    assert await chat.export() == before


async def test_making_a_ladder_public_replies_with_its_link(tmp_path: Path) -> None:
    from core.settings import Policy

    async with SqliteStore(tmp_path / "l.db") as store:
        chat = Chat(store, policy=Policy(web_url="http://ladders.example.org"))
        await chat.ladder("duel")
        text = await chat.ok("mod", "/ladder set public=true")
        assert text == "main: public=true (was false). Its public page: " \
                       "http://ladders.example.org/ladders/1"


async def test_unrated_match_says_why_once(site: Any) -> None:
    client, chat = site
    await chat.ok("bob", "/report win @alice unrated")  # match #4
    page = await (await client.get("/ladders/1/history")).text()
    row = page[page.index('<td class="num">4</td>'):]
    row = row[:row.index("</tr>")]
    assert "confirmed <span class=\"mute\">(reported as unrated)</span>" in row, row
    assert "unrated (" not in row and ", unrated" not in row
    data = await (await client.get("/api/ladders/1/history")).json()
    four = next(m for m in data["matches"] if m["id"] == 4)
    assert four["rated"] is False and four["unrated"] == "reported as unrated"
