"""The dashboard's own page lists the ladders of the chats where the bot has known the
visitor as a moderator, whether or not they play (issue 55), while the chat's platform
says they moderate it; a moderator by a linked account of another platform is one
person there too."""

from __future__ import annotations

import html
from pathlib import Path

from core.domain.records import UserRef
from storage.sql.repo import SqlRepo
from storage.sqlite.store import SqliteStore
from tests.support.chat import Chat
from tests.support.dashboard import GROUP, HOSTILE, csrf_of, dashboard, login, moderated_by

ACCESS = moderated_by("telegram:1", "discord:9", chats=(GROUP, "discord:5"))


async def test_a_moderator_who_does_not_play_finds_the_chats_ladders(tmp_path: Path) -> None:
    async with SqliteStore(tmp_path / "l.db") as store:
        chat = Chat(store, chat=GROUP)
        await chat.ladder("duel", name="league")
        await chat.ladder("duel", name="cup")
        await chat.join(HOSTILE, ladder="ladder=cup")
        async with dashboard(chat, ACCESS) as (client, _):
            await login(client, chat.at, uid="1", name="mod")
            page = await (await client.get("/me")).text()
            assert "league" not in page  # (the bot has not known them there yet)
            def moderates(repo: SqlRepo) -> None:
                for n in (1, 2):
                    repo.note_moderator(f"telegram:{n}", chat.chat, 1)

            await store.run(moderates)
            page = await (await client.get("/me")).text()
            assert 'href="/ladders/1/manage"' in page and 'href="/ladders/2/manage"' in page
            # Once the platform says they no longer moderate it, the chat's ladders they
            # do not play are not theirs to see.
            await login(client, chat.at, uid="2", name="was")
            page = await (await client.get("/me")).text()
            assert "league" not in page and "/manage" not in page
            # A linked account's moderation counts: Telegram 2 is Discord 9 as well.
            server = Chat(store, chat="discord:5")
            await server.ladder("duel", name="open")
            def moderates_linked(repo: SqlRepo) -> None:
                repo.link("telegram:2", "discord:9")
                repo.note_moderator("discord:9", "discord:5", 1)

            await store.run(moderates_linked)
            page = await (await client.get("/me")).text()
            assert 'href="/ladders/3/manage"' in page and "league" not in page
            assert (await client.get("/ladders/3/manage")).status == 200
            # A moderator of another server moderates nothing here, by page or by form.
            assert (await client.get("/ladders/1/manage")).status == 404
            forged = {"csrf": csrf_of(page), "action": "settings", "text": "k=16"}
            assert (await client.post("/ladders/1/manage", data=forged)).status == 404


async def test_a_shared_ladders_other_chat_moderates_it_there(tmp_path: Path) -> None:
    """A Discord server's ladder played in a Telegram group too: the group's
    administrator finds it, and what they do on its page is said in their group."""
    async with SqliteStore(tmp_path / "l.db") as store:
        server = Chat(store, chat="discord:5")
        await server.ladder("duel", name="open")
        await server.join("ann", HOSTILE)
        await server.ok(HOSTILE, "/report win @ann")
        def shared(repo: SqlRepo) -> None:
            repo.share(1, "telegram:-100", "shared")
            repo.note_moderator("telegram:1", "telegram:-100", 1)

        await store.run(shared)
        async with dashboard(server, ACCESS) as (client, _):
            await login(client, server.at, uid="1", name="mod")
            assert 'href="/ladders/1/manage"' in await (await client.get("/me")).text()
            page = await (await client.get("/ladders/1/manage")).text()
            assert "<h1>shared</h1>" in page  # (the ladder by the group's name for it)
            void = {"csrf": csrf_of(page), "action": "void", "match": "1", "text": "oops"}
            done = await client.post("/ladders/1/manage", data=void)
            assert done.status == 200, await done.text()
        assert (await server.export("open"))["matches"][0]["status"] == "voided"
        told = await store.run(lambda repo: [a.chat for _, _, a in repo.outbox_due(
            server.at + 1)], commit=False)
        assert "telegram:-100" in told


async def test_a_players_page_shows_their_profile_as_the_chat_says_it(tmp_path: Path) -> None:
    async with SqliteStore(tmp_path / "l.db") as store:
        chat = Chat(store, chat=GROUP)
        chat.resolve = lambda name: UserRef(  # type: ignore[method-assign]
            "telegram:42" if name == "alice" else "telegram:7", name)
        await chat.ladder("duel", name="league")
        await chat.ladder("duel", "public=true", name="cup")
        await chat.join("alice", HOSTILE, ladder="ladder=league")
        await chat.join("alice", ladder="ladder=cup")
        await chat.ok(HOSTILE, "/report win @alice ladder=league")
        await chat.ok("alice", "/confirm ladder=league")
        profile = await chat.ok("alice", "/profile ladder=league")
        async with dashboard(chat, ACCESS) as (client, _):
            await login(client, chat.at, uid="42", name="alice")
            page = await (await client.get("/me")).text()
        assert html.escape(profile, quote=False) in page
        assert 'href="/ladders/2"' in page and 'href="/ladders/1"' not in page  # (public)
