"""Issue 29 end to end: one `ladderbot run` on both strict stand-ins, Discord's gateway
and REST API and Telegram's Bot API. A ladder made on Discord is shared with a Telegram
group; alice links her accounts; a report on Discord is confirmed with Telegram's button;
a Telegram moderator voids it; each step's news reaches both platforms. On SQLite, and on
PostgreSQL (the ladder's one advisory lock whichever chat a command comes from)."""

from __future__ import annotations

import asyncio
import re
import time
from pathlib import Path
from typing import Any

import pytest

from storage.postgres.store import is_url
from tests.support import postgres
from tests.support.bot_process import ratings, start, stop
from tests.support.discord_fake import FakeDiscord
from tests.support.discord_payloads import CHANNEL, GUILD, MANAGE_GUILD, command, member, option
from tests.support.discord_payloads import person as discord_person
from tests.support.telegram_fake import BOT, GROUP, FakeTelegram, serve
from tests.support.telegram_fake import message as sent_message
from tests.support.telegram_fake import person as telegram_person

FROZEN = lambda: 0.0  # noqa: E731  (Discord's 3 seconds are tested on an injected clock)
MOD = member(discord_person(1300000000000000101, "mod"), permissions=MANAGE_GUILD)
ALICE = member(discord_person(1300000000000000102, "alice"))
TMOD, BOB = telegram_person(201, "Tess", "tmod"), telegram_person(203, "Bob", "bob")
ALICE_T = telegram_person(202, "Alice", "alice_t")
CODE = re.compile(r"\b([A-Z2-9]{4}-[A-Z2-9]{4})\b")


class Telegram:
    """The Bot API stand-in, with a message counter and waits on what the bot sent."""

    def __init__(self, api: FakeTelegram) -> None:
        self.api, self.next_id = api, 0

    def say(self, user: dict[str, Any], text: str, private: bool = False) -> None:
        self.next_id += 1
        chat = {"id": user["id"], "type": "private", "first_name": user["first_name"]} \
            if private else GROUP
        self.api.push(sent_message(text, user, chat, message_id=self.next_id,
                                   date=int(time.time())))

    def press(self, user: dict[str, Any], sent: dict[str, Any]) -> None:
        data = sent["reply_markup"]["inline_keyboard"][0][0]["callback_data"]
        self.api.push({"callback_query": {
            "id": str(self.next_id), "from": user, "chat_instance": "1", "data": data,
            "message": {"message_id": 9001, "date": int(time.time()), "chat": GROUP,
                        "from": BOT, "text": sent["text"]}}})

    async def until(self, chat: int, found: str) -> dict[str, Any]:
        """The first message sent to `chat` with `found` in it (waiting at most 30 s)."""
        async def seen() -> dict[str, Any]:
            while True:
                for sent in self.api.sent(chat):
                    if found in sent.get("text", ""):
                        return sent
                self.api.answered.clear()
                await self.api.answered.wait()

        try:
            return await asyncio.wait_for(seen(), 30)
        except TimeoutError:
            raise AssertionError(f"no {found!r} in {self.api.texts(chat)}") from None


def code_in(text: str) -> str:
    found = CODE.search(text)
    assert found is not None, text
    return found.group(1)


def both_platforms(config: Path, db: str, discord_port: int, telegram_port: int) -> Path:
    """A config for one bot on Discord and Telegram (their stand-ins) over `db`: a SQLite
    file's path or a PostgreSQL URL."""
    where = f'url = "{db}"' if is_url(db) else f'path = "{db}"'
    config.write_text(
        f'[database]\n{where}\n\n[discord]\ntoken = "test-token"\n'
        f'api_base_url = "http://127.0.0.1:{discord_port}/api/v10"\n'
        f'gateway_url = "ws://127.0.0.1:{discord_port}/gateway"\n\n'
        f'[telegram]\ntoken = "123456:TEST"\nbase_url = "http://127.0.0.1:{telegram_port}/bot"\n')
    return config


async def posted(discord: FakeDiscord, text: str) -> None:
    """Wait until a post in the ladder's Discord channel holds `text`."""
    await discord.wait_until(lambda: any(text in p for p in discord.channel_posts(CHANNEL)),
                             lambda: f"posts {discord.channel_posts(CHANNEL)}")


@pytest.mark.parametrize("database", ["sqlite", "postgres"])
async def test_one_ladder_on_discord_and_telegram_in_one_run(
        tmp_path: Path, database: str, request: pytest.FixtureRequest) -> None:
    discord = FakeDiscord(FROZEN)
    runner = await discord.serve()
    api = FakeTelegram(admins={GROUP["id"]: [TMOD]})
    telegram_runner, port = await serve(api)
    telegram = Telegram(api)
    db = str(tmp_path / "ladder.db") if database == "sqlite" else \
        await postgres.fresh_database(request.getfixturevalue("postgres_server"))
    bot = await start(both_platforms(tmp_path / "config.toml", db, discord.port, port))
    answered = 0

    async def interact(payload: dict[str, Any]) -> str:
        nonlocal answered
        await discord.dispatch("INTERACTION_CREATE", payload)
        answered += 1
        await discord.wait_responses(answered)
        return discord.texts()[answered - 1]

    try:
        await asyncio.wait_for(discord.identified.wait(), 30)
        await interact(command("create", option("name", "main"), option("preset", "duel"),
                               by=MOD, group="ladder"))
        shared = await interact(command("share", by=MOD, group="ladder"))
        assert discord.responses()[-1].get("flags", 0) & 64  # ephemeral: the mod's alone
        telegram.say(TMOD, f"/ladder join-share {code_in(shared)} cup")
        await telegram.until(GROUP["id"], "now plays cup")
        await posted(discord, "called cup")
        await interact(command("join", by=ALICE))
        telegram.say(BOB, "/join")
        await telegram.until(GROUP["id"], "bob")
        # alice links her accounts: a code on Discord, given in a private chat on Telegram
        linking = await interact(command("link", by=ALICE))
        telegram.say(ALICE_T, f"/link {code_in(linking)}", private=True)
        await telegram.until(ALICE_T["id"], "Linked")
        # alice reports on Discord against bob, who plays from Telegram only
        reported = await interact(command("report", option("result", "win"),
                                          option("opponent_name", "bob"), by=ALICE))
        assert reported.startswith("Match #1 reported: alice beat bob.")
        pending = await telegram.until(GROUP["id"], "Match #1 reported")
        telegram.press(BOB, pending)  # Confirm, on Telegram
        await telegram.until(GROUP["id"], "alice 1000 -> 1016 (+16), bob 1000 -> 984 (-16)")
        await posted(discord, "1016 (+16)")
        # alice's Telegram account is the same player: her profile is the Discord one's
        telegram.say(ALICE_T, "/profile")
        await telegram.until(GROUP["id"], "1016")
        telegram.say(TMOD, "/mod void 1 wrong players")
        await telegram.until(GROUP["id"], "alice 1016 -> 1000")
        await posted(discord, "1016 -> 1000")
    finally:
        [err] = await stop(bot)
        await runner.cleanup()
        await telegram_runner.cleanup()
    assert bot.returncode == 0, err
    assert "Traceback" not in err
    assert discord.refused == [] and api.refused == []  # nothing the real APIs refuse
    assert discord.links == [] and api.links == []  # nothing typed became a link
    assert ratings(db, f"discord:{GUILD}") == {"alice": 1000, "bob": 1000}
