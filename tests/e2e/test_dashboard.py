"""The dashboard's first part (issue 55): a player logs in with Telegram's Login Widget
and answers the report waiting for them from their page, through the same core command
a chat line runs; and each thing it refuses (a bad or old login, a form without its
token, a forged ladder, a session replayed after logging out, an expired one, a
tampered cookie), with names that would be markup shown as typed."""

from __future__ import annotations

import html
import re
from collections.abc import AsyncIterator
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer
from playwright.async_api import Dialog, async_playwright

from bot.web.dashboard import BEGUN, COOKIE, LOGINS, Dashboard
from bot.web.discord_login import DiscordOAuth
from bot.web.login import telegram_user
from bot.web.pages import Web
from core.domain.records import UserRef
from core.domain.settings import Policy
from storage.sqlite.store import SqliteStore
from tests.support.browser import ARGS, chromium
from tests.support.chat import Chat
from tests.support.dashboard import HOSTILE, TOKEN, browser_login, login, signed
from tests.support.discord_oauth import CLIENT_ID, CLIENT_SECRET, FakeDiscordOAuth

DAY = 86_400


def test_a_widget_login_is_checked_as_telegram_says() -> None:
    now = 1_767_607_200
    fields = signed({"id": "42", "first_name": "Al", "username": "al",
                     "auth_date": str(now - 60)})
    assert telegram_user(fields, TOKEN, now) == UserRef("telegram:42", "al")
    assert telegram_user(fields, "other:token", now) is None  # another bot's
    assert telegram_user({**fields, "username": "bo"}, TOKEN, now) is None  # altered
    assert telegram_user({**fields, "extra": "1"}, TOKEN, now) is None  # not a widget's
    old = signed({"id": "42", "auth_date": str(now - DAY - 1)})
    assert telegram_user(old, TOKEN, now) is None
    assert telegram_user(signed({"id": "42", "auth_date": str(now - DAY)}), TOKEN, now)
    ahead = signed({"id": "42", "auth_date": str(now + 3600)})
    assert telegram_user(ahead, TOKEN, now) is None


class Clock:
    def __init__(self, at: int) -> None:
        self.at = at

    def __call__(self) -> float:
        return self.at


@pytest.fixture
async def site(tmp_path: Path) -> AsyncIterator[tuple[TestClient[Any, Any], Chat, Clock]]:
    """A ladder where the hostile name reported a win over alice (Telegram 42), who has
    to answer; the site with the dashboard, on the chat's clock."""
    async with SqliteStore(tmp_path / "l.db") as store:
        chat = Chat(store, chat="telegram:-100")
        chat.resolve = lambda name: UserRef(  # type: ignore[method-assign]
            "telegram:42" if name == "alice" else f"telegram:{abs(hash(name)) % 10**6}", name)
        await chat.ladder("duel")
        await chat.join("alice", HOSTILE)
        await chat.ok(HOSTILE, "/report win @alice")
        clock = Clock(chat.at)
        web = Web(store, clock=clock)
        Dashboard(web, Policy(web_url="https://ladders.example"), telegram_token=TOKEN,
                  telegram_bot="LadderBot", secure=True, clock=clock)
        async with TestClient(TestServer(web.app)) as client:
            yield client, chat, clock



async def test_a_player_logs_in_and_confirms_their_report(site: Any) -> None:
    client, chat, clock = site
    begun = await client.get("/login")
    assert 'data-telegram-login="LadderBot"' in await begun.text()
    assert "script-src https://telegram.org" in begun.headers["Content-Security-Policy"]
    done = await login(client, clock.at)
    assert done.status == 303 and done.headers["Location"] == "/me"
    cookie = done.cookies[COOKIE]
    assert cookie["httponly"] and cookie["secure"] and cookie["samesite"] == "Lax"
    page = await client.get("/me")
    html = await page.text()
    assert page.headers["Cache-Control"] == "no-store"
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html and HOSTILE not in html, html
    csrf = re.search(r'name="csrf" value="([^"]+)"', html)
    assert csrf is not None
    answered = await client.post("/me/answer", data={
        "csrf": csrf.group(1), "ladder": "1", "match": "1", "answer": "confirm"})
    assert answered.status == 200, await answered.text()
    assert "Match #1" in await answered.text()
    assert (await chat.export())["matches"][0]["status"] == "confirmed"
    # The chat is told, as it is of a confirmation said there.
    told = await chat.store.run(lambda repo: repo.outbox_due(clock.at + 1), commit=False)
    assert [a.chat for _, _, a in told] == ["telegram:-100"]
    assert "No report waits for your word." in await (await client.get("/me")).text()


