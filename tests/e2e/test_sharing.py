"""Issue 29 in the core, on every store: accounts linked by one-time codes, a ladder a
Discord server and a Telegram group share, reports and corrections across the two."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from bot.scheduler import due_now
from core.domain.records import UserRef
from core.service.queries.views import ladder_list
from storage.postgres.store import PgStore
from storage.sql.repo import SqlRepo
from storage.sqlite.store import SqliteStore
from storage.transfer import NOT_COPIED, TABLES, copy_database
from tests.support.chat import Chat

DISCORD, TELEGRAM = "discord:1", "telegram:-2"
CODE = re.compile(r"\b([A-Z2-9]{4}-[A-Z2-9]{4})\b")


def code_in(text: str) -> str:
    found = CODE.search(text)
    assert found is not None, text
    return found.group(1)


def chats(store: Any, **known: str) -> tuple[Chat, Chat]:
    """A Discord server (moderator `mod`) and a Telegram group (moderator `tmod`); `known`
    mentions on Telegram that name a Discord-only player by their ladder name."""
    discord = Chat(store, DISCORD, ephemeral=True,
                   known={name: UserRef(f"name:{name}", name) for name in known.get("d", "")
                          .split()})
    telegram = Chat(store, TELEGRAM, admins=("tmod",),
                    known={name: UserRef(f"name:{name}", name) for name in known.get("t", "")
                           .split()})
    return discord, telegram


async def shared(store: Any, *options: str, **known: str) -> tuple[Chat, Chat]:
    """A duel ladder `main` made on Discord and played on Telegram as `cup`."""
    discord, telegram = chats(store, **known)
    await discord.ok("mod", " ".join(["/ladder create main preset=duel", *options]))
    code = code_in(await discord.ok("mod", "/ladder share"))
    await telegram.ok("tmod", f"/ladder join-share {code} cup")
    return discord, telegram


async def link(first: Chat, name: str, other: Chat, other_name: str) -> str:
    """Link `name` of `first` (which asks for the code) to `other_name` of `other`."""
    first.ephemeral = True
    code = code_in(await first.ok(name, "/link"))
    return await alone(other).ok(other_name, f"/link {code}")


def alone(chat: Chat) -> Chat:
    """The same platform's private chat with the bot, on the same clock (where a code is
    typed: Telegram's groups read whatever is typed there)."""
    private = Chat(chat.store, chat.chat, admins=tuple(chat.admins), at=chat.at, alone=True,
                   known=chat.known)
    private.ephemeral = chat.ephemeral
    return private


async def test_a_report_on_discord_is_confirmed_on_telegram_and_voided_there(
        store: Any) -> None:
    discord, telegram = await shared(store, d="bob")
    await discord.ok("alice", "/join")
    joined = await telegram.say("bob", "/join")
    assert joined is not None and "bob joined cup" in joined.said
    # said in the other chat too, with that chat's name for the ladder
    assert [a.text.split(" at ")[0] for a in joined.announcements] == ["bob joined main"]
    reply = await discord.say("alice", "/report win @bob")
    assert reply is not None and not reply.error and reply.confirm_match == 1
    there = [a for a in reply.announcements if a.chat == TELEGRAM]
    assert [(a.ladder, a.confirm) for a in there] == [("cup", 1)]  # with its buttons
    assert "alice beat bob" in there[0].text
    done = await telegram.say("bob", "/confirm 1")
    assert done is not None and not done.error
    assert "alice 1000 -> 1016 (+16), bob 1000 -> 984 (-16)" in done.said
    assert [a.chat for a in done.announcements] == [DISCORD]  # news on Discord too
    assert await discord.ratings() == await telegram.ratings("cup") == \
        {"alice": 1016, "bob": 984}
    voided = await telegram.ok("tmod", "/mod void 1 wrong players")
    assert "alice 1016 -> 1000" in voided
    assert await discord.ratings() == {"alice": 1000, "bob": 1000}
    history = await discord.ok("alice", "/history")
    assert "tmod (Telegram)" in history  # audited with their platform


