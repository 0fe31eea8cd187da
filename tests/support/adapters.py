"""The Telegram and Discord adapters wired to their offline stand-ins, for tests that
drive a platform as its users would (the fakes are in telegram_fake and discord_fake)."""

from __future__ import annotations

import contextlib
import dataclasses
import json
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import discord
from telegram import Update
from telegram.ext import ContextTypes

from bot.config import Config, DiscordConfig, TelegramConfig
from bot.discord.platform import DiscordPlatform
from bot.limits import Limiter
from bot.telegram.outgoing import Outgoing
from bot.telegram.platform import TelegramPlatform
from core.service.queries.export import export_ladder
from storage.sqlite.store import SqliteStore
from tests.support.discord_fake import FakeDiscord
from tests.support.discord_payloads import GUILD
from tests.support.discord_private import deliver_interaction
from tests.support.telegram_fake import (
    BOT,
    GROUP,
    FakeRequest,
    FakeTelegram,
    document,
    message,
)

T0 = 1767607200  # 2026-01-05 10:00 UTC


def rewired(platform: Any, config: Config | None = None, limiter: Limiter | None = None
            ) -> None:
    """A platform given another configuration or flood limiter after it was built, as if
    built with it: the platform and its way into the core alike."""
    if config is not None:
        platform.config = config
        platform.gateway.policy = config.policy
    if limiter is not None:
        platform.limiter = platform.gateway.limiter = limiter


def with_web_url(config: Config, url: str) -> Config:
    """The configuration with the public pages served at `url` (links in replies)."""
    return dataclasses.replace(config, policy=dataclasses.replace(config.policy, web_url=url))
UNLIMITED = Limiter(enabled=False)  # the flood tests put in their own, on a fake clock


class TelegramHarness:
    """A TelegramPlatform on a recording stand-in of the Bot API, in one group."""

    def __init__(self, platform: TelegramPlatform, api: FakeTelegram, store: SqliteStore,
                 errors: list[BaseException]) -> None:
        self.platform, self.api, self.store, self.errors = platform, api, store, errors
        self.next_message = 1

    async def send(self, body: dict[str, Any]) -> list[str]:
        """Deliver one update; return the texts the bot sent in answer."""
        before = len(self.api.sent())
        update = Update.de_json(self.api.push(body), self.platform.app.bot)
        await self.platform.app.process_update(update)
        return [p["text"] for p in self.api.sent()[before:]]

    async def say(self, user: dict[str, Any], text: str, chat: dict[str, Any] | None = None,
                  **kw: Any) -> list[str]:
        self.next_message += 1
        return await self.send(message(text, user, chat, message_id=self.next_message,
                                       date=T0 + self.next_message, **kw))

    async def send_document(self, user: dict[str, Any], caption: str, filename: str,
                            data: bytes) -> list[str]:
        """A user sends a file with a command as its caption."""
        self.next_message += 1
        file_id = f"f{self.next_message}"
        self.api.files[file_id] = data
        return await self.send(document(caption, user, file_id, filename, len(data),
                                        message_id=self.next_message,
                                        date=T0 + self.next_message))

    def buttons(self) -> list[str]:
        """The callback data of the newest message with buttons."""
        sent = next(p for p in reversed(self.api.sent()) if "reply_markup" in p)
        markup = sent["reply_markup"]
        rows = (json.loads(markup) if isinstance(markup, str) else markup)["inline_keyboard"]
        return [str(b["callback_data"]) for row in rows for b in row]

    async def press(self, user: dict[str, Any], data: str) -> list[str]:
        # (the message that carries the button, else the newest with buttons)
        pending = next((p for p in reversed(self.api.sent()) if "reply_markup" in p
                        and data in json.dumps(p["reply_markup"])),
                       next(p for p in reversed(self.api.sent()) if "reply_markup" in p))
        chat_id = int(pending["chat_id"])
        chat = {**GROUP, "id": chat_id} if chat_id < 0 else {"id": chat_id, "type": "private",
                                                             "first_name": user["first_name"]}
        body = {"callback_query": {
            "id": f"cb{self.next_message}", "from": user, "chat_instance": "1", "data": data,
            "message": {"message_id": self.api.ids.get(id(pending), 9999), "date": T0,
                        "chat": chat, "from": BOT, "text": pending["text"]}}}
        self.next_message += 1
        return await self.send(body)

    def alerts(self) -> list[dict[str, Any]]:
        return [p for m, p in self.api.calls if m == "answerCallbackQuery"]

    async def export(self, ladder: str = "main") -> dict[str, Any]:
        at = T0 + 10_000
        data: dict[str, Any] = await self.store.run(
            lambda repo: export_ladder(repo, f"telegram:{GROUP['id']}", ladder, at),
            commit=False)
        return data