async def test_what_the_dashboard_refuses(site: Any) -> None:
    client, chat, clock = site
    assert (await login(client, clock.at - DAY - 1)).status == 403  # old
    bad = signed({"id": "42", "auth_date": str(clock.at)}, "another:token")
    assert (await client.get("/login/telegram", params=bad)).status == 403
    # A good login that did not begin on the login page (a link from another site, to
    # sign the visitor into someone else's account): refused.
    client.session.cookie_jar.clear()
    good = signed({"id": "42", "username": "alice", "auth_date": str(clock.at)})
    assert (await client.get("/login/telegram", params=good)).status == 403
    begun = (await client.get("/login")).cookies[BEGUN]  # (the page marks it begun)
    assert begun["httponly"] and begun["path"] == "/login/telegram"
    client.session.cookie_jar.update_cookies({BEGUN: begun.value})  # (Secure: over http,
    # the test's client would not send it back by itself)
    assert (await client.get("/login/telegram", params=good,
                             allow_redirects=False)).status == 303
    assert (await client.get("/me", allow_redirects=False)).headers["Location"] == "/login"
    await login(client, clock.at)
    html = await (await client.get("/me")).text()
    token = re.search(r'name="csrf" value="([^"]+)"', html)
    assert token is not None
    form = {"ladder": "1", "match": "1", "answer": "confirm"}
    assert (await client.post("/me/answer", data=form)).status == 403  # no token
    assert (await client.post("/me/answer", data={**form, "csrf": "x" * 43})).status == 403
    forged = {**form, "csrf": token.group(1), "ladder": "2"}  # not a ladder of theirs
    assert (await client.post("/me/answer", data=forged)).status == 404
    assert (await chat.export())["matches"][0]["status"] == "pending"
    # Logged out: the same cookie sent again signs in nobody.
    value = (await login(client, clock.at)).cookies[COOKIE].value
    token = re.search(r'name="csrf" value="([^"]+)"', await (await client.get("/me")).text())
    assert token is not None
    assert (await client.post("/logout", data={"csrf": token.group(1)},
                              allow_redirects=False)).status == 303
    client.session.cookie_jar.update_cookies({COOKIE: value})
    assert (await client.get("/me", allow_redirects=False)).status == 303
    # A tampered cookie, and a session past its seven days.
    fresh = (await login(client, clock.at)).cookies[COOKIE].value
    assert (await client.get("/me", allow_redirects=False)).status == 200
    client.session.cookie_jar.update_cookies({COOKIE: fresh[:-1] + ("B" if fresh[-1] == "A"
                                                                    else "A")})
    assert (await client.get("/me", allow_redirects=False)).status == 303
    await login(client, clock.at)
    clock.at += 7 * DAY + 1
    assert (await client.get("/me", allow_redirects=False)).status == 303
    # Logins are limited per address.
    for _ in range(LOGINS):
        await login(client, clock.at, uid="7")
    assert (await login(client, clock.at, uid="7")).status == 429


def _note(seen: list[str], dialog: Dialog) -> None:
    """A dialog the page opened, noted (and left for Playwright to dismiss)."""
    seen.append(dialog.message)