async def test_the_worked_duel_pair_is_the_same_with_linked_players(store: Any) -> None:
    # RULES.md section 3's worked pair, A on Discord, B on Telegram, each also acting from
    # a linked account on the other platform: the numbers are the rulebook's.
    discord, telegram = await shared(store)
    await discord.ok("A", "/join")
    await telegram.ok("B", "/join")
    await link(discord, "B2", telegram, "B")  # B's Discord account is B2
    await link(telegram, "A2", discord, "A")  # A's Telegram account is A2
    await telegram.ok("tmod", "/mod adjust @B +100 handicap")
    await discord.ok("A", "/report win @B2")
    await telegram.ok("B", "/confirm")
    assert await discord.ratings() == {"A": 1020, "B": 1080}
    await discord.ok("B2", "/report win @A")
    await telegram.ok("A2", "/confirm")
    assert await telegram.ratings("cup") == {"A": 1007, "B": 1093}
    players = await discord.ok("A", "/players")
    assert players.count("A") == 1 and players.count("B") == 1  # one player each


async def test_a_wrong_code_says_nothing_of_whether_it_existed(store: Any) -> None:
    discord, telegram = chats(store)
    private = alone(telegram)
    never = await private.refused("bob", "/link ABCD-EFGH")
    code = code_in(await discord.ok("bob", "/link"))
    await private.tick(10 * 60)  # ten minutes on: it expired
    expired = await private.refused("bob", f"/link {code}")
    discord.at = private.at - 1  # one clock: a code of a second before
    code = code_in(await discord.ok("bob", "/link"))
    wrong_platform = await discord.refused("carol", f"/link {code}")  # a live code, tried
    code = code_in(await discord.ok("bob", "/link"))
    await private.ok("bob", f"/link {code.lower().replace('-', '')}")  # any case, no dash
    await private.ok("bob", "/unlink")
    used = await private.refused("bob", f"/link {code}")  # once only
    assert never == expired == used == wrong_platform
    assert "ABCD" not in never and code not in used


async def test_linking_is_refused_where_it_would_mislead(store: Any) -> None:
    discord, telegram = await shared(store)
    private = alone(telegram)
    assert "private chat" in await telegram.refused("bob", "/link")  # a group sees codes
    await discord.ok("bob", "/join")
    await telegram.ok("bob", "/join")  # two players of one ladder: they stay two
    code = code_in(await discord.ok("bob", "/link"))
    assert "main" in await private.refused("bob", f"/link {code}")
    assert "not linked" in await telegram.refused("bob", "/unlink")


async def test_a_code_is_spent_when_it_is_tried_whatever_the_answer(store: Any) -> None:
    # Each refusal ran in the command's savepoint, which gave the code back: a code
    # refused (said in a group, or for accounts that both play) was then taken by another
    # account, which acted as its owner from then on.
    discord, telegram = await shared(store)
    private = alone(telegram)
    wrong = await private.refused("x", "/link ABCD-EFGH")
    code = code_in(await discord.ok("alice", "/link"))
    assert "private chat" in await telegram.refused("alice", f"/link {code}")  # in a group
    assert await private.refused("mallory", f"/link {code}") == wrong
    await discord.ok("bob", "/join")
    await telegram.ok("bob", "/join")
    code = code_in(await discord.ok("bob", "/link"))
    assert "main" in await private.refused("bob", f"/link {code}")  # both play main
    assert await private.refused("mallory", f"/link {code}") == wrong
    assert await telegram.refused("mallory", "/unlink") != wrong  # mallory has no link


async def test_a_share_code_refused_is_spent_too(store: Any) -> None:
    discord, telegram = chats(store)
    await discord.ok("mod", "/ladder create main preset=duel")
    await telegram.ok("tmod", "/ladder create cup preset=duel")
    code = code_in(await discord.ok("mod", "/ladder share"))
    assert "cup" in await telegram.refused("tmod", f"/ladder join-share {code} cup")  # taken
    other = Chat(store, "telegram:-3", admins=("x",))
    wrong = await other.refused("x", "/ladder join-share ABCD-EFGH cup")
    assert await other.refused("x", f"/ladder join-share {code} cup") == wrong


async def test_unlinking_leaves_each_account_its_own_players(store: Any) -> None:
    discord, telegram = await shared(store)
    await discord.ok("alice", "/join")
    await link(discord, "alice", telegram, "al")
    assert "already" in await telegram.ok("al", "/join")  # the same player
    await telegram.ok("al", "/unlink")
    assert "already" not in await telegram.ok("al", "/join")  # a new player now
    assert sorted(await discord.ratings()) == ["al", "alice"]


