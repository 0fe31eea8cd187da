"""What the bot sends on Telegram fits and arrives: long replies and alerts split or cut where
Telegram allows, retry_after honoured, failed announcements retried, a flooding user slowed,
webhook workers sharing one database, a backlog applied in order; names and reasons shown as
typed."""

from __future__ import annotations

import asyncio
import logging
import socket
import time
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from telegram import Update

from bot.config import Config, TelegramConfig
from bot.gateway import Gateway
from bot.limits import Limiter
from bot.scheduler import Scheduler
from bot.telegram.outgoing import Outgoing
from bot.telegram.platform import TelegramPlatform
from bot.telegram.render import split as split_text
from bot.text import APOLOGY
from core.domain.records import Reply
from core.service.dispatch import export
from storage.sqlite.store import SqliteStore
from tests.support.adapters import T0, rewired, with_web_url
from tests.support.adapters import TelegramHarness as Harness
from tests.support.telegram_fake import GROUP, FakeRequest, FakeTelegram, message, person
from tests.support.telegram_play import ALICE, BOB, DAVE, MOD, ladder


async def test_an_exception_is_logged_and_the_user_gets_an_apology(
    tg: Harness, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    await ladder(tg)

    async def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("database on fire")

    monkeypatch.setattr(tg.store, "run", broken)
    with caplog.at_level(logging.ERROR):
        assert await tg.say(ALICE, "/standings") == [str(APOLOGY)]
    assert "database on fire" in caplog.text and "Traceback" in caplog.text
    assert [type(e) for e in tg.errors] == [RuntimeError]
    tg.errors.clear()


async def test_retry_after_is_honoured(tg: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    await ladder(tg)
    waited: list[float] = []
    real_sleep = asyncio.sleep

    async def sleep(seconds: float) -> None:  # record the wait instead of waiting
        waited.append(seconds)
        await real_sleep(0)

    monkeypatch.setattr(asyncio, "sleep", sleep)
    tg.api.failures["sendMessage"] = 1  # Telegram says: too many requests, retry after 3 s
    assert (await tg.say(ALICE, "/standings"))[0].startswith("main: ladder")
    attempts = [m for m, _ in tg.api.calls[-2:]]
    assert attempts == ["sendMessage", "sendMessage"]
    assert any(w >= 3 for w in waited)


async def test_announcements_go_to_the_group_and_failed_sends_are_retried(tg: Harness) -> None:
    await ladder(tg)
    await tg.say(ALICE, "/report win @bob")
    clock = [float(T0 + 2 * 86_400)]
    failing = [2]

    async def post(announcement: Any) -> None:
        if failing[0]:
            failing[0] -= 1
            raise ConnectionError("network down")
        await tg.platform.post(announcement)

    scheduler = Scheduler(tg.store, post, lambda: clock[0])
    assert await scheduler.tick() == []  # the confirmation applies; posting fails
    assert await scheduler.flush() == []  # not yet due again
    clock[0] += 30
    assert await scheduler.flush() == []  # second failure, backoff doubles
    clock[0] += 60
    [posted] = await scheduler.flush()
    assert posted.text.startswith("Match #1 (alice beat bob) is confirmed")
    assert tg.api.texts(GROUP["id"])[-1] == posted.text
    clock[0] += 3600
    assert await scheduler.flush() == []  # posted once, not again


def test_long_replies_are_split_at_line_breaks() -> None:
    text = "\n".join(f"line {i} " + "x" * 90 for i in range(100))
    parts = split_text(text)
    assert all(len(p) <= 4096 for p in parts) and len(parts) == 3
    assert "\n".join(parts) == text


async def test_a_flooding_user_is_slowed_politely_without_slowing_others(tg: Harness) -> None:
    await ladder(tg, "confirm=false")
    now = [0.0]
    rewired(tg.platform, limiter=Limiter(user_burst=3, user_rate=0.5, clock=lambda: now[0]))
    answers = [await tg.say(ALICE, "/report win @bob") for _ in range(5)]
    assert [a[0].split(":")[0] for a in answers[:3]] == ["Match #1", "Match #2", "Match #3"]
    assert answers[3] == ["You are sending commands faster than I can take them: please "
                          "wait 2 s."]
    assert answers[4] == []  # told once
    assert len((await tg.export())["matches"]) == 3  # the slowed reports were not taken
    assert (await tg.say(BOB, "/standings"))[0].startswith("main:")
    now[0] += 2
    assert (await tg.say(ALICE, "/report win @bob"))[0].startswith("Match #4")


async def test_webhook_workers_share_one_url_and_one_database(tmp_path: Path) -> None:
    api = FakeTelegram(admins={GROUP["id"]: [MOD]})
    url = "https://bot.example/telegram/hook"
    workers = []
    async with SqliteStore(tmp_path / "l.db") as first, SqliteStore(tmp_path / "l.db") as second:
        for store in (first, second):  # two processes' worth: a store and a port each
            with socket.socket() as probe:
                probe.bind(("127.0.0.1", 0))
                port = probe.getsockname()[1]
            config = Config(telegram=TelegramConfig(token="123456:TEST", webhook_url=url,
                                                    listen=f"127.0.0.1:{port}"))
            platform = TelegramPlatform(config, store, request=FakeRequest(api),
                                        limiter=Limiter(enabled=False),
                                        outgoing=Outgoing(0, 0, 0, 0))
            await platform.start()
            workers.append((platform, port))
        try:
            hooks = [p for m, p in api.calls if m == "setWebhook"]
            assert [h["url"] for h in hooks] == [url, url]
            secret = workers[0][0].webhook_secret
            assert {h["secret_token"] for h in hooks} == {secret} and "TEST" not in secret

            async def deliver(port: int, body: dict[str, Any], token: str = secret) -> int:
                async with aiohttp.ClientSession() as http, http.post(
                        f"http://127.0.0.1:{port}/telegram/hook", json=api.push(body),
                        headers={"X-Telegram-Bot-Api-Secret-Token": token}) as answer:
                    return answer.status

            async def reply_to(port: int, body: dict[str, Any]) -> str:
                api.answered.clear()
                assert await deliver(port, body) == 200
                await asyncio.wait_for(api.answered.wait(), 10)
                return str(api.sent()[-1]["text"])

            ports = [port for _, port in workers]
            assert (await reply_to(ports[0], message(
                "/ladder create main preset=duel confirm=false", MOD, message_id=11))
            ).startswith("Ladder main created")
            await reply_to(ports[1], message("/join", ALICE, message_id=12))
            await reply_to(ports[0], message("/join", BOB, message_id=13))
            report = message("/report win @bob", ALICE, message_id=14)
            assert (await reply_to(ports[1], report)).startswith("Match #1: alice beat bob")
            # Telegram delivers it again (no answer seen in time), to the other worker:
            # the same answer, and still one match.
            assert (await reply_to(ports[0], report)).startswith("Match #1: alice beat bob")
            now = int(time.time()) + 60  # these workers run on the real clock
            exported = await first.run(lambda repo: export(
                repo, f"telegram:{GROUP['id']}", "main", now), commit=False)
            assert len(exported["matches"]) == 1
            # A request without the secret is not Telegram's: refused, not handled.
            count = len(api.sent())
            assert await deliver(ports[0], message("/standings", BOB, message_id=15),
                                 token="guess") == 403
            await asyncio.sleep(0.2)
            assert len(api.sent()) == count
        finally:
            for platform, _ in workers:
                await platform.stop()


def test_a_line_longer_than_a_message_is_cut_at_a_space() -> None:
    names = ", ".join(f"[p{i}](https://e.example)" for i in range(400))  # one line
    parts = split_text(names)
    assert len(parts) > 1 and all(len(p) <= 4096 for p in parts)
    assert all(p.endswith(",") for p in parts[:-1])  # never inside a name or a link
    assert " ".join(parts) == names


async def test_a_long_refusal_of_a_button_fits_telegrams_alert(
    tg: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """answerCallbackQuery takes at most 200 characters: a longer refusal was refused by
    the Bot API, and the presser saw nothing."""
    await ladder(tg)
    await tg.say(ALICE, "/report win @bob")
    refusal = "Only the players of match #1 can confirm it. " * 8  # 360 characters

    async def refused(*args: Any) -> Reply:
        return Reply(refusal, error=True)

    monkeypatch.setattr(Gateway, "run", refused)
    assert await tg.press(DAVE, "confirm:main:1") == []
    alert = tg.alerts()[-1]
    assert alert["show_alert"] and len(alert["text"]) <= 200
    assert alert["text"].endswith(" of…") and refusal.startswith(alert["text"][:-1])  # a space


async def test_a_right_to_left_name_does_not_turn_the_sentence(tg: Harness) -> None:
    await tg.say(MOD, "/ladder create main preset=duel")
    rtl = {**ALICE, "id": 4242, "username": "\u202eevil"}
    [joined] = await tg.say(rtl, "/join")
    assert joined.startswith("\u202eevil\u202c joined main")


async def test_a_backlog_of_one_chat_is_applied_in_the_order_it_was_sent(tg: Harness) -> None:
    """The bot was down while the group sent these; Telegram hands them over together.
    With concurrent updates, /join ran before the ladder existed and the report was
    refused. One chat's messages are applied in order; other chats' may run meanwhile."""
    lines = [(MOD, "/ladder create main preset=duel confirm=false"), (ALICE, "/join"),
             (BOB, "/join"), (ALICE, "/report win @bob"), (BOB, "/standings")]
    updates = [Update.de_json(tg.api.push(message(text, who, message_id=100 + n,
                                                  date=T0 + n)), tg.platform.app.bot)
               for n, (who, text) in enumerate(lines)]
    private = {"id": DAVE["id"], "type": "private", "first_name": "Dave"}
    updates.append(Update.de_json(tg.api.push(message("/help", DAVE, private, message_id=200,
                                                      date=T0 + 9)), tg.platform.app.bot))
    tg.api.slow["getChatAdministrators"] = 50  # the first message waits on the admin list
    await tg.platform.app.start()  # the update fetcher, with its concurrent processor
    try:
        for update in updates:
            await tg.platform.app.update_queue.put(update)
        await tg.api.wait_sent(len(lines) + 1)
    finally:
        await tg.platform.app.stop()
    chats = [int(p["chat_id"]) for p in tg.api.sent()]
    assert chats.index(DAVE["id"]) < len(chats) - 1  # another chat was not kept waiting
    said = tg.api.texts(GROUP["id"])[-len(lines):]
    assert said[1].startswith("alice joined main") and said[2].startswith("bob joined main")
    assert said[3].startswith("Match #1: alice beat bob."), said
    assert (await tg.export())["players"][0]["rating"] == 1016


async def test_addresses_in_names_and_reasons_are_no_links(tg: Harness) -> None:
    """Telegram links an address and a bare domain in a plain message: a player called
    "free-nitro.com" or a reason with "https://e.vil" was a link in the bot's reply."""
    await ladder(tg, "confirm=false")
    phisher = person(106, "free-nitro.com https://e.vil/login")  # no username: the full name
    [joined] = await tg.say(phisher, "/join")
    assert joined.startswith("free-nitro\u200b.com https:\u200b//e\u200b.vil/login joined")
    await tg.say(ALICE, "/report win @bob")
    [voided] = await tg.say(MOD, "/mod void 1 see www.evil.com")
    assert "see www\u200b.evil\u200b.com" in voided
    assert tg.api.links == []  # (the harness checks this after every test, too)


async def test_the_bots_own_web_address_stays_a_link_on_telegram(tg: Harness) -> None:
    await ladder(tg, "public=true")
    rewired(tg.platform, with_web_url(tg.platform.config, "https://ladder.example"))
    [info] = await tg.say(ALICE, "/ladder info")
    assert "https://ladder.example/ladders/1" in info
    assert tg.api.links == ["https://ladder.example/ladders/1"]
    tg.api.links.clear()
