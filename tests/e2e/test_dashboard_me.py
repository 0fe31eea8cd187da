"""The dashboard's own page lists the ladders of the chats where the bot has known the
visitor as a moderator, whether or not they play (issue 55), while the chat's platform
says they moderate it; a moderator by a linked account of another platform is one
person there too."""

from __future__ import annotations

from pathlib import Path

from aiohttp.test_utils import TestClient, TestServer

from bot.web.dashboard import Dashboard
from bot.web.pages import Web
from core.domain.settings import Policy
from storage.sqlite.store import SqliteStore
from tests.e2e.test_dashboard import HOSTILE, TOKEN, _login
from tests.support.chat import Chat


async def _access(chat: str, user: str) -> tuple[bool, frozenset[str]] | None:
    if chat == "telegram:-100" and user.startswith("telegram:"):
        return user == "telegram:1", frozenset()
    if chat == "discord:5" and user.startswith("discord:"):
        return user == "discord:9", frozenset()
    return None


async def test_a_moderator_who_does_not_play_finds_the_chats_ladders(tmp_path: Path) -> None:
    async with SqliteStore(tmp_path / "l.db") as store:
        chat = Chat(store, chat="telegram:-100")
        await chat.ladder("duel", name="league")
        await chat.ladder("duel", name="cup")
        await chat.join(HOSTILE, ladder="ladder=cup")
        web = Web(store, clock=lambda: chat.at)
        Dashboard(web, Policy(web_url="http://127.0.0.1"), telegram_token=TOKEN,
                  telegram_bot="LadderBot", access=_access, secure=False,
                  clock=lambda: chat.at)
        async with TestClient(TestServer(web.app)) as client:
            await _login(client, chat.at, uid="1", name="mod")
            page = await (await client.get("/me")).text()
            assert "league" not in page  # (the bot has not known them there yet)
            await store.run(lambda repo: (repo.note_moderator("telegram:1", chat.chat, 1),
                                          repo.note_moderator("telegram:2", chat.chat, 1)))
            page = await (await client.get("/me")).text()
            assert 'href="/ladders/1/manage"' in page and 'href="/ladders/2/manage"' in page
            # Once the platform says they no longer moderate it, the chat's ladders they
            # do not play are not theirs to see.
            await _login(client, chat.at, uid="2", name="was")
            page = await (await client.get("/me")).text()
            assert "league" not in page and "/manage" not in page
            # A linked account's moderation counts: Telegram 2 is Discord 9 as well.
            server = Chat(store, chat="discord:5")
            await server.ladder("duel", name="open")
            await store.run(lambda repo: (repo.link("telegram:2", "discord:9"),
                                          repo.note_moderator("discord:9", "discord:5", 1)))
            page = await (await client.get("/me")).text()
            assert 'href="/ladders/3/manage"' in page and "league" not in page
            assert (await client.get("/ladders/3/manage")).status == 200