async def test_either_chats_moderators_moderate_and_each_chat_names_it(store: Any) -> None:
    discord, telegram = await shared(store)
    assert "alone can delete" in await telegram.refused("tmod", "/ladder delete cup")
    await telegram.ok("tmod", "/ladder rename league")
    assert "main" in await discord.ok("mod", "/ladder info")
    assert "league" in await telegram.ok("tmod", "/ladder list")
    await telegram.ok("tmod", "/ladder set confirm=false")  # the one ladder's settings
    assert "confirm=false" in await discord.ok("mod", "/ladder info")
    assert "only its home chat" in await telegram.refused("tmod", "/ladder share")
    assert "home chat" in await telegram.refused("tmod", "/ladder pin")
    assert "already" in await telegram.refused("tmod", "/ladder create league preset=duel")


async def test_unsharing_ends_it_for_one_side_and_tells_the_other(store: Any) -> None:
    discord, telegram = await shared(store)
    reply = await telegram.say("tmod", "/ladder unshare")
    assert reply is not None and not reply.error
    assert [a.chat for a in reply.announcements] == [DISCORD]
    assert "no ladder" in (await telegram.refused("bob", "/join")).lower()
    assert "not shared" in await discord.refused("mod", "/ladder unshare")
    code = code_in(await discord.ok("mod", "/ladder share"))
    await telegram.ok("tmod", f"/ladder join-share {code} cup")
    reply = await discord.say("mod", "/ladder unshare")
    assert reply is not None and [a.chat for a in reply.announcements] == [TELEGRAM]
    assert "no ladder" in (await telegram.refused("bob", "/join")).lower()


async def test_a_share_code_works_once_and_not_in_its_own_chat(store: Any) -> None:
    discord, telegram = chats(store)
    await discord.ok("mod", "/ladder create main preset=duel")
    code = code_in(await discord.ok("mod", "/ladder share"))
    assert "already" in await discord.refused("mod", f"/ladder join-share {code} again")
    code = code_in(await discord.ok("mod", "/ladder share"))  # (the one tried is spent)
    await telegram.ok("tmod", f"/ladder join-share {code} cup")
    other = Chat(store, "telegram:-3", admins=("x",))
    assert "code" in await other.refused("x", f"/ladder join-share {code} cup")
    assert "moderators" in (await other.refused("y", "/ladder join-share AAAA-BBBB a")).lower()


async def test_scheduled_announcements_go_to_every_chat_that_plays_it(store: Any) -> None:
    discord, _ = await shared(store, "timezone=UTC")
    await discord.ok("alice", "/join")
    at = discord.at + 40 * 24 * 3600  # a month on: the season closes
    found = await store.run(lambda repo: (due_now(repo, at), repo.outbox_due(at))[1])
    chats_told = {a.chat for _, _, a in found}
    assert chats_told == {DISCORD, TELEGRAM}
    assert {a.ladder for _, _, a in found if a.chat == TELEGRAM} == {"cup"}


@pytest.mark.parametrize("store", ["memory"], indirect=True)
async def test_a_name_no_player_has_makes_no_player(store: Any) -> None:
    discord, telegram = await shared(store, t="ghost")
    assert "ghost" in await telegram.refused("tmod", "/mod add @ghost")
    assert await discord.ratings() == {}


async def test_the_web_shows_one_ladder_with_both_platforms_players(store: Any) -> None:
    discord, telegram = await shared(store)
    await discord.ok("alice", "/join")
    await telegram.ok("bob", "/join")
    await telegram.ok("tmod", "/ladder set public=true")
    listed = await store.run(ladder_list, commit=False)
    assert [(entry["name"], entry["players"]) for entry in listed] == [("main", 2)]


async def test_the_same_rules_hold_whichever_platform_a_command_comes_from(store: Any) -> None:
    discord, telegram = await shared(store, d="bob")
    await discord.ok("alice", "/join")
    await telegram.ok("bob", "/join")
    await telegram.ok("carol", "/join")
    await link(discord, "alice", telegram, "alice_t")
    await discord.ok("alice", "/report win @bob")
    # alice's own report, from her Telegram account: not hers to confirm
    assert "#1" in await telegram.refused("alice_t", "/confirm 1")
    assert "#1" in await telegram.refused("carol", "/confirm 1")  # nor a stranger's
    assert "bob" in await telegram.refused("alice_t", "/report win @bob")  # the same game
    await telegram.ok("bob", "/confirm 1")
    assert await telegram.ratings("cup") == {"alice": 1016, "bob": 984, "carol": 1000}


