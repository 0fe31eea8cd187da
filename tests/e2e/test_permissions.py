"""Every moderator command from a non-moderator, every participant-only action from a
stranger, in each adapter: refused with a clear reply, and nothing changed."""

from __future__ import annotations

import io
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any, Protocol

import pytest

from bot.console import Console
from storage.sql.repo import SqlRepo
from storage.sqlite.store import SqliteStore
from tests.support import discord_payloads as dfake
from tests.support import telegram_fake as tfake
from tests.support.adapters import discord_harness, telegram_harness

NAMES = ("mod", "alice", "bob", "carol", "dave")
MODERATORS_ONLY = "Only moderators can do that"

# Discord slash commands: (command, group, options) from the members by name.
Options = Callable[[dict[str, dict[str, Any]]], list[dict[str, Any]]]


def mention(who: dict[str, Any]) -> str:
    return f"<@{who['user']['id']}>"


def user(name: str, m: dict[str, dict[str, Any]]) -> dict[str, Any]:
    return dfake.with_user(dfake.user_option(name, m[name]["user"]), m[name]["user"])


SETUP: list[tuple[str, str, str, str | None, Options]] = [
    ("mod", "/ladder create main preset=duel", "create", "ladder",
     lambda m: [dfake.option("name", "main"), dfake.option("preset", "duel")]),
    ("mod", "/ladder create pos preset=nhwc", "create", "ladder",
     lambda m: [dfake.option("name", "pos"), dfake.option("preset", "nhwc")]),
    *[(who, "/join", "join", None, lambda m: []) for who in ("alice", "bob", "carol")],
    *[(who, "/join ladder=pos", "join", None, lambda m: [dfake.option("ladder", "pos")])
      for who in ("alice", "bob", "carol")],
    ("alice", "/report win @bob", "report", None,
     lambda m: [dfake.option("result", "win"), user("opponent", {"opponent": m["bob"]})]),
    ("carol", "/challenge @alice ladder=pos", "challenge", None,
     lambda m: [user("opponent", {"opponent": m["alice"]}), dfake.option("ladder", "pos")]),
]

# (who, console/Telegram text, Discord command, group, options, what the refusal says)
REFUSED: list[tuple[str, str, str, str | None, Options, str]] = [
    # every moderator command, from a player who is not a moderator
    ("carol", "/ladder create other preset=duel", "create", "ladder",
     lambda m: [dfake.option("name", "other"), dfake.option("preset", "duel")],
     MODERATORS_ONLY),
    ("carol", "/ladder set confirm=false", "set", "ladder",
     lambda m: [dfake.option("options", "confirm=false")], MODERATORS_ONLY),
    ("carol", "/ladder default pos", "default", "ladder",
     lambda m: [dfake.option("name", "pos")], MODERATORS_ONLY),
    ("carol", "/mod void 1 never played", "void", "mod",
     lambda m: [dfake.option("match", 1), dfake.option("reason", "never played")],
     MODERATORS_ONLY),
    ("carol", "/mod set 1 @bob wrong way", "set", "mod",
     lambda m: [dfake.option("match", 1), dfake.option("result", mention(m["bob"])),
                dfake.option("reason", "wrong way")], MODERATORS_ONLY),
    ("carol", "/mod adjust @bob +10 gift", "adjust", "mod",
     lambda m: [user("player", {"player": m["bob"]}), dfake.option("amount", 10),
                dfake.option("reason", "gift")], MODERATORS_ONLY),
    ("carol", "/mod season close early", "season-close", "mod",
     lambda m: [dfake.option("reason", "early")], MODERATORS_ONLY),
    ("carol", "/mod remove @bob rival", "remove", "mod",
     lambda m: [user("player", {"player": m["bob"]}), dfake.option("reason", "rival")],
     MODERATORS_ONLY),
    # every participant-only action, from someone who is not a participant
    ("dave", "/report win @bob", "report", None,
     lambda m: [dfake.option("result", "win"), user("opponent", {"opponent": m["bob"]})],
     "not on main yet: /join first"),
    ("carol", "/report ffa @alice @bob", "report-ffa", None,
     lambda m: [dfake.option("players", f"{mention(m['alice'])} {mention(m['bob'])}")],
     "Only a player in the game can report it."),
    ("carol", "/confirm 1", "confirm", None, lambda m: [dfake.option("match", 1)],
     "Only the players of match #1 can confirm it."),
    ("carol", "/dispute 1 not fair", "dispute", None,
     lambda m: [dfake.option("match", 1), dfake.option("reason", "not fair")],
     "Only the players of match #1 can dispute it."),
    ("carol", "/withdraw 1", "withdraw", None, lambda m: [dfake.option("match", 1)],
     "Only the players of match #1 can withdraw it."),
    ("dave", "/confirm", "confirm", None, lambda m: [], "not on main yet"),
    ("bob", "/accept ladder=pos", "accept", None, lambda m: [dfake.option("ladder", "pos")],
     "You have no open challenge to answer."),
    ("bob", "/decline ladder=pos", "decline", None, lambda m: [dfake.option("ladder", "pos")],
     "You have no open challenge to answer."),
    ("dave", "/challenge @alice ladder=pos", "challenge", None,
     lambda m: [user("opponent", {"opponent": m["alice"]}), dfake.option("ladder", "pos")],
     "not on pos yet: /join ladder"),  # (ladder=pos typed; ladder:pos on Discord)
    ("dave", "/leave", "leave", None, lambda m: [], "not on main"),
    ("dave", "/unavailable ladder=pos", "unavailable", None,
     lambda m: [dfake.option("ladder", "pos")], "not on pos"),
]


