"""The Telegram adapter, offline, through python-telegram-bot's real code: updates built
with `Update.de_json` from Bot API JSON, processed by the real `Application`, every
request answered by a recording stand-in of the Bot API."""

from __future__ import annotations

from tests.support.adapters import TelegramHarness as Harness
from tests.support.telegram_fake import message, person
from tests.support.telegram_play import ALICE, BOB, CAROL, DAVE, MOD, ladder


async def test_commands_are_registered_for_groups_and_private_chats(tg: Harness) -> None:
    registered = [p for m, p in tg.api.calls if m == "setMyCommands"]
    assert [(p["scope"]["type"], p.get("language_code")) for p in registered] == [
        ("all_group_chats", None), ("all_private_chats", None),
        ("all_group_chats", "ru"), ("all_private_chats", "ru"),
        ("all_group_chats", "nl"), ("all_private_chats", "nl")]
    groups, private = registered[:2]
    assert groups["scope"]["type"] == "all_group_chats"
    assert {c["command"] for c in groups["commands"]} >= {
        "ladder", "join", "leave", "challenge", "accept", "decline", "available", "unavailable",
        "report", "confirm", "dispute", "withdraw", "standings", "profile", "history",
        "halloffame", "mod", "help"}
    assert private["scope"]["type"] == "all_private_chats"
    assert {c["command"] for c in private["commands"]} == {
        "help", "standings", "profile", "history", "halloffame", "ladder", "players",
        "suggest", "link", "unlink", "h2h"}
    # The menu in the user's own language; the command words stay as they are.
    russian = {c["command"]: c["description"] for c in registered[2]["commands"]}
    dutch = {c["command"]: c["description"] for c in registered[4]["commands"]}
    assert russian["report"] == "Сообщить результат сыгранной игры"
    assert dutch["join"] == "Meedoen aan de ladder"
    assert set(russian) == {c["command"] for c in groups["commands"]}


async def test_a_duel_from_create_to_confirm_button(tg: Harness) -> None:
    [created] = await tg.say(MOD, "/ladder create main preset=duel")
    assert created.startswith("Ladder main created with the duel rulebook")
    assert (await tg.say(ALICE, "/join"))[0].startswith("alice joined main at 1000")
    await tg.say(BOB, "/join@LadderBot")
    [pending] = await tg.say(ALICE, "/report win @bob")
    assert pending.startswith("Match #1 reported: alice beat bob.")
    markup = tg.api.sent()[-1]["reply_markup"]
    assert [b["callback_data"] for b in markup["inline_keyboard"][0]] == [
        "confirm:main:1", "dispute:main:1", "withdraw:main:1"]
    [confirmed] = await tg.press(BOB, "confirm:main:1")
    assert "alice 1000 -> 1016 (+16), bob 1000 -> 984 (-16)" in confirmed
    assert {p["name"]: p["rating"] for p in (await tg.export())["players"]} == {
        "alice": 1016, "bob": 984}
    assert ("editMessageReplyMarkup" in [m for m, _ in tg.api.calls])


async def test_commands_for_other_bots_are_ignored(tg: Harness) -> None:
    await ladder(tg)
    assert await tg.say(ALICE, "/standings@SomeOtherBot") == []
    assert await tg.say(ALICE, "/standings@LadderBot") != []


async def test_bad_input_gets_a_clear_reply_and_changes_nothing(tg: Harness) -> None:
    await ladder(tg, "confirm=false")
    before = await tg.export()
    assert (await tg.say(ALICE, "/frobnicate"))[0].startswith("I don't know the command")
    [unknown] = await tg.say(ALICE, "/report win @zed")
    assert "ask @zed to /join first" in unknown
    [stranger] = await tg.say(DAVE, "/report win @bob")
    assert "not on main yet: /join first" in stranger
    await tg.say(DAVE, "/join")
    [outsider] = await tg.say(DAVE, "/report ffa @alice @bob")
    assert outsider == "Only a player in the game can report it."
    assert (await tg.export())["players"] == before["players"] + [
        {**before["players"][0], "name": "dave", "games": 0, "rated_games": 0, "wins": 0}]
    assert (await tg.export())["matches"] == []


async def test_a_stranger_pressing_confirm_is_told_and_nothing_changes(tg: Harness) -> None:
    await ladder(tg)
    await tg.say(DAVE, "/join")
    await tg.say(ALICE, "/report win @bob")
    assert await tg.press(DAVE, "confirm:main:1") == []
    alert = tg.alerts()[-1]
    assert alert["show_alert"] is True
    assert alert["text"] == "Only the players of match #1 can confirm it."
    assert await tg.press(ALICE, "confirm:main:1") == []
    assert "Your side reported #1" in tg.alerts()[-1]["text"]
    assert (await tg.export())["matches"][0]["status"] == "pending"


