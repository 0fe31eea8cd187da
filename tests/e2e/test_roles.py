"""Discord roles that follow the standings (issue 28), through the strict Discord
stand-in: roles made and given when set, moved by reports, a far-back void, decay, a
season close and a ban; a role someone gave by hand left alone; a missing permission and
a role above the bot's refused with what to do; a later refusal recorded, shown and
retried; a large update paced within the server's rate limit and finished once across
a restart.

Leagues (RULES.md, section 3, duel): Challenge Accepted below 1000, Fighter 1000-1099,
Yard Terror 1100-1199. Equal players: the winner +16, the loser -16. Decay (section 5):
a player at 1000 loses 8 a day.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from bot.discord.roles import RoleSync
from bot.scheduler import Scheduler
from storage.sqlite.store import SqliteStore
from tests.support.adapters import T0, DiscordHarness, discord_harness
from tests.support.discord_guild import ADMINISTRATOR
from tests.support.discord_payloads import (
    GUILD,
    MANAGE_GUILD,
    command,
    member,
    option,
    person,
    with_user,
)

DAY = 86400
MOD = member(person(1300000000000000101, "mod"), permissions=MANAGE_GUILD)
HOSTILE = "@everyone **x** <@1300000000000000101>"


def player(n: int, name: str | None = None) -> dict[str, Any]:
    return member(person(1300000000000000200 + n, name or f"p{n}"))


def uid(who: dict[str, Any]) -> str:
    return str(who["user"]["id"])


def content(answer: dict[str, Any]) -> str:
    return str(answer.get("content") or answer.get("embeds", [{}])[0].get("description", ""))


async def settle(sync: RoleSync, dc: DiscordHarness, most: int = 400) -> int:
    """Step the sync, moving the clock to each time it asks for, until all is in step;
    how many steps it took."""
    for steps in range(1, most):
        wake = await sync.step()
        if wake is None:
            return steps
        dc.clock.now = max(dc.clock.now, wake)
    raise AssertionError("the roles never settled")


def holders(dc: DiscordHarness, name: str) -> set[str]:
    return dc.fake.guild.holders(name)


async def duel(dc: DiscordHarness, players: list[dict[str, Any]], extra: str = "") -> None:
    await dc.send(command("create", option("name", "main"), option("preset", "duel"),
                          option("options", f"calibration=0 confirm=false {extra}".strip()),
                          by=MOD, group="ladder"))
    for who in players:
        await dc.send(command("join", by=who))


async def report(dc: DiscordHarness, winner: dict[str, Any], loser: dict[str, Any]) -> str:
    answer = await dc.send(command("report", option("result", "win"),
                                   with_user(option("opponent", loser["user"]["id"]) |
                                             {"type": 6}, loser["user"]), by=winner))
    return content(answer)


async def set_roles(dc: DiscordHarness, options: str) -> dict[str, Any]:
    return await dc.send(command("set", option("options", options), by=MOD, group="ladder"))


async def test_roles_are_made_given_and_moved_by_reports_and_a_void(tmp_path: Path) -> None:
    alice, bob, carol = player(1, HOSTILE), player(2), player(3)
    async with discord_harness(tmp_path / "l.db") as dc:
        await duel(dc, [alice, bob, carol])
        answer = await set_roles(dc, "roles=leagues,top:1 champion_role=true")
        assert content(answer) == \
            "main: roles=leagues,top:1 (was none), champion\\_role=true (was false)."
        sync = RoleSync(dc.store, dc.platform.roles, dc.clock)
        await settle(sync, dc)
        # everyone starts at 1000: Fighter, made by the bot below its own role
        fighter = dc.fake.guild.roles[dc.fake.guild.named("Fighter")[0]]
        assert fighter["color"] != 0 and fighter["position"] < dc.fake.guild.top()
        assert holders(dc, "Fighter") == {uid(alice), uid(bob), uid(carol)}
        assert dc.fake.guild.named("Challenge Accepted") == []  # made when first needed
        assert "alice" not in str(await report(dc, alice, bob))
        await settle(sync, dc)
        assert holders(dc, "Fighter") == {uid(alice), uid(carol)}  # 1016, 1000
        assert holders(dc, "Challenge Accepted") == {uid(bob)}  # 984
        assert holders(dc, "Top 1") == {uid(alice)}  # the only one in the ladder table
        # the far-back void re-derives everything: all back at 1000, nobody active
        await report(dc, carol, bob)
        await dc.send(command("void", option("match", 1), option("reason", "wrong ladder"),
                              by=MOD, group="mod"))
        await settle(sync, dc)
        assert holders(dc, "Fighter") == {uid(alice), uid(carol)}  # 1000 and 1016
        assert holders(dc, "Challenge Accepted") == {uid(bob)}  # 984 after carol's win
        assert holders(dc, "Top 1") == {uid(carol)}
        info = await dc.send(command("info", by=MOD, group="ladder"))
        assert "Discord roles: leagues,top:1 champion\\_role=true; every member holds " \
            "theirs." in content(info), content(info)


async def test_a_ban_takes_the_roles_and_decay_moves_them(tmp_path: Path) -> None:
    alice, bob, carol = player(1), player(2), player(3)
    async with discord_harness(tmp_path / "l.db") as dc:
        await duel(dc, [alice, bob, carol], "decay=true")
        await set_roles(dc, "roles=leagues")
        sync = RoleSync(dc.store, dc.platform.roles, dc.clock)
        await settle(sync, dc)
        await dc.send(command("ban", with_user(option("player", bob["user"]["id"]) |
                                               {"type": 6}, bob["user"]),
                              option("reason", "cheating"), by=MOD, group="mod"))
        await settle(sync, dc)
        assert holders(dc, "Fighter") == {uid(alice), uid(carol)}
        # a day on: 1000 decays by 8 to 992, below Fighter
        dc.clock.now = T0 + DAY
        await Scheduler(dc.store, dc.platform.post, dc.clock).tick()
        await settle(sync, dc)
        assert holders(dc, "Fighter") == set()
        assert holders(dc, "Challenge Accepted") == {uid(alice), uid(carol)}


async def test_a_season_close_gives_the_champion_role(tmp_path: Path) -> None:
    alice, bob = player(1), player(2)
    async with discord_harness(tmp_path / "l.db") as dc:
        await duel(dc, [alice, bob], "season_min_games=1")
        await set_roles(dc, "champion_role=true")
        sync = RoleSync(dc.store, dc.platform.roles, dc.clock)
        await report(dc, alice, bob)
        await settle(sync, dc)
        assert dc.fake.guild.named("Champion") == []  # no season has closed yet
        dc.clock.now = T0 + 30 * DAY  # past 1 February: January closes
        await Scheduler(dc.store, dc.platform.post, dc.clock).tick()
        await settle(sync, dc)
        assert holders(dc, "Champion") == {uid(alice)}
        info = content(await dc.send(command("info", by=MOD, group="ladder")))
        assert "Discord roles: champion\\_role=true; every member holds theirs." in info, info


async def test_the_champion_role_can_follow_a_tournament_and_its_corrections(
        tmp_path: Path) -> None:
    """champion_role=tournament: the winner of the tournament that finished last, as its
    results say now (a changed final moves the role), on a ladder without seasons."""
    alice, bob = player(1), player(2)
    async with discord_harness(tmp_path / "l.db") as dc:
        await duel(dc, [alice, bob], "tables=none")
        refused = await set_roles(dc, "champion_role=maybe")
        assert "tournament (the winner of the tournament that finished last)" in \
            content(refused), content(refused)
        answer = await set_roles(dc, "champion_role=tournament")
        assert "champion\\_role=tournament (was false)" in content(answer), content(answer)
        sync = RoleSync(dc.store, dc.platform.roles, dc.clock)
        for name in ("cup", "plate"):
            await dc.send(command("create", option("name", name), option("format", "single"),
                                  by=MOD, group="tournament"))
            for who in (alice, bob):
                await dc.send(command("join", option("name", name), by=who,
                                      group="tournament"))
        await dc.send(command("start", option("name", "cup"), by=MOD, group="tournament"))
        await settle(sync, dc)
        assert dc.fake.guild.named("Champion") == []  # nothing has finished yet
        assert "cup is over. Winner: p1" in await report(dc, alice, bob)
        await settle(sync, dc)
        assert holders(dc, "Champion") == {uid(alice)}
        dc.clock.now += 60
        await dc.send(command("start", option("name", "plate"), by=MOD, group="tournament"))
        assert "plate is over. Winner: p2" in await report(dc, bob, alice)
        await settle(sync, dc)
        assert holders(dc, "Champion") == {uid(bob)}  # the one that finished last
        fixed = await dc.send(command("set", option("match", 2),
                                      option("result", f"<@{uid(alice)}>"),
                                      option("reason", "misread"), by=MOD, group="mod"))
        assert "Re-derived: plate is over. Winner: p1!" in content(fixed), content(fixed)
        await settle(sync, dc)
        assert holders(dc, "Champion") == {uid(alice)}
        info = content(await dc.send(command("info", by=MOD, group="ladder")))
        assert "Discord roles: champion\\_role=tournament; every member holds" in info, info


async def test_a_role_given_by_hand_stays(tmp_path: Path) -> None:
    alice, bob = player(1), player(2)
    async with discord_harness(tmp_path / "l.db") as dc:
        await duel(dc, [alice, bob])
        fighter = dc.fake.guild.add_role("Fighter", 0x123456)["id"]  # the server's own
        dc.fake.guild.members[uid(bob)] = {fighter}  # given by hand
        await set_roles(dc, "roles=leagues")
        sync = RoleSync(dc.store, dc.platform.roles, dc.clock)
        await settle(sync, dc)
        assert dc.fake.guild.named("Fighter") == [fighter]  # adopted, not made again
        await report(dc, alice, bob)
        await settle(sync, dc)
        assert holders(dc, "Challenge Accepted") == {uid(bob)}
        assert holders(dc, "Fighter") == {uid(alice), uid(bob)}  # bob's was not ours


async def test_a_missing_permission_or_a_role_above_the_bot_is_refused(tmp_path: Path) -> None:
    async with discord_harness(tmp_path / "l.db") as dc:
        await duel(dc, [player(1)])
        guild = dc.fake.guild
        guild.roles[guild.bot_role]["permissions"] = "0"
        refused = await set_roles(dc, "roles=leagues")
        assert refused["flags"] & 64 and "I need the Manage Roles permission" in \
            content(refused) and "Server Settings → Roles" in content(refused)
        guild.roles[guild.bot_role]["permissions"] = str(1 << 28)
        guild.add_role("Fighter", 0, position=guild.top() + 1)
        refused = await set_roles(dc, "roles=leagues")
        assert "My role must be above every role I give, and Fighter is not below it" in \
            content(refused), content(refused)
        info = await dc.send(command("info", by=MOD, group="ladder"))
        assert "Discord roles" not in content(info)  # nothing was set


async def test_a_later_refusal_is_shown_and_retried(tmp_path: Path,
                                                    caplog: pytest.LogCaptureFixture) -> None:
    alice = player(1)
    async with discord_harness(tmp_path / "l.db") as dc:
        await duel(dc, [alice])
        await set_roles(dc, "roles=leagues")
        guild = dc.fake.guild
        guild.roles[guild.bot_role]["permissions"] = "0"  # taken away after the set
        sync = RoleSync(dc.store, dc.platform.roles, dc.clock)
        wake = await sync.step()
        while wake is not None and wake < dc.clock.now + 60:  # (paced: not yet asked)
            dc.clock.now = wake
            wake = await sync.step()
        assert wake == dc.clock.now + 60  # refused: tried again in a minute
        dc.clock.now = wake
        assert await sync.step() == dc.clock.now + 60  # refused again
        stopped = [r for r in caplog.records if "stopped" in r.getMessage()]
        assert len(stopped) == 1  # logged once
        info = content(await dc.send(command("info", by=MOD, group="ladder")))
        assert "stopped with 1 to update: I lack the Manage Roles permission" in info, info
        guild.roles[guild.bot_role]["permissions"] = str(1 << 28)
        dc.clock.now = wake
        await settle(sync, dc)
        assert holders(dc, "Fighter") == {uid(alice)}
        info = content(await dc.send(command("info", by=MOD, group="ladder")))
        assert "every member holds theirs" in info
        dc.fake.refused.clear()  # (the refusals were the point)


async def test_a_large_update_is_paced_and_finishes_once_after_a_restart(
        tmp_path: Path) -> None:
    players = [player(n) for n in range(40)]
    async with discord_harness(tmp_path / "l.db") as dc:
        await duel(dc, players)
        await set_roles(dc, "roles=leagues")
        start = dc.clock.now
        first = RoleSync(dc.store, dc.platform.roles, dc.clock)
        for _ in range(5):  # a few paced steps, then the process stops
            dc.clock.now = max(dc.clock.now, await first.step() or dc.clock.now)
        given = len(holders(dc, "Fighter"))
        assert 0 < given < 40
        async with SqliteStore(tmp_path / "l.db") as again:  # a new process
            await settle(RoleSync(again, dc.platform.roles, dc.clock), dc)
        assert len(holders(dc, "Fighter")) == 40
        puts = Counter(path.split("/")[4] for method, path, _ in dc.fake.requests
                       if method == "PUT" and "/roles/" in path)
        assert set(puts.values()) == {1} and len(puts) == 40  # each member once
        # 40 members at two requests each, within a bucket of 10 and one a second
        assert dc.clock.now - start >= 60
        assert not [r for r in dc.fake.refused if "rate limited" in r[2]]
        assert GUILD  # (one server)


async def test_a_bad_roles_value_is_echoed_as_any_setting_is(tmp_path: Path) -> None:
    from storage.memory.store import MemoryStore
    from tests.support.chat import Chat

    chat = Chat(MemoryStore())
    await chat.ok("mod", "/ladder create main preset=duel")
    said = await chat.refused("mod", "/ladder set roles=top:" + "9" * 50)
    assert said.startswith("roles=top:" + "9" * 36 + "...: expected leagues, top:N"), said
    said = await chat.refused("mod", "/ladder set champion_role=maybe")
    assert said.startswith("champion_role=maybe: expected true (last season"), said


async def test_a_role_of_the_servers_that_grants_permissions_is_never_given(
        tmp_path: Path) -> None:
    # The bot adopted any role of the wanted name below its own: a server's own "Top 1"
    # with Administrator went to the best player.
    alice, bob = player(1), player(2)
    async with discord_harness(tmp_path / "l.db") as dc:
        await duel(dc, [alice, bob])
        guild = dc.fake.guild
        admin = guild.add_role("Top 1", 0, permissions=ADMINISTRATOR)["id"]
        await set_roles(dc, "roles=top:1")
        await report(dc, alice, bob)
        sync = RoleSync(dc.store, dc.platform.roles, dc.clock)
        wake = await sync.step()
        while wake is not None and wake < dc.clock.now + 60:  # (paced: not yet asked)
            dc.clock.now = wake
            wake = await sync.step()
        assert not any(admin in held for held in guild.members.values())
        info = content(await dc.send(command("info", by=MOD, group="ladder")))
        assert "grants permissions" in info, info
        guild.roles[admin]["name"] = "Admins"  # renamed: the bot makes its own, granting none
        dc.clock.now = wake or dc.clock.now
        await settle(sync, dc)
        [made] = guild.named("Top 1")
        assert holders(dc, "Top 1") == {uid(alice)} and guild.roles[made]["permissions"] == "0"
        dc.fake.refused.clear()
