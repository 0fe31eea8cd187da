"""The web pages and JSON API, through aiohttp's test client: public only, escaped,
read-only."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from storage.sqlite.store import SqliteStore
from tests.support.chat import Chat
from tests.support.web_site import HOSTILE


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


async def test_tournaments_page_escapes_names_and_the_api_gives_the_export(site: Any
                                                                          ) -> None:
    client, chat = site
    assert "No tournaments yet." in await (await client.get("/ladders/1/tournaments")).text()
    await chat.ok("mod", "/tournament create cup format=single")
    for name in ("alice", "bob", HOSTILE):
        await chat.ok(name, "/tournament join")
    await chat.ok("mod", "/tournament start")
    page = await (await client.get("/ladders/1/tournaments")).text()
    assert HOSTILE not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "single elimination" in page and "running" in page
    [cup] = (await (await client.get("/api/ladders/1/tournaments")).json())["tournaments"]
    # seeded by rating (985 and 984 above): seeds 2 and 3 meet, alice has the bye
    assert cup["bracket"][0][1]["players"] == [HOSTILE, "bob"] and cup["winner"] is None
    await chat.ok(HOSTILE, "/report win @bob")
    await chat.ok(HOSTILE, "/report loss @alice again")
    page = await (await client.get("/ladders/1/tournaments")).text()
    assert 'Winner: <b class="player">alice</b>' in page
    [cup] = (await (await client.get("/api/ladders/1/tournaments")).json())["tournaments"]
    assert cup["winner"] == "alice" and cup["status"] == "finished"


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
    assert "voided #2" not in page  # alice did not play match #2
    bob = await (await client.get("/ladders/1/players/2")).text()
    assert "mod voided #2: &lt;b&gt;not&lt;/b&gt; played" in bob
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
        "player": None, "detail": f"{HOSTILE} beat bob",
        "said": "Jan 5, 2026 10:00 mod voided #2: <b>not</b> played"}
    assert [m["status"] for m in data["matches"]] == ["confirmed", "voided", "confirmed"]


@pytest.mark.parametrize("path", ["/ladders/2", "/ladders/2/players/1", "/ladders/2/history",
                                  "/ladders/2/hall", "/ladders/99", "/ladders/1/players/99",
                                  "/ladders/2/tournaments"])
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
    from core.domain.settings import Policy

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
    assert "confirmed <span class=\"mute\">(marked unrated)</span>" in row, row
    assert "unrated (" not in row and ", unrated" not in row
    data = await (await client.get("/api/ladders/1/history")).json()
    four = next(m for m in data["matches"] if m["id"] == 4)
    assert four["rated"] is False and four["unrated"] == "marked unrated"


@pytest.mark.parametrize("path", [
    "/ladders/01", "/ladders/%31", "/ladders/\u0661", "/ladders/1/players/%31",
    f"/ladders/1/players/{2**63}", f"/ladders/{10**30}", "/ladders/1/players/\u00b9"])
async def test_an_id_is_written_one_way_only(site: Any, path: str) -> None:
    # Each of these answered 200 (a leading zero, a percent-encoded or Arabic-Indic digit)
    # or 500 with a logged traceback (an id past 2**63).
    from yarl import URL

    client, _ = site
    for prefix in ("", "/api"):
        # As written; a browser sends other scripts' digits percent-encoded, as yarl does.
        response = await client.get(URL(prefix + path, encoded="%" in path))
        assert response.status == 404, prefix + path


async def test_an_api_failure_is_answered_in_json(site: Any,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    import bot.web.pages

    def broken(*args: Any) -> Any:
        raise RuntimeError("a bug")

    monkeypatch.setattr(bot.web.pages, "hall_view", broken)
    client, _ = site
    response = await client.get("/api/ladders/1/hall")
    assert response.status == 500 and await response.json() == {"error": "internal error"}
    page = await client.get("/ladders/1/hall")
    assert page.status == 500 and await page.text() == "Sorry, something went wrong."


async def test_a_ladders_pages_speak_its_language(site: Any) -> None:
    client, chat = site
    await chat.ok("mod", "/ladder set language=ru")
    page = await (await client.get("/ladders/1/history")).text()
    assert '<html lang="ru">' in page
    assert "<h2>Последние матчи</h2>" in page and "5 янв. 2026\u202fг. 10:00" in page
    assert "</span> — <a" in page  # the result's own words, links kept
    assert "#2 — аннулирование, модератор mod: &lt;b&gt;not&lt;/b&gt; played" in page
    assert "Recent matches" not in page and "Jan 5" not in page
    player = await (await client.get("/ladders/1/players/1")).text()
    assert "2 игры (рейтинговых: 2): побед 2, поражений 0, ничьих 0" in player
    data = await (await client.get("/api/ladders/1")).json()
    assert [table["title"] for table in data["tables"]] == ["Ладдер", "Сезон", "Неделя",
                                                            "Все игроки"]


@pytest.mark.parametrize("header, lang, words", [
    ("nl-NL,nl;q=0.9,en;q=0.8", "nl", "Openbare ladders"),
    ("de-DE, ru;q=0.5, en;q=0.4", "ru", "Открытые ладдеры"),
    ("ru;q=0, nl;q=0.2", "nl", "Openbare ladders"),  # q=0: not at all
    ("de, fr;q=x", "en", "Public ladders"),  # none of ours, and a malformed weight
    ("", "en", "Public ladders")])
async def test_pages_without_a_ladder_follow_accept_language(site: Any, header: str, lang: str,
                                                             words: str) -> None:
    client, _ = site
    page = await (await client.get("/", headers={"Accept-Language": header})).text()
    assert f'<html lang="{lang}">' in page and f"<h1>{words}</h1>" in page
    missing = await client.get("/ladders/99", headers={"Accept-Language": header})
    assert missing.status == 404 and f'<html lang="{lang}">' in await missing.text()




async def test_a_glicko2_table_shows_the_rating_and_twice_the_rd(tmp_path: Path) -> None:
    """RULES.md §6: `1464 ±303` on the page as in chat, and `rd` in the API."""
    from aiohttp.test_utils import TestClient, TestServer

    from bot.web.pages import Web

    async with SqliteStore(tmp_path / "l.db") as store:
        chat = Chat(store)
        await chat.ladder("glicko2", "confirm=false", "public=true")
        await chat.join("ann", "ben")
        await chat.ok("ann", "/report win @ben")
        profile = await chat.text("ann", "/profile")
        async with TestClient(TestServer(Web(store, clock=lambda: chat.at).app)) as client:
            page = await (await client.get("/ladders/1")).text()
            api = await (await client.get("/api/ladders/1")).json()
    shown = profile.split("rating ")[1].replace(",", " ").split()[:2]  # e.g. ['1662', '±581']
    assert f"{shown[0]} {shown[1]}" in page
    assert round(2 * api["rows"][0]["rd"]) == int(shown[1].lstrip("±"))