async def test_migrate_db_keeps_shares_and_links_and_every_table(
        tmp_path: Path, postgres_url: str) -> None:
    async with SqliteStore(tmp_path / "l.db") as source:
        discord, telegram = await shared(source)
        await discord.ok("alice", "/join")
        await link(discord, "alice", telegram, "al")
        tables = await source.run(lambda repo: {r[0] for r in repo.conn.execute(
            "SELECT name FROM sqlite_master WHERE type='table'")}, commit=False)
        assert {t for t, _ in TABLES} == tables - NOT_COPIED  # no table left behind
        async with PgStore(postgres_url) as target:
            copied = await copy_database(source, target)
            assert copied["shares"] == 1 and copied["links"] == 2
            moved = Chat(target, TELEGRAM, admins=("tmod",))
            assert "already" in await moved.ok("al", "/join")  # alice, linked, on cup


async def test_a_ladder_name_two_players_share_is_told_apart(store: Any) -> None:
    discord, telegram = await shared(store, d="bob")
    await discord.ok("alice", "/join")
    await discord.ok("bob", "/join")  # a Discord bob
    assert "bob (2) joined cup" in await telegram.ok("bob", "/join")  # and a Telegram one
    assert "alice beat bob." in await discord.ok("alice", "/report win @bob")  # the first


async def test_a_code_one_process_gave_another_takes_once(postgres_url: str) -> None:
    # Two stores on one database, as two processes: the code is in the database.
    async with PgStore(postgres_url) as first, PgStore(postgres_url) as second:
        discord = Chat(first, DISCORD, ephemeral=True)
        code = code_in(await discord.ok("alice", "/link"))
        there = Chat(second, TELEGRAM, alone=True)
        assert "Linked" in await there.ok("alice_t", f"/link {code}")
        private = Chat(first, TELEGRAM, alone=True)
        assert "does not work" in await private.refused("bob", f"/link {code}")
        assert await second.run(lambda repo: repo.linked("telegram:alice_t")) == \
            ("discord:alice",)