class Driver(Protocol):
    store: SqliteStore

    async def say(self, who: str, text: str, command: str, group: str | None,
                  options: Options) -> tuple[bool, str]:
        """(refused?, the reply's text) of one command."""
        ...


class ConsoleDriver:
    def __init__(self, store: SqliteStore) -> None:
        self.store = store
        self.out = io.StringIO()
        self.console = Console(store, ["mod"], self.out, io.StringIO())

    async def say(self, who: str, text: str, command: str, group: str | None,
                  options: Options) -> tuple[bool, str]:
        start = len(self.out.getvalue())
        await self.console.line(f"@{who}: {text}")
        # The console prints replies as they are; whether it was refused shows in the text.
        return True, self.out.getvalue()[start:].replace("bot: ", "")


TELEGRAM_PEOPLE = {name: tfake.person(200 + i, name.title(), name)
                   for i, name in enumerate(NAMES)}
DISCORD_MEMBERS = {name: dfake.member(dfake.person(1300000000000000200 + i, name),
                                      permissions=dfake.MANAGE_GUILD if name == "mod" else 0)
                   for i, name in enumerate(NAMES)}


class TelegramDriver:
    def __init__(self, harness: Any) -> None:
        self.harness, self.store = harness, harness.store

    async def say(self, who: str, text: str, command: str, group: str | None,
                  options: Options) -> tuple[bool, str]:
        return True, "\n".join(await self.harness.say(TELEGRAM_PEOPLE[who], text))


class DiscordDriver:
    def __init__(self, harness: Any) -> None:
        self.harness, self.store = harness, harness.store

    async def say(self, who: str, text: str, command: str, group: str | None,
                  options: Options) -> tuple[bool, str]:
        payload = dfake.command(command, *options(DISCORD_MEMBERS), by=DISCORD_MEMBERS[who],
                                group=group)
        response = await self.harness.send(payload)
        body = (response.get("embeds") or [{}])[0].get("description") or response["content"]
        return bool(response.get("flags", 0) & 64), str(body)


@pytest.fixture(params=["console", "telegram", "discord"])
async def driver(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Driver]:
    db = tmp_path / "l.db"
    if request.param == "console":
        async with SqliteStore(db) as store:
            console = ConsoleDriver(store)
            await console.console.line("!time 2026-01-05T10:00:00+00:00")
            yield console
    elif request.param == "telegram":
        async with telegram_harness(db, [TELEGRAM_PEOPLE["mod"]]) as tg:
            yield TelegramDriver(tg)
    else:
        async with discord_harness(db) as dc:
            yield DiscordDriver(dc)


def everything(repo: SqlRepo) -> list[str]:
    """The whole database but the learned names and message ids (not ladder state)."""
    return [line for line in repo.conn.iterdump()
            if not line.startswith(('INSERT INTO "handles"', 'INSERT INTO "seen_messages"'))]


async def test_refused_everywhere_and_nothing_changes(driver: Driver) -> None:
    for who, text, command, group, options in SETUP:
        refused, reply = await driver.say(who, text, command, group, options)
        assert "Only" not in reply and "not on" not in reply, (text, reply)
    before = await driver.store.run(everything, commit=False)
    assert any("INSERT INTO \"challenges\"" in line for line in before)
    for who, text, command, group, options, says in REFUSED:
        refused, reply = await driver.say(who, text, command, group, options)
        assert refused and says in reply, (text, reply)
        assert await driver.store.run(everything, commit=False) == before, text
    # and the same commands from those allowed do work (the table is not refusing all)
    _, done = await driver.say("mod", "/mod void 1 never played", "void", "mod",
                               lambda m: [dfake.option("match", 1),
                                          dfake.option("reason", "never played")])
    assert "voided by" in done
