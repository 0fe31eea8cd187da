"""The people and the moves of the Discord end-to-end tests: a moderator and three players
of one guild (and a numbered crowd), a ladder made and joined, a typed /report, ladders
with a pinned live message, and how a response reads."""

from __future__ import annotations

from typing import Any

from bot.following import LiveStandings
from tests.support.adapters import DiscordHarness
from tests.support.discord_payloads import (
    EPHEMERAL,
    MANAGE_GUILD,
    command,
    member,
    option,
    person,
    user_option,
    with_user,
)

MOD = member(person(1300000000000000101, "mod"), permissions=MANAGE_GUILD)
ALICE = member(person(1300000000000000102, "alice"))
BOB = member(person(1300000000000000103, "bob"))
DAVE = member(person(1300000000000000105, "dave"))


def text(response: dict[str, Any]) -> str:
    """What a response says: an embed's title and description, or its content."""
    if response.get("embeds"):
        e = response["embeds"][0]
        return f"{e.get('title', '')}\n{e.get('description', '')}".strip()
    return str(response.get("content", ""))


def ephemeral(response: dict[str, Any]) -> bool:
    return bool(response.get("flags", 0) & EPHEMERAL)


async def ladder(dc: DiscordHarness, *options: str) -> None:
    """The moderator creates the duel ladder `main`; alice and bob join it."""
    await dc.send(command("create", option("name", "main"), option("preset", "duel"),
                          option("options", " ".join(options)), by=MOD, group="ladder"))
    await dc.send(command("join", by=ALICE))
    await dc.send(command("join", by=BOB))


def report(by: dict[str, Any], result: str, opponent: dict[str, Any],
           *extra: dict[str, Any]) -> dict[str, Any]:
    """A /report with typed options: the result and the opponent as a user option."""
    return command("report", option("result", result),
                   with_user(user_option("opponent", opponent["user"]), opponent["user"]),
                   *extra, by=by)


def player(n: int, name: str | None = None) -> dict[str, Any]:
    """The member p<n> (or `name`), the n-th of a numbered crowd."""
    return member(person(1300000000000000200 + n, name or f"p{n}"))


async def pinned(dc: DiscordHarness, *names: str) -> LiveStandings:
    """Ladders `names` in the one channel, each with two players and a pinned message."""
    for n, name in enumerate(names):
        await dc.send(command("create", option("name", name), option("preset", "duel"),
                              option("options", "calibration=0 confirm=false"), by=MOD,
                              group="ladder"))
        for who in (player(2 * n + 1), player(2 * n + 2)):
            await dc.send(command("join", option("ladder", name), by=who))
        await dc.send(command("pin", option("ladder", name), by=MOD, group="ladder"))
    return LiveStandings(dc.store, [dc.platform.board], dc.clock, dc.platform.post)
