"""A chat of several ladders through the strict Discord and Telegram stand-ins (issue 51):
a typed command without `ladder=` goes where it is awaited, and where two ladders fit the
question comes with a button for each, whose press answers on that ladder alone."""

from __future__ import annotations

from tests.support.adapters import DiscordHarness, TelegramHarness
from tests.support.discord_payloads import button, command, option
from tests.support.discord_play import ALICE, BOB, MOD, ephemeral, report, text
from tests.support.telegram_play import ALICE as T_ALICE
from tests.support.telegram_play import BOB as T_BOB
from tests.support.telegram_play import MOD as T_MOD

ASKED = "Something waits for you on 2 ladders here: say which, "


async def test_discord_routes_typed_commands_and_offers_a_button_a_ladder(
        dc: DiscordHarness) -> None:
    for name in ("main", "cup"):
        await dc.send(command("create", option("name", name), option("preset", "duel"),
                              by=MOD, group="ladder"))
        for who in (ALICE, BOB):
            await dc.send(command("join", option("ladder", name), by=who))
    await dc.send(report(ALICE, "win", BOB, option("ladder", "cup")))
    # bob's typed /confirm, no ladder option: cup is where a report waits for him
    confirmed = await dc.send(command("confirm", by=BOB))
    assert text(confirmed).startswith("Match #1 confirmed: alice beat bob.")
    await dc.send(report(ALICE, "win", BOB))
    await dc.send(report(ALICE, "win", BOB, option("ladder", "cup"), option("again", True)))
    asked = await dc.send(command("confirm", by=BOB))
    assert ephemeral(asked)
    assert text(asked) == ASKED + "/confirm ladder=main or /confirm ladder=cup."
    rows = [row["components"] for row in asked["components"]]
    assert [[(b["label"], b["custom_id"]) for b in row] for row in rows] == [
        [("Confirm: main", "lb:confirm:0:main")], [("Confirm: cup", "lb:confirm:0:cup")]]
    pressed = await dc.send(button("lb:confirm:0:cup", BOB))
    assert text(pressed).startswith("Match #2 confirmed: alice beat bob.")
    matches = {name: [m["status"] for m in (await dc.export(name))["matches"]]
               for name in ("main", "cup")}
    assert matches == {"main": ["pending"], "cup": ["confirmed", "confirmed"]}
    assert dc.fake.refused == []


async def test_telegram_asks_which_ladder_with_buttons(tg: TelegramHarness) -> None:
    for name in ("main", "кубок"):
        await tg.say(T_MOD, f"/ladder create {name} preset=duel language=ru")
        for who in (T_ALICE, T_BOB):
            await tg.say(who, f"/join ladder={name}")
    await tg.say(T_ALICE, "/report win @bob")
    await tg.say(T_ALICE, "/report win @bob ladder=кубок")
    asked = await tg.say(T_BOB, "/confirm")
    assert asked[-1] == ("Вас ждут на 2 ладдерах этого чата: уточните, /confirm ladder=main или "
                         "/confirm ladder=кубок.")
    markup = tg.api.sent()[-1]["reply_markup"]
    buttons = [[(b["text"], b["callback_data"]) for b in row]
               for row in markup["inline_keyboard"]]
    assert buttons == [[("Подтвердить: main", "confirm:main:0")],
                       [("Подтвердить: кубок", "confirm:кубок:0")]]
    said = await tg.press(T_BOB, "confirm:кубок:0")
    assert any(line.startswith("Матч #1 подтверждён") for line in said)
    assert tg.api.refused == []


async def test_an_accept_awaited_on_two_ladders_is_asked_with_buttons(tg: TelegramHarness) -> None:
    for name in ("cup", "league"):
        await tg.say(T_MOD, f"/ladder create {name} preset=nhwc")
        for who in (T_BOB, T_ALICE):  # (alice below bob: she may challenge him)
            await tg.say(who, f"/join ladder={name}")
        await tg.say(T_ALICE, f"/challenge @bob ladder={name}")
    asked = await tg.say(T_BOB, "/accept")
    assert asked[-1] == ASKED + "/accept ladder=cup or /accept ladder=league."
    rows = tg.api.sent()[-1]["reply_markup"]["inline_keyboard"]
    assert [(b["text"], b["callback_data"]) for row in rows for b in row] == [
        ("Accept: cup", "accept:cup:0"), ("Accept: league", "accept:league:0")]
    said = await tg.press(T_BOB, "accept:league:0")
    assert any(line.startswith("bob accepts alice's challenge #1") for line in said)
    assert tg.api.refused == []
