"""Issue 47: nobody acts where they don't belong. Each case failed before its fix: a
check made on one path only, or on another ladder than the one the command acts on."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from tests.support.adapters import DiscordHarness, telegram_harness
from tests.support.chat import Chat
from tests.support.discord_payloads import (
    GUILD,
    button,
    command,
    member,
    option,
    person,
    user_option,
    with_user,
)
from tests.support.discord_play import ALICE, BOB, MOD, ephemeral, ladder, report, text
from tests.support.platform_limits import telegram_entities
from tests.support.telegram_fake import COMMANDS, GROUP
from tests.support.telegram_fake import person as tg_person

ROLE = 1300000000000000777
HELPER = member(person(1300000000000000106, "helper"), roles=[ROLE])
YOURSELF = "You cannot report a game against yourself: name your opponent."
DRAW_MARGIN = "A draw carries no margin."
CODE = re.compile(r"\b[A-Z2-9]{4}-[A-Z2-9]{4}\b")


# ---- a game against oneself, a draw with a margin: refused on every path, alike
async def test_a_player_cannot_report_against_himself_through_typed_options(
        dc: DiscordHarness) -> None:
    await ladder(dc, "confirm=false")
    answer = await dc.send(report(ALICE, "win", ALICE))
    assert text(answer).startswith(YOURSELF) and ephemeral(answer)
    drawn = await dc.send(report(ALICE, "draw", BOB, option("margin", "major")))
    assert text(drawn).startswith(DRAW_MARGIN) and ephemeral(drawn)
    assert [p["rating"] for p in (await dc.export())["players"]] == [1000, 1000]


async def test_the_same_refusals_in_the_same_words_on_telegram(tmp_path: Path) -> None:
    mod, alice = tg_person(101, "mod", "mod"), tg_person(102, "alice", "alice")
    bob = tg_person(103, "bob", "bob")
    async with telegram_harness(tmp_path / "t.db", [mod]) as tg:
        await tg.say(mod, "/ladder create main preset=duel confirm=false")
        for who in (alice, bob):
            await tg.say(who, "/join")
        assert (await tg.say(alice, "/report win @alice"))[0].startswith(YOURSELF)
        assert (await tg.say(alice, "/report draw @bob major"))[0].startswith(DRAW_MARGIN)
        assert [p["rating"] for p in (await tg.export())["players"]] == [1000, 1000]


async def test_the_same_refusals_on_the_console(chat: Chat) -> None:
    await chat.ladder("duel", "confirm=false")
    await chat.join("alice", "bob")
    assert (await chat.refused("alice", "/report win @alice")).startswith(YOURSELF)
    assert (await chat.refused("alice", "/report draw @bob major")).startswith(DRAW_MARGIN)
    assert DRAW_MARGIN in await chat.refused("mod", "/mod set 1 draw major because")


# ---- one ladder's moderators' role moderates that ladder, not the server's others
async def test_a_ladders_role_does_not_reach_another_ladder_named_inside_an_option(
        dc: DiscordHarness) -> None:
    await ladder(dc, "confirm=false", f"mod_role={ROLE}")
    await dc.send(command("create", option("name", "other"), option("preset", "duel"),
                          option("options", "confirm=false"), by=MOD, group="ladder"))
    await dc.send(command("join", option("ladder", "other"), by=ALICE))
    await dc.send(command("join", option("ladder", "other"), by=BOB))
    await dc.send(report(ALICE, "win", BOB, option("ladder", "other")))
    tries: list[dict[str, Any]] = [
        command("set", option("options", "public=true k=99 ladder=other"), by=HELPER,
                group="ladder"),
        command("set", option("match", 1), option("result", f"<@{BOB['user']['id']}>"),
                option("reason", "because ladder=other"), by=HELPER, group="mod"),
        command("delete", option("name", "other"), option("confirm", True), by=HELPER,
                group="ladder"),
        command("create", option("name", "third"), option("preset", "duel"), by=HELPER,
                group="ladder"),
    ]
    for payload in tries:
        answer = await dc.send(payload)
        assert "Only moderators" in text(answer) and ephemeral(answer), text(answer)
    other = await dc.store.run(lambda repo: repo.ladder(f"discord:{GUILD}", "other"))
    assert other is not None and other.settings.k != 99 and not other.public
    # ... and it still moderates its own ladder
    done = await dc.send(command("adjust", with_user(user_option("player", ALICE["user"]),
                                                     ALICE["user"]),
                                 option("amount", 5), option("reason", "fair play"),
                                 by=HELPER, group="mod"))
    assert "alice 1000 -> 1005 (+5)" in text(done)


# ---- a secret is shown only where nobody else can read it
async def test_a_telegram_share_code_goes_to_the_askers_private_chat(tmp_path: Path) -> None:
    # It was the group's answer: any member could join-share the ladder from a group of
    # their own and moderate it from there.
    mod, eve = tg_person(101, "mod", "mod"), tg_person(104, "eve", "eve")
    async with telegram_harness(tmp_path / "t.db", [mod]) as tg:
        await tg.say(mod, "/ladder create main preset=duel")
        not_started = await tg.say(mod, "/ladder share")
        assert not_started and "open a private chat with @LadderBot" in not_started[0]
        await tg.say(mod, "/help", chat={"id": 101, "type": "private", "first_name": "mod"})
        answers = await tg.say(mod, "/ladder share")
        assert answers[-1] == "I sent it to you in a private chat: only you can read it there."
        [code] = [CODE.search(m).group(0) for m in tg.api.texts(101)  # type: ignore[union-attr]
                  if CODE.search(m)]
        assert all(code not in m for m in tg.api.texts(GROUP["id"]))
        assert tg.api.texts(eve["id"]) == []


# ---- what a user typed is shown as typed: never a mention, a command, a tag or a pill
async def test_names_and_reasons_make_no_entity_on_telegram(tmp_path: Path) -> None:
    mod = tg_person(101, "mod", "mod")
    victim = tg_person(105, "@victim_user")  # no username: shown by the name as typed
    leaver = tg_person(106, "/leave@LadderBot")
    async with telegram_harness(tmp_path / "t.db", [mod]) as tg:
        tg.api.usernames.add("victim_user")  # (an account the name would have pinged)
        await tg.say(mod, "/ladder create main preset=duel confirm=false")
        for who in (victim, leaver):
            await tg.say(who, "/join")
        said_by_victim = {"message_id": 2, "date": 1767607200, "chat": GROUP, "from": victim,
                          "text": "gg"}
        await tg.say(leaver, "/report win", reply_to=said_by_victim)
        await tg.say(mod, "/mod void 1 see #rules and $TAG /leave@LadderBot")
        said = "\n".join(tg.api.texts())
        assert "/\u200bleave@LadderBot beat @\u200bvictim_user" in said
        assert "#\u200brules and $\u200bTAG /\u200bleave" in said
        found = [e for text in tg.api.texts() for e in telegram_entities(
            text, COMMANDS, set()) if "victim" in e or "leave" in e or "#" in e or "$" in e]
        assert found == []  # (the harness checks every other entity on leaving)


async def test_names_make_no_pill_on_discord(dc: DiscordHarness) -> None:
    await ladder(dc, "confirm=false")
    faker = member(person(1300000000000000107, "<@&1300000000000000777> <t:0:R>"))
    await dc.send(command("join", by=faker))
    answer = await dc.send(report(faker, "win", ALICE))
    assert "<\u200b@&1300000000000000777> <\u200bt:0:R> beat alice" in text(answer)


# ---- names that look alike are told apart
async def test_names_that_look_alike_are_told_apart(store: Any) -> None:
    # A zero-width space or a Cyrillic "а" made two players show as one "alice".
    chat = Chat(store)
    await chat.ladder("duel", "confirm=false")
    await chat.join("alice", "\u0430lice", "al\u200bice", "ALICE", "bob")
    names = [p["name"] for p in (await chat.export())["players"]]
    assert names == ["alice", "\u0430lice (2)", "al\u200bice (3)", "ALICE (4)", "bob"]
    answer = await chat.ok("\u0430lice", "/report win @alice")
    assert "\u0430lice (2) beat alice" in answer
    await chat.ok("\u0430lice", "/profile")  # (its account's name is unchanged: it stays
    after = {p["name"] for p in (await chat.export())["players"]}  # told apart)
    assert after == set(names)


# ---- pages turned with buttons, their hints named as each platform names options
async def test_standings_pages_turn_with_buttons_on_telegram(tmp_path: Path) -> None:
    # The hint "… /standings page=2" was no Telegram command (a tap sent page 1).
    mod = tg_person(101, "mod", "mod")
    people = [tg_person(200 + n, f"p{n:02d}", f"player{n:02d}") for n in range(23)]
    async with telegram_harness(tmp_path / "t.db", [mod]) as tg:
        await tg.say(mod, "/ladder create main preset=duel calibration=0")
        for who in people:
            await tg.say(who, "/join")
        [first] = await tg.say(people[0], "/standings rating")
        assert "/standings rating page=2" in first  # (said as typed here)
        markup = tg.api.sent()[-1]["reply_markup"]
        [[ahead]] = markup["inline_keyboard"]
        assert (ahead["text"], ahead["callback_data"]) == ("Next ▶", "pg:s:2:main:rating")
        await tg.press(people[1], ahead["callback_data"])
        [edit] = [p for m, p in tg.api.calls if m == "editMessageText"]
        assert edit["text"].startswith("main: rating") and "page 2 of 2" in edit["text"]
        [[back]] = edit["reply_markup"]["inline_keyboard"]
        assert (back["text"], back["callback_data"]) == ("◀ Previous", "pg:s:1:main:rating")
        assert all(len(b["callback_data"].encode()) <= 64 for b in (ahead, back))
        # in a private chat too: the page of the asker's ladder of that name, in its group
        private = {"id": people[0]["id"], "type": "private", "first_name": "p00"}
        shown = await tg.say(people[0], "/standings rating", chat=private)
        assert shown and "reply_markup" in tg.api.sent(people[0]["id"])[-1], shown
        await tg.press(people[0], "pg:s:2:main:rating")
        edits = [p for m, p in tg.api.calls if m == "editMessageText"]
        assert int(edits[-1]["chat_id"]) == people[0]["id"] and "page 2 of 2" in edits[-1]["text"]


async def test_standings_pages_turn_with_buttons_on_discord(dc: DiscordHarness) -> None:
    await ladder(dc, "calibration=0")
    for n in range(21):
        await dc.send(command("join", by=member(person(1300000000000000300 + n, f"q{n:02d}"))))
    first = await dc.send(command("standings", option("table", "rating"), by=ALICE))
    assert "/standings table:rating page:2" in text(first)  # (Discord's way)
    [row] = first["components"]
    [ahead] = row["components"]
    assert (ahead["label"], ahead["custom_id"]) == ("Next ▶", "pg:s:2:main:rating")
    turned = await dc.send(button(ahead["custom_id"], by=BOB))
    assert "page 2 of 2" in text(turned) and ephemeral(turned)  # (to the presser alone)
    [back] = turned["components"][0]["components"]
    assert back["custom_id"] == "pg:s:1:main:rating"
