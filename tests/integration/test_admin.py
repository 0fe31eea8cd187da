"""What an admin expects on day one: /players, /standings rating, pages, bans, /mod add,
/ladder rename and /ladder delete (issue: a community's first months)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from storage.sqlite.store import SqliteStore
from tests.support.chat import Chat


async def _duel(chat: Chat, n: int) -> list[str]:
    await chat.ladder("duel", "confirm=false")
    names = [f"p{i:02d}" for i in range(1, n + 1)]
    await chat.join(*names)
    return names


async def test_players_lists_members_by_name_a_page_at_a_time(chat: Chat) -> None:
    names = await _duel(chat, 25)
    await chat.ok("p02", "/report win @p01")
    first = (await chat.ok("p01", "/players")).splitlines()
    assert first[0] == "main: 25 members, page 1 of 2"
    assert first[1] == "p01: 984 (calibrating), 1 game"
    assert [line.split(":")[0] for line in first[1:21]] == names[:20]
    assert first[-1] == "… and 5 more: /players page=2"
    second = (await chat.ok("p01", "/players page=2")).splitlines()
    assert [line.split(":")[0] for line in second[1:]] == names[20:]
    assert await chat.refused("p01", "/players page=3") == \
        "There is no page 3: there are 2 pages."
    assert "page=N takes a page number" in await chat.refused("p01", "/players page=0")


async def test_standings_rating_lists_everyone_with_calibrating_marked(chat: Chat) -> None:
    await _duel(chat, 3)
    await chat.ok("p01", "/report win @p02")
    text = await chat.ok("p03", "/standings rating")
    assert text.splitlines() == ["main: ratings", "1. p01 1016 (Calibration)",
                                 "2. p03 1000 (Calibration)", "3. p02 984 (Calibration)"]
    # the ladder table lists none of them yet (calibration)
    assert "No one is listed now" in await chat.ok("p03", "/standings ladder")


async def test_standings_and_history_page_with_a_more_hint(chat: Chat) -> None:
    await _duel(chat, 45)
    await chat.ok("p44", "/report win @p45")  # p45 last
    page = (await chat.ok("p45", "/standings rating")).splitlines()
    assert page[0] == "main: ratings, page 1 of 3" and len(page) == 1 + 20 + 2
    assert page[-2:] == ["… 45. p45 (of 45)", "… and 25 more: /standings rating page=2"]
    last = (await chat.ok("p45", "/standings rating page=3")).splitlines()
    assert last[1].startswith("41. ") and last[-1].startswith("45. p45")
    for _ in range(12):
        await chat.tick(3 * 3600)
        await chat.ok("p01", "/report win @p02 again")
    history = (await chat.ok("p01", "/history")).splitlines()
    assert history[1].startswith("#13 ") and history[-1] == "… older matches: /history page=2"
    older = (await chat.ok("p01", "/history @p01 page=2")).splitlines()
    assert older[0] == "p01 on main: recent matches, page 2"
    assert [line.split()[0] for line in older[1:]] == ["#3", "#2"]


async def test_a_banned_player_is_told_so_and_cannot_join(chat: Chat) -> None:
    await _duel(chat, 3)
    text = await chat.ok("mod", "/mod ban @p02 cheating")
    assert text == ("mod banned p02 from main: cheating. The record stays; p02 cannot /join "
                    "until /mod unban.")
    assert await chat.refused("p02", "/join") == (
        "You are banned from main (by mod: cheating). A moderator can lift it with /mod unban.")
    assert await chat.refused("p02", "/report win @p01") == \
        "You are banned from main (by mod: cheating)."
    assert "banned from main already" in await chat.refused("mod", "/mod ban @p02 again")
    assert "Only moderators" in await chat.refused("p01", "/mod unban @p02 pardon")
    assert "banned from main" in await chat.refused("mod", "/mod add @p02")
    assert "p02 may /join again" in await chat.ok("mod", "/mod unban @p02 served a month")
    assert "is not banned" in await chat.refused("mod", "/mod unban @p02 twice")
    assert "p02 is back on main at 1000" in await chat.ok("p02", "/join")
    profile = await chat.ok("p02", "/profile")
    assert "mod banned p02: cheating" in profile and "lifted the ban of p02" in profile


async def test_someone_who_never_joined_can_be_banned(chat: Chat) -> None:
    await _duel(chat, 1)
    await chat.ok("mod", "/mod ban @spammer adverts")
    assert "banned" in await chat.refused("spammer", "/join")
    assert [p["name"] for p in (await chat.export())["players"]] == ["p01"]


async def test_a_removed_player_is_told_who_took_them_off(chat: Chat) -> None:
    await _duel(chat, 2)
    await chat.ok("mod", "/mod remove @p02 inactive for months")
    assert await chat.refused("p02", "/report win @p01") == \
        "A moderator took you off main (by mod: inactive for months): /join to come back."
    await chat.ok("p02", "/join")
    await chat.ok("p02", "/leave")
    assert await chat.refused("p02", "/report win @p01") == \
        "You left main: /join to come back."


async def test_a_moderator_adds_a_player(chat: Chat) -> None:
    await _duel(chat, 1)
    text = await chat.ok("mod", "/mod add @newbie")
    assert text == ("mod: newbie was added to main at 1000. The first 5 rated games "
                    "calibrate: tables list newbie after them.")
    assert "newbie is on main already" in await chat.refused("mod", "/mod add @newbie")
    assert "Only moderators" in await chat.refused("p01", "/mod add @other")
    assert "You are on main already" in await chat.ok("newbie", "/join")
    assert "mod added newbie" in await chat.ok("newbie", "/profile")


async def test_a_ladder_is_renamed_and_keeps_its_history(chat: Chat) -> None:
    await _duel(chat, 2)
    await chat.ok("p01", "/report win @p02")
    await chat.ladder("nhwc", name="cup")
    text = await chat.ok("mod", "/ladder rename league")
    assert text == "mod renamed ladder main to league. Its history, settings and players stay."
    assert "already has a ladder called cup" in await chat.refused("mod", "/ladder rename cup")
    assert "Only moderators" in await chat.refused("p01", "/ladder rename x")
    assert (await chat.export("league"))["players"][0]["rating"] == 1016
    assert "renamed ladder cup to knockout" in await chat.ok(
        "mod", "/ladder rename knockout ladder=cup")
    assert "league (duel, default), knockout (nhwc)" in await chat.ok("p01", "/ladder list")


async def test_deleting_a_ladder_asks_first_and_keeps_its_export(tmp_path: Path) -> None:
    async with SqliteStore(tmp_path / "ladder.db") as store:
        chat = Chat(store)
        await _duel(chat, 2)
        await chat.ok("p01", "/report win @p02")
        await chat.ladder("nhwc", name="cup")
        ask = await chat.ok("mod", "/ladder delete main")
        assert ask.startswith("Deleting main removes its 2 players") and \
            ask.endswith("To go ahead: /ladder delete main confirm")
        assert (await chat.export())["players"]  # nothing deleted yet
        assert "Only moderators" in await chat.refused("p01", "/ladder delete main confirm")
        done = await chat.ok("mod", "/ladder delete main confirm")
        saved = tmp_path / "deleted-console-main-20260105T100000.json"
        assert done == (f"mod deleted ladder main. Its export is kept in {saved}. cup is now "
                        "this chat's default ladder.")
        kept: dict[str, Any] = json.loads(saved.read_text())
        assert [p["rating"] for p in kept["players"]] == [1016, 984]
        assert "no ladder called main" in await chat.refused("mod", "/ladder delete main")
        assert await chat.ok("p01", "/ladder list") == "Ladders here: cup (nhwc, default)."
        # a new ladder of the same name starts afresh
        await chat.ladder("duel", name="main")
        assert (await chat.export())["players"] == []
        tables = await store.run(lambda repo: [
            repo.conn.execute(f"SELECT count(*) FROM {t} WHERE ladder=1").fetchone()[0]
            for t in ("events", "matches", "players", "player_names", "audit")], commit=False)
        assert tables == [0, 0, 0, 0, 0]


async def test_ladder_info_names_who_moderates(chat: Chat) -> None:
    await _duel(chat, 2)
    info = await chat.ok("p01", "/ladder info")
    assert "Moderated by the chat's administrators." in info
    await chat.ok("mod", "/ladder set mod_role=4242 k=20")
    await chat.ok("mod", "/mod adjust @p01 +5 bonus")
    info = await chat.ok("p01", "/ladder info")
    assert ("Moderated by the chat's administrators, and the ladder's moderator role 4242; "
            "recent moderator actions by mod.") in info, info


async def test_public_true_gives_the_link_or_says_how_to_get_one(store: Any) -> None:
    from core.domain.settings import Policy
    chat = Chat(store)
    await chat.ladder("duel")
    text = await chat.ok("mod", "/ladder set public=true")
    assert "set [web] url in config.toml" in text
    linked = Chat(store, chat="console:other", policy=Policy(web_url="https://l.example.org"))
    await linked.ladder("duel")
    text = await linked.ok("mod", "/ladder set public=true")
    assert text.endswith("Its public page: https://l.example.org/ladders/2"), text


async def test_the_next_page_hint_names_a_ladder_that_is_not_the_default(chat: Chat) -> None:
    await chat.ladder("duel", "confirm=false")
    await chat.ladder("duel", "confirm=false", name="cup")
    names = [f"p{i:02d}" for i in range(1, 23)]
    await chat.join(*names, ladder="ladder=cup")
    page = await chat.ok("p01", "/players ladder=cup")
    assert page.endswith("… and 2 more: /players page=2 ladder=cup"), page
    table = await chat.ok("p01", "/standings rating ladder=cup")
    assert table.endswith("… and 2 more: /standings rating page=2 ladder=cup"), table