async def test_a_player_confirms_from_the_page_in_chromium(tmp_path: Path) -> None:
    """The same, in Chromium as a player's phone shows it (390 px) and a wide screen
    (1400 px): the screenshots are kept in the test's folder to be looked at."""
    executable = chromium()
    if executable is None:
        pytest.fail("Chromium is missing: run `python -m tests.support.browser --install`")
    async with SqliteStore(tmp_path / "l.db") as store:
        chat = Chat(store, chat="telegram:-100")
        chat.resolve = lambda name: UserRef(  # type: ignore[method-assign]
            "telegram:42" if name == "alice" else "telegram:9", name)
        await chat.ladder("duel")
        await chat.join("alice", HOSTILE)
        await chat.ok(HOSTILE, "/report win @alice")
        web = Web(store, clock=lambda: chat.at)
        Dashboard(web, Policy(web_url="http://127.0.0.1"), telegram_token=TOKEN,
                  telegram_bot="LadderBot", secure=False, clock=lambda: chat.at)
        address = await web.start("127.0.0.1:0")
        try:
            async with async_playwright() as playwright:
                browser = await playwright.chromium.launch(executable_path=executable,
                                                           args=ARGS)
                for width in (1400, 390):  # (the phone's last: it confirms)
                    page = await browser.new_page(viewport={"width": width, "height": 800})
                    dialogs: list[str] = []
                    page.on("dialog", partial(_note, dialogs))
                    await browser_login(page, address, chat.at, "42", "alice")
                    assert page.url.endswith("/me")
                    await page.screenshot(path=str(tmp_path / f"me-{width}.png"), full_page=True)
                    fits = await page.evaluate("document.body.scrollWidth <= window.innerWidth")
                    assert fits, f"the page is wider than {width} px"
                    assert HOSTILE in await page.locator("li.waiting").inner_text()
                    if width == 390:
                        await page.get_by_role("button", name="Confirm").click()
                        assert "Match #1" in await page.locator("main").inner_text()
                    assert dialogs == []  # the name was text, not a script
                    await page.close()
                await browser.close()
        finally:
            await web.stop()
        assert (await chat.export())["matches"][0]["status"] == "confirmed"


async def test_a_discord_login_checks_its_state(tmp_path: Path) -> None:
    """The authorization code flow against the stand-in: the visitor comes back with the
    state their browser was given and signs in as their Discord account (its name as
    typed); another state, none, or a code used twice signs in nobody."""
    oauth = FakeDiscordOAuth({"id": "1300000000000000042", "username": "dee",
                              "global_name": HOSTILE, "discriminator": "0"})
    async with SqliteStore(tmp_path / "l.db") as store, \
            TestClient(TestServer(oauth.app())) as discord:
        web = Web(store, clock=lambda: 1_767_607_200)
        dashboard = Dashboard(web, Policy(web_url="http://127.0.0.1"), secure=False,
                              clock=lambda: 1_767_607_200)
        async with TestClient(TestServer(web.app)) as client:
            oauth.redirect = str(client.make_url("/login/discord/back"))
            dashboard.discord = DiscordOAuth(CLIENT_ID, CLIENT_SECRET, oauth.redirect,
                                             str(discord.make_url("")).rstrip("/"))
            assert "/login/discord" in await (await client.get("/login")).text()
            away = await client.get("/login/discord", allow_redirects=False)
            assert away.status == 303 and "state=" in away.headers["Location"]
            back = await client.session.get(away.headers["Location"], allow_redirects=False)
            returned = back.headers["Location"]
            # Another state than the browser's: refused, and the code not spent.
            forged = re.sub(r"state=[^&]+", "state=forged", returned)
            assert (await client.session.get(forged)).status == 403
            me = await client.session.get(returned)
            assert me.status == 200 and str(me.url).endswith("/me")
            html = await me.text()
            assert "&lt;script&gt;" in html and HOSTILE not in html
            # The same code again (a replayed return): Discord refuses it, nobody signs in.
            client.session.cookie_jar.clear()
            assert (await client.session.get(returned)).status == 403
        assert oauth.refused == []  # (the replay was refused by the state cookie first)


async def _players_forms(client: TestClient[Any, Any], chat: Chat, csrf: str) -> None:
    """The players' forms: a rating adjusted (and refused three ways), a result set, a
    player banned; the page's corrections name each."""
    who = {"csrf": csrf, "player": "2", "text": "a bonus"}
    adjusted = await client.post("/ladders/1/manage",
                                 data={**who, "action": "adjust", "amount": "+10"})
    assert adjusted.status == 200, await adjusted.text()
    for bad in ({"amount": "ten"}, {"player": "99"}, {"text": ""}):
        assert (await client.post("/ladders/1/manage", data={
            **who, "action": "adjust", "amount": "+1", **bad})).status == 400
    await chat.ok("alice", "/report win @mod")
    await chat.ok("mod", "/confirm")
    result = {"csrf": csrf, "action": "set", "match": "2", "result": "1", "text": "mod won"}
    assert (await client.post("/ladders/1/manage", data=result)).status == 200
    banned = await client.post("/ladders/1/manage", data={
        **who, "player": "3", "action": "ban", "text": "spam"})
    assert banned.status == 200, await banned.text()
    page = await (await client.get("/ladders/1/manage")).text()
    assert "mod (web) banned" in page and "mod (web) adjusted" in page


