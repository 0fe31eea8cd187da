"""Ladder names in a community's own script (issue 51): letters of any script, digits, `-`
and `_`, kept in NFC; a name that looks like one the chat has is refused. A name is at
most 32 characters and 40 bytes, so that Telegram's buttons (64 bytes of data) carry it:
checked through the strict stand-in. `/ladder create лига` was refused before."""

from __future__ import annotations

import json

from bot.gateway import buttons_of, page_buttons
from bot.telegram.render import keyboard
from core.commands.words import MAX_PAGE
from core.domain.records import Paging
from storage.memory.store import MemoryStore
from tests.support.adapters import TelegramHarness
from tests.support.chat import Chat
from tests.support.telegram_play import ALICE, BOB, MOD

TWENTY = "чемпионатвыходныхдня"  # 20 letters, 40 bytes in UTF-8


async def test_names_in_any_script_in_nfc() -> None:
    chat = Chat(MemoryStore())
    assert (await chat.ok("mod", "/ladder create лига preset=duel language=ru")).startswith(
        "Ладдер лига создан")
    await chat.ok("mod", "/ladder create हिन्दी preset=duel")
    # `e` and a combining accent is the name `café` (U+00E9): either spelling finds it
    await chat.ok("mod", "/ladder create cafe\u0301 preset=duel")
    assert "café" in await chat.ok("alice", "/join ladder=caf\u00e9")
    assert "café" in await chat.ok("bob", "/join ladder=cafe\u0301")
    assert [p["name"] for p in (await chat.export("café"))["players"]] == ["alice", "bob"]
    assert "лига" in await chat.ok("alice", "/join ladder=лига")


async def test_a_name_that_looks_like_a_ladder_of_the_chat_is_refused() -> None:
    chat = Chat(MemoryStore())
    await chat.ladder("duel")
    refusal = ("mаin looks like main, a ladder of this chat already: choose a name nobody can "
               "mistake for it.")
    assert await chat.refused("mod", "/ladder create mаin preset=duel") == refusal  # Cyrillic а
    assert (await chat.refused("mod", "/ladder create MAIN preset=duel")).startswith(
        "MAIN looks like main")
    await chat.ladder("duel", name="cup")
    assert (await chat.refused("mod", "/ladder rename mаin ladder=cup")).startswith(
        "mаin looks like main")
    assert "CUP" in await chat.ok("mod", "/ladder rename CUP ladder=cup")  # (its own look)


async def test_a_name_is_refused_past_32_characters_or_40_bytes() -> None:
    chat = Chat(MemoryStore(), chat="ru")
    too_long = TWENTY + "-"  # 21 characters, 41 bytes
    assert len(TWENTY.encode()) == 40 < len(too_long.encode())
    assert (await chat.refused("mod", f"/ladder create {too_long} preset=duel language=ru")
            ).startswith("Название ладдера — от 1 до 32 букв любого алфавита")  # (the line's)
    assert (await chat.refused("mod", "/ladder create x:y preset=duel")).startswith(
        "A ladder name is")
    await chat.ok("mod", f"/ladder create {TWENTY} preset=duel")
    await chat.ok("mod", f"/ladder create {'a' * 32} preset=duel")


async def test_telegram_buttons_carry_the_longest_name(tg: TelegramHarness) -> None:
    await tg.say(MOD, "/ladder create main preset=duel")
    await tg.say(MOD, f"/ladder create {TWENTY} preset=duel calibration=0")
    for who in (ALICE, BOB):
        await tg.say(who, f"/join ladder={TWENTY}")
    said = await tg.say(ALICE, "/report win @bob")  # (alice plays that ladder alone)
    assert f"/confirm ladder={TWENTY}" in said[-1]
    buttons = json.dumps([p["reply_markup"] for p in tg.api.sent() if "reply_markup" in p],
                         ensure_ascii=False)
    assert f"withdraw:{TWENTY}:1" in buttons
    said = await tg.press(BOB, f"confirm:{TWENTY}:1")
    assert any("confirmed" in text for text in said)
    assert tg.api.refused == []


def test_the_longest_button_data_fits_telegrams_64_bytes() -> None:
    # (the data a ladder name goes into, at its longest: the last page, a long match id)
    name = "я" * 20
    data = [d for _, d in page_buttons(Paging("standings", MAX_PAGE - 1, True, "season"), name)]
    assert len(data) == 2 and max(len(d.encode()) for d in data) <= 64
    markup = keyboard(buttons_of(None, 2**31 - 1), name, "ru")
    assert markup is not None
    assert max(len(str(b.callback_data).encode()) for row in markup.inline_keyboard
               for b in row) == len(f"withdraw:{name}:{2**31 - 1}".encode()) <= 64