@contextlib.asynccontextmanager
async def telegram_harness(db: Path, admins: list[dict[str, Any]]) -> AsyncIterator[
        TelegramHarness]:
    """A started Telegram adapter whose group is administered by `admins`."""
    api = FakeTelegram(admins={GROUP["id"]: admins})
    errors: list[BaseException] = []
    async with SqliteStore(db) as store:
        config = Config(telegram=TelegramConfig(token="123456:TEST"))
        platform = TelegramPlatform(config, store, request=FakeRequest(api),
                                    clock=lambda: float(T0 + 10_000), limiter=UNLIMITED,
                                    # Telegram's own pace (20 a minute to a group) in real
                                    # time would make a long test wait; retries stay on.
                                    outgoing=Outgoing(0, 0, 0, 0, max_retries=3))

        async def collect(update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
            assert context.error is not None
            errors.append(context.error)

        platform.app.add_error_handler(collect)
        await platform.app.initialize()
        await platform.register_commands()
        yield TelegramHarness(platform, api, store, errors)
        await platform.app.shutdown()
    assert errors == [], errors
    assert api.refused == [], api.refused  # nothing the real Bot API would refuse
    assert api.links == [], api.links  # and nothing a player typed became a link


@dataclass
class Clock:
    """The one clock of the bot and of the stand-in; a test moves it on."""

    now: float = float(T0)

    def __call__(self) -> float:
        return self.now


class DiscordHarness:
    """A DiscordPlatform on a loopback stand-in of Discord's HTTP API, in one server."""

    def __init__(self, platform: DiscordPlatform, fake: FakeDiscord, store: SqliteStore,
                 clock: Clock) -> None:
        self.platform, self.fake, self.store, self.clock = platform, fake, store, clock

    async def deliver(self, payload: dict[str, Any]) -> list[dict[str, Any]]:
        """Deliver an interaction now; return every answer the users were shown for it."""
        count = len(self.fake.responses())
        self.fake.arrive(payload)
        await deliver_interaction(self.platform.client, payload)
        return self.fake.responses()[count:]

    async def send(self, payload: dict[str, Any]) -> dict[str, Any]:
        """Deliver an interaction; return the first answer shown for it."""
        answers = await self.deliver(payload)
        assert answers, f"no answer was shown: {self.fake.refused}"
        return answers[0]

    async def export(self, ladder: str = "main") -> dict[str, Any]:
        data: dict[str, Any] = await self.store.run(
            lambda repo: export_ladder(repo, f"discord:{GUILD}", ladder, T0 + 10_000),
            commit=False)
        return data


@contextlib.asynccontextmanager
async def discord_harness(db: Path) -> AsyncIterator[DiscordHarness]:
    """A logged-in Discord adapter (members with Manage Server moderate)."""
    clock = Clock()
    fake = FakeDiscord(clock)
    runner = await fake.serve()
    base = discord.http.Route.BASE
    async with SqliteStore(db) as store:
        config = Config(discord=DiscordConfig(
            token="test-token", api_base_url=f"http://127.0.0.1:{fake.port}/api/v10"))
        platform = DiscordPlatform(config, store, clock=clock, limiter=UNLIMITED)
        platform.use_servers()
        await platform.client.login("test-token")
        try:
            yield DiscordHarness(platform, fake, store, clock)
        finally:
            await platform.client.close()
            discord.http.Route.BASE = base
            await runner.cleanup()
    assert fake.refused == [], fake.refused  # nothing the real API would refuse
    assert fake.links == [], fake.links  # and nothing a player typed became a link
