"""/h2h: two players' record against each other, on the console, Discord (typed options)
and Telegram, in en, ru and nl. The rating numbers are RULES.md's duel (§3): at 1000 each
the winner gains 16; then bob (984) beats alice (1016) for round(32 * (1 - E)); a draw
between 999 and 1001 moves round(32 * (E_higher - 0.5)) = 0."""

from __future__ import annotations

from pathlib import Path

from storage.memory.store import MemoryStore
from tests.support.adapters import discord_harness, telegram_harness
from tests.support.chat import Chat
from tests.support.discord_payloads import command, option, user_option, with_user
from tests.support.discord_play import ALICE, BOB, ephemeral, ladder, text
from tests.support.telegram_fake import person as tg_person

# bob's win at 984 against 1016: 32 * (1 - 1 / (1 + 10 ** (32 / 400))), rounded
BOBS_WIN = round(32 * (1 - 1 / (1 + 10 ** (32 / 400))))
ALICE_MOVED = 16 - BOBS_WIN


async def _three_games(chat: Chat, preset_options: str = "") -> None:
    await chat.ladder("duel", "confirm=false", preset_options)
    await chat.join("alice", "bob", "carol")
    await chat.ok("alice", "/report win @bob")
    await chat.ok("bob", "/report win @alice")
    await chat.ok("alice", "/report draw @bob")
    await chat.ok("alice", "/report win @carol")  # (not theirs: left out)


async def test_the_record_of_two_players_told_from_the_askers_side(store: object) -> None:
    # (on all three stores: the rating moved is read from each one's stored changes)
    chat = Chat(store)
    await _three_games(chat)
    assert BOBS_WIN == 17 and ALICE_MOVED == -1
    answer = await chat.ok("alice", "/h2h @bob")
    lines = answer.splitlines()
    assert lines[0] == "alice vs bob on main"
    assert lines[1] == "3 games: alice 1 win, bob 1 win, 1 draw"
    assert lines[2] == f"Rating in these games: alice {ALICE_MOVED}, bob +{-ALICE_MOVED}"
    assert [line.split(" ", 1)[0] for line in lines[3:]] == ["#3", "#2", "#1"]
    # Someone else asks about the pair, the other way round: the same games.
    other = await chat.ok("carol", "/h2h @bob @alice")
    assert other.splitlines()[1] == "3 games: bob 1 win, alice 1 win, 1 draw"
    ratings = {p["name"]: p["rating"] for p in (await chat.export())["players"]}
    assert ratings["alice"] - 1000 == ALICE_MOVED + 16  # (+16 from beating carol)


async def test_h2h_refuses_what_it_cannot_answer() -> None:
    chat = Chat(MemoryStore())
    await _three_games(chat)
    assert (await chat.refused("alice", "/h2h")).startswith(
        "Name a player: /h2h @bob (you against bob), or two: /h2h @alice @bob.")
    assert await chat.refused("alice", "/h2h @alice") == \
        "That is one player twice: name two different players."
    await chat.join("dave")
    assert await chat.ok("dave", "/h2h @alice") == \
        "dave and alice have not played each other on main yet."


async def test_h2h_pages_five_games_at_a_time() -> None:
    chat = Chat(MemoryStore())
    await _three_games(chat)
    for _ in range(3):
        await chat.ok("bob", "/report win @alice again")
    first = await chat.ok("carol", "/h2h @alice @bob")
    assert len([line for line in first.splitlines() if line.startswith("#")]) == 5
    assert first.splitlines()[-1] == "… older matches: /h2h @alice @bob page=2"
    second = await chat.ok("carol", "/h2h @alice @bob page=2")
    assert second.splitlines()[0] == "alice vs bob on main, page 2"
    assert [line.split(" ", 1)[0] for line in second.splitlines()[3:]] == ["#1"]


async def test_h2h_in_russian_and_dutch() -> None:
    store = MemoryStore()
    ru = Chat(store, chat="ru")
    await _three_games(ru, "language=ru")
    said = (await ru.ok("alice", "/h2h @bob")).splitlines()
    # (names in the nominative: "против bob", "у alice" wanted other cases of them)
    assert said[0] == "alice — bob в main"
    assert said[1] == "Всего — 3 игры: alice — 1 победа, bob — 1 победа, 1 ничья"
    nl = Chat(store, chat="nl")
    await _three_games(nl, "language=nl")
    assert (await nl.ok("alice", "/h2h @bob")).splitlines()[:2] == [
        "alice tegen bob op main", "3 partijen: alice 1 gewonnen, bob 1 gewonnen, 1 gelijk"]


async def test_h2h_through_discords_typed_options_and_telegram(tmp_path: Path) -> None:
    async with discord_harness(tmp_path / "d.db") as dc:
        await ladder(dc, "confirm=false")
        await dc.send(command("report", option("result", "win"),
                              with_user(user_option("opponent", BOB["user"]), BOB["user"]),
                              by=ALICE))
        answer = await dc.send(command(
            "h2h", with_user(user_option("player", BOB["user"]), BOB["user"]), by=ALICE))
        assert text(answer).splitlines()[:2] == ["alice vs bob on main",
                                                 "1 game: alice 1 win, bob 0 wins, 0 draws"]
        assert not ephemeral(answer)
    mod, alice, bob = (tg_person(101, "mod", "mod"), tg_person(102, "alice", "alice"),
                       tg_person(103, "bob", "bob"))
    async with telegram_harness(tmp_path / "t.db", [mod]) as tg:
        await tg.say(mod, "/ladder create main preset=duel confirm=false")
        for who in (alice, bob):
            await tg.say(who, "/join")
        await tg.say(alice, "/report win @bob")
        said = await tg.say(alice, "/h2h @bob")
        assert said[-1].splitlines()[:2] == ["alice vs bob on main",
                                             "1 game: alice 1 win, bob 0 wins, 0 draws"]