async def test_deleting_a_shared_ladder_tells_the_chats_it_was_shared_with(
        store: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # (PostgreSQL's store keeps the export in the current folder)
    discord, telegram = await shared(store)
    await discord.ok("mod", "/ladder delete main")  # (asks to confirm first)
    reply = await discord.say("mod", "/ladder delete main confirm")
    assert reply is not None and not reply.error
    assert [(a.chat, a.ladder) for a in reply.announcements] == [(TELEGRAM, "cup")]
    assert "no longer played here" in reply.announcements[0].text
    assert "no ladder" in (await telegram.refused("bob", "/join")).lower()


async def test_whether_a_chat_plays_a_shared_ladder(store: Any) -> None:
    # (the gateway asks it before naming a player of another platform by ladder name)
    assert await store.run(lambda repo: repo.plays_shared(DISCORD)) is False
    await shared(store)
    assert await store.run(lambda repo: [repo.plays_shared(c) for c in
                                         (DISCORD, TELEGRAM, "telegram:-9")]) == \
        [True, True, False]


async def test_a_chats_own_channel_and_role_are_no_news_for_the_other_chat(
        store: Any) -> None:
    # The home chat was told "cup: mod_role=... (was none)" as if its ladder had changed.
    discord, telegram = chats(store)
    await telegram.ok("tmod", "/ladder create main preset=duel")
    code = code_in(await telegram.ok("tmod", "/ladder share"))
    await discord.ok("mod", f"/ladder join-share {code} cup")
    for own in ("mod_role=1300000000000000777", "channel=1300000000000000778"):
        reply = await discord.say("mod", f"/ladder set {own}")
        assert reply is not None and not reply.error and reply.announcements == (), own
    reply = await discord.say("mod", "/ladder set k=20")  # a rule is news there too
    assert reply is not None and [a.chat for a in reply.announcements] == [TELEGRAM]


async def test_link_and_join_at_once_never_make_two_players_of_one_person(
        postgres_url: str) -> None:
    # Sent at once from one account on two processes, they left one person with two
    # players on one ladder in 11 of 40 tries (each read before the other wrote).
    import asyncio

    async with PgStore(postgres_url) as first, PgStore(postgres_url) as second:
        discord = Chat(first, DISCORD, ephemeral=True)
        await discord.ok("mod", "/ladder create main preset=duel")
        for n in range(20):
            await discord.ok(f"a{n}", "/join")
            code = code_in(await discord.ok(f"a{n}", "/link"))
            linking = Chat(second, TELEGRAM, alone=True)
            joining = Chat(first, DISCORD, ephemeral=True)
            code_b = code_in(await joining.ok("mod", "/ladder share")) if n == 0 else None
            if code_b is not None:
                await Chat(second, TELEGRAM, admins=("tmod",)).ok(
                    "tmod", f"/ladder join-share {code_b} cup")
            group = Chat(first, TELEGRAM)
            await asyncio.gather(linking.say(f"b{n}", f"/link {code}"),
                                 group.say(f"b{n}", "/join"))
            def accounts(repo: SqlRepo, n: int = n) -> tuple[tuple[str, ...], list[int],
                                                              list[int]]:
                return (repo.linked(f"telegram:b{n}"), repo.played_by(f"telegram:b{n}"),
                        repo.played_by(f"discord:a{n}"))

            both = await first.run(accounts)
            linked, b_plays, a_plays = both
            assert not (linked and set(b_plays) & set(a_plays)), (n, both)


async def test_roles_are_refused_where_a_shared_ladder_is_not_at_home(store: Any) -> None:
    # roles= set on the Discord side of a Telegram-home ladder was accepted and never
    # applied ("4 members still to update" forever): the roles follow a ladder at home.
    discord, telegram = chats(store)
    await telegram.ok("tmod", "/ladder create main preset=duel")
    code = code_in(await telegram.ok("tmod", "/ladder share"))
    await discord.ok("mod", f"/ladder join-share {code} cup")
    refused = await discord.refused("mod", "/ladder set roles=leagues")
    assert "made in a chat on Telegram" in refused and "gives none here" in refused


@pytest.mark.parametrize("store", ["memory"], indirect=True)  # (a feature: the twin's)
async def test_a_tournament_on_a_shared_ladder_is_played_and_told_in_both_chats(
        store: Any) -> None:
    """Created and started on Discord, joined and reported from both; every round, result
    and deadline told in each chat that plays the ladder, under that chat's name for it."""
    discord, telegram = await shared(store, "confirm=false", d="bob", t="alice")
    await discord.ok("alice", "/join")
    await telegram.ok("bob", "/join")
    await discord.ok("mod", "/tournament create spring format=single")
    await discord.ok("alice", "/tournament join")
    assert "bob joined spring" in await telegram.ok("bob", "/tournament join spring")
    started = await discord.say("mod", "/tournament start")
    assert started is not None and "1. alice – bob" in started.said
    [there] = [a for a in started.announcements if a.chat == TELEGRAM]
    assert there.ladder == "cup" and "1. alice – bob" in there.text
    assert started.notify == there.notify == ("discord:alice", "telegram:bob")
    won = await telegram.say("bob", "/report loss @alice")
    assert won is not None and "It counts for spring, round 1" in won.said
    assert "spring is over. Winner: alice!" in won.said
    [told] = [a for a in won.announcements if a.chat == DISCORD]
    assert told.ladder == "main" and "spring is over. Winner: alice!" in told.text
    assert "spring is over. Winner: alice" in await telegram.ok("tmod", "/tournament spring")
    # a deadline, found by the job of the ladder's home chat, is told in both
    await telegram.ok("tmod", "/tournament create autumn format=single round_hours=24")
    await discord.ok("alice", "/tournament join autumn")
    await telegram.ok("bob", "/tournament join autumn")
    await telegram.ok("tmod", "/tournament start autumn")
    at = discord.at + 25 * 3600
    found = await store.run(lambda repo: (due_now(repo, at), repo.outbox_due(at))[1])
    assert {(a.chat, a.ladder) for _, _, a in found
            if "autumn is over, without a winner" in a.text} == {(DISCORD, "main"),
                                                                  (TELEGRAM, "cup")}