async def _nothing_for_a_player(client: TestClient[Any, Any], chat: Chat,
                                form: dict[str, str]) -> None:
    """Alice moderates nothing: no page, no action, however she asks (a form of the
    moderator's with her own token)."""
    await login(client, chat.at, uid="42")
    alice = re.search(r'name="csrf" value="([^"]+)"', await (await client.get("/me")).text())
    assert alice is not None
    assert (await client.get("/ladders/1/manage")).status == 404
    forged = {**form, "csrf": alice.group(1), "text": "k=16"}
    assert (await client.post("/ladders/1/manage", data=forged)).status == 404


async def test_a_moderator_changes_a_setting_and_voids_a_report_on_the_web(
        tmp_path: Path) -> None:
    """Asked of the platform before the page and each action: the moderator (Telegram 1)
    changes k, is refused an out-of-range value in the chat's words, and voids the
    report; the chat is told each, the audit marks them "(web)", the export re-derives.
    Anyone else finds no such page, by a forged form too."""
    async def access(chat: str, user: str) -> tuple[bool, frozenset[str]] | None:
        asked.append((chat, user))
        return (user == "telegram:1", frozenset()) if chat == "telegram:-100" else None

    asked: list[tuple[str, str]] = []
    async with SqliteStore(tmp_path / "l.db") as store:
        chat = Chat(store, chat="telegram:-100")
        keys = {"mod": "telegram:1", "alice": "telegram:42"}
        chat.resolve = lambda name: UserRef(  # type: ignore[method-assign]
            keys.get(name, "telegram:9"), name)
        await chat.ladder("duel")
        await chat.join("mod", "alice", HOSTILE)
        await chat.ok(HOSTILE, "/report win @alice")
        refusal = await chat.refused("mod", "/ladder set k=100000")
        web = Web(store, clock=lambda: chat.at)
        Dashboard(web, Policy(web_url="http://127.0.0.1"), telegram_token=TOKEN,
                  telegram_bot="LadderBot", access=access, secure=False,
                  clock=lambda: chat.at)
        async with TestClient(TestServer(web.app)) as client:
            await login(client, chat.at, uid="1", name="mod")
            assert 'href="/ladders/1/manage"' in await (await client.get("/me")).text()
            page = await (await client.get("/ladders/1/manage")).text()
            assert "&lt;script&gt;" in page and HOSTILE not in page
            csrf = re.search(r'name="csrf" value="([^"]+)"', page)
            assert csrf is not None
            form = {"csrf": csrf.group(1), "action": "settings"}
            said = await client.post("/ladders/1/manage", data={**form, "text": "k=24"})
            assert said.status == 200 and "k=24" in await said.text()
            said = await client.post("/ladders/1/manage", data={**form, "text": "k=100000"})
            assert said.status == 400
            assert html.escape(refusal, quote=False) in await said.text()
            void = {"csrf": csrf.group(1), "action": "void", "match": "1",
                    "text": "a <b>mistake</b>"}
            assert (await client.post("/ladders/1/manage", data=void)).status == 200
            page = await (await client.get("/ladders/1/manage")).text()
            assert "mod (web) voided #1: a &lt;b&gt;mistake&lt;/b&gt;" in page
            assert (await client.post("/ladders/1/manage",
                                      data={**void, "csrf": "x"})).status == 403
            await _players_forms(client, chat, csrf.group(1))
            await _nothing_for_a_player(client, chat, form)
        told = await store.run(lambda repo: [a.text for _, _, a in repo.outbox_due(
            chat.at + 1)], commit=False)
        assert len(told) == 5 and "k=24" in told[0] and "#1" in told[1]
        exported = await chat.export()
        assert [m["status"] for m in exported["matches"]] == ["voided", "confirmed"]
        assert exported["matches"][1]["players"][0] == "mod"  # (the result set: mod won)
        ratings = {p["name"]: p["rating"] for p in exported["players"]}
        assert HOSTILE not in ratings  # (banned)
        assert ratings["alice"] < 1010 < ratings["mod"]  # +10, then lost to mod at K 24
    assert ("telegram:-100", "telegram:42") in asked  # (asked again, never remembered)