async def test_withdraw_button_is_for_the_side_that_reported(tg: Harness) -> None:
    await ladder(tg)
    await tg.say(ALICE, "/report win @bob")
    assert await tg.press(BOB, "withdraw:main:1") == []
    assert "your opponent reported #1: /dispute 1" in tg.alerts()[-1]["text"]
    [withdrawn] = await tg.press(ALICE, "withdraw:main:1")
    assert withdrawn == "Match #1 (alice beat bob) withdrawn by alice: it never counted."
    assert (await tg.export())["matches"][0]["status"] == "voided"


async def test_dispute_button(tg: Harness) -> None:
    await ladder(tg)
    await tg.say(ALICE, "/report win @bob")
    [disputed] = await tg.press(BOB, "dispute:main:1")
    assert "is disputed" in disputed
    assert (await tg.export())["matches"][0]["status"] == "disputed"


async def test_text_mention_names_a_user_without_username(tg: Harness) -> None:
    await ladder(tg, "confirm=false")
    await tg.say(CAROL, "/join")
    text = "/report win Carol"
    [done] = await tg.say(ALICE, text, entities=[
        {"type": "text_mention", "offset": 12, "length": 5, "user": CAROL}])
    assert "alice 1000 -> 1016 (+16), Carol 1000 -> 984 (-16)" in done


async def test_replying_to_the_opponent_names_them(tg: Harness) -> None:
    await ladder(tg, "confirm=false")
    said = message("gg", ALICE, message_id=77)["message"]
    [done] = await tg.say(BOB, "/report loss", reply_to=said)
    assert "alice 1000 -> 1016 (+16), bob 1000 -> 984 (-16)" in done


async def test_usernames_are_learned_from_messages(tg: Harness) -> None:
    await ladder(tg, "confirm=false")
    eve = person(106, "Eve", "eve")
    assert "ask @eve to /join first" in (await tg.say(ALICE, "/report win @eve"))[0]
    await tg.say(eve, "hello everyone")  # a plain message teaches the bot who @eve is
    assert "eve has not joined main" in (await tg.say(ALICE, "/report win @eve"))[0]


async def test_moderators_are_the_group_administrators_cached(tg: Harness) -> None:
    [refused] = await tg.say(ALICE, "/ladder create main preset=duel")
    assert refused.startswith("Only moderators")
    await tg.say(MOD, "/ladder create main preset=duel")
    await tg.say(MOD, "/ladder set confirm=false")
    asked = [p for m, p in tg.api.calls if m == "getChatAdministrators"]
    assert len(asked) == 1  # cached for the next commands


async def test_private_chat_reads_the_users_ladder_and_refuses_play(tg: Harness) -> None:
    await ladder(tg, "confirm=false")
    private = {"id": ALICE["id"], "type": "private", "first_name": "Alice"}
    [standings] = await tg.say(ALICE, "/profile", chat=private)
    assert standings.startswith("alice on main: rating 1000")
    [members] = await tg.say(ALICE, "/players", chat=private)
    assert members.startswith("main: 2 members")
    [fair] = await tg.say(ALICE, "/suggest", chat=private)
    assert fair == "Fair games for alice on main now: bob (1000)."
    [refused] = await tg.say(ALICE, "/report win @bob", chat=private)
    assert refused.startswith("In a private chat I only show things")
    [lonely] = await tg.say(DAVE, "/standings", chat={**private, "id": DAVE["id"]})
    assert "not on any ladder yet" in lonely


async def test_a_dutch_ladders_report_and_buttons_speak_dutch(tg: Harness) -> None:
    await tg.say(MOD, "/ladder create main preset=dutch language=nl")
    await tg.say(ALICE, "/join")
    await tg.say(BOB, "/join")
    [pending] = await tg.say(ALICE, "/report win @bob")
    assert pending.startswith("Uitslag van wedstrijd #1: alice wint van bob.")
    markup = tg.api.sent()[-1]["reply_markup"]
    assert [b["text"] for b in markup["inline_keyboard"][0]] == [
        "Bevestigen", "Betwisten", "Intrekken"]
    assert [b["callback_data"] for b in markup["inline_keyboard"][0]] == [
        "confirm:main:1", "dispute:main:1", "withdraw:main:1"]
    [confirmed] = await tg.press(BOB, "confirm:main:1")
    assert confirmed.startswith("Wedstrijd #1 bevestigd: alice wint van bob.")