async def test_a_moderator_on_discord_in_chromium(tmp_path: Path) -> None:
    """Logged in with Discord (the loopback stand-in of its OAuth2), a moderator changes a
    setting, is refused an out-of-range one, and voids a report, in Chromium; the
    moderator page at 390 and 1400 px (screenshots kept in the test's folder)."""
    executable = chromium()
    if executable is None:
        pytest.fail("Chromium is missing: run `python -m tests.support.browser --install`")

    async def access(chat: str, user: str) -> tuple[bool, frozenset[str]] | None:
        return (user == "discord:1300000000000000042", frozenset()) \
            if chat == "discord:1" else None

    oauth = FakeDiscordOAuth({"id": "1300000000000000042", "username": "mo",
                              "global_name": "Mo", "discriminator": "0"})
    async with SqliteStore(tmp_path / "l.db") as store, \
            TestClient(TestServer(oauth.app())) as discord:
        chat = Chat(store, chat="discord:1")
        chat.resolve = lambda name: UserRef(  # type: ignore[method-assign]
            "discord:1300000000000000042" if name == "mo" else f"discord:{len(name)}", name)
        await chat.ladder("duel")
        await chat.join("mo", "alice", HOSTILE)
        await chat.ok(HOSTILE, "/report win @alice")
        web = Web(store, clock=lambda: chat.at)
        dashboard = Dashboard(web, Policy(), access=access, secure=False,
                              clock=lambda: chat.at)
        address = await web.start("127.0.0.1:0")  # (its port is the redirect's)
        oauth.redirect = f"{address}/login/discord/back"
        dashboard.discord = DiscordOAuth(CLIENT_ID, CLIENT_SECRET, oauth.redirect,
                                         str(discord.make_url("")).rstrip("/"))
        try:
            async with async_playwright() as playwright:
                browser = await playwright.chromium.launch(executable_path=executable,
                                                           args=ARGS)
                page = await browser.new_page(viewport={"width": 390, "height": 800})
                await page.goto(f"{address}/login")
                await page.click("#discord-login")
                assert page.url.endswith("/me")
                await page.click("a.manage")
                await page.fill("#set-k", "24")
                await page.click("#settings-form button")
                assert "k=24" in await page.locator("main").inner_text()
                await page.go_back()
                await page.reload()
                assert await page.input_value("#set-k") == "24"
                await page.fill("#set-k", "0")
                await page.click("#settings-form button")
                assert "k" in await page.locator("p.down").inner_text()
                await page.goto(f"{address}/ladders/1/manage")
                await page.fill("li.report input[name=text]", "a mistake")
                await page.click("li.report button")
                assert "#1" in await page.locator("main").inner_text()
                for width in (390, 1400):
                    await page.set_viewport_size({"width": width, "height": 800})
                    await page.goto(f"{address}/ladders/1/manage")
                    await page.screenshot(path=str(tmp_path / f"manage-{width}.png"),
                                          full_page=True)
                    fits = await page.evaluate("document.body.scrollWidth <= window.innerWidth")
                    assert fits, f"the page is wider than {width} px"
                assert "Mo (web) voided #1" in await page.locator("#audit").inner_text()
                await browser.close()
        finally:
            await web.stop()
        assert (await chat.export())["matches"][0]["status"] == "voided"


async def test_the_login_limit_forgets_quiet_addresses(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """Counting logins by address keeps no more than it needs: past ADDRESSES_KEPT, the
    addresses quiet for a minute are let go (a crowd of addresses grew it without end)."""
    monkeypatch.setattr("bot.web.dashboard.ADDRESSES_KEPT", 100)
    clock = Clock(1_000)
    async with SqliteStore(tmp_path / "l.db") as store:
        dashboard = Dashboard(Web(store, clock=clock), Policy(), secure=False, clock=clock)
        for n in range(150):
            assert dashboard._may_try(f"10.0.0.{n}")
        clock.at += 61
        assert dashboard._may_try("10.0.1.1") and len(dashboard.tries) == 1
