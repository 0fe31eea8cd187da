"""A tournament on Discord and Telegram through their strict stand-ins (issue 53), with a
hostile name among the players: the typed /tournament subcommands, round 1 called to its
players (a ping only of the paired, never of what a name says), a report counted for its
pairing, the table; the same on Telegram's typed lines."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.charts import render
from core.domain.tournament.bracket import build
from core.domain.tournament.chart import BracketChart, BracketGame
from tests.support.adapters import discord_harness, telegram_harness
from tests.support.discord_payloads import (
    MANAGE_GUILD,
    command,
    member,
    option,
    person,
    user_option,
    with_user,
)
from tests.support.platform_limits import telegram_photo
from tests.support.telegram_fake import person as tg_person

HOSTILE = "@everyone <b>**x**</b> https://evil.example"
UNLINKED = HOSTILE.replace("https://evil.example", "https:\u200b//evil\u200b.example").replace(
    "@everyone", "@\u200beveryone")  # as the names are shown (core.domain.names)


def content(response: dict[str, Any]) -> str:
    return str(response.get("content", ""))


async def test_a_tournament_on_discord(tmp_path: Path) -> None:
    mod = member(person(1300000000000000201, "mod"), permissions=MANAGE_GUILD)
    ids = [1300000000000000202, 1300000000000000203, 1300000000000000204]
    players = [member(person(i, name)) for i, name in zip(ids, ("ann", HOSTILE, "cid"),
                                                          strict=True)]
    async with discord_harness(tmp_path / "l.db") as dc:
        await dc.send(command("create", option("name", "main"), option("preset", "duel"),
                              option("options", "confirm=false"), by=mod, group="ladder"))
        made = await dc.send(command("create", option("name", "Кубок"),
                                     option("format", "swiss"), option("rounds", 2),
                                     by=mod, group="tournament"))
        assert content(made).startswith("Tournament Кубок (Swiss; 2 rounds")
        refused = await dc.send(command("start", option("name", "Кубок"), by=players[0],
                                        group="tournament"))
        assert "moderator" in content(refused).lower()
        for who in players:
            await dc.send(command("join", by=who))
            joined = await dc.send(command("join", option("name", "кубок"), by=who,
                                           group="tournament"))
            assert "joined Кубок" in content(joined)
        started = await dc.send(command("start", by=mod, group="tournament"))
        text = content(started)
        # Seeds 1-3 by joining order; cid (the lowest) rests; ann meets the hostile name.
        # (Discord's escapes: the stars stay stars, not bold)
        assert "1. ann – @\u200beveryone <b>\\*\\*x\\*\\*</b>" in text
        assert "2. cid: bye" in text
        assert started["allowed_mentions"]["parse"] == []
        assert sorted(map(int, started["allowed_mentions"]["users"])) == ids[:2]
        reported = await dc.send(command(
            "report", option("result", "win"),
            with_user(user_option("opponent", players[1]["user"]), players[1]["user"]),
            by=players[0]))
        assert "It counts for Кубок, round 1" in content(reported)
        assert "Round 2 of 2 of Кубок" in content(reported)
        shown = await dc.send(command("show", by=players[2], group="tournament"))
        assert "1. ann 1 (Buchholz" in content(shown)
        assert "@everyone" not in content(shown)


async def test_a_tournament_on_telegram(tmp_path: Path) -> None:
    mod = tg_person(201, "Mo", "mod")
    ann = tg_person(202, "Ann", "ann")
    hostile = tg_person(203, HOSTILE)
    async with telegram_harness(tmp_path / "l.db", [mod]) as tg:
        await tg.say(mod, "/ladder create main preset=duel confirm=false")
        await tg.say(mod, "/tournament create cup format=single")
        for who in (ann, hostile):
            await tg.say(who, "/join")
            await tg.say(who, "/tournament join")
        [started] = await tg.say(mod, "/tournament start cup")
        assert f"1. ann – {UNLINKED}" in started  # (no username: the name as typed)
        [draw] = await tg.say(hostile, "/report draw @ann")
        assert "a draw decides nothing" in draw
        [lost] = await tg.say(hostile, "/report loss @ann")
        assert "It counts for cup, round 1" in lost and "cup is over. Winner: ann!" in lost
        [shown] = await tg.say(hostile, "/tournament")
        assert f"W1 #1: ann – {UNLINKED}: ann" in shown
        [photo] = [p for m, p in tg.api.calls if m == "sendPhoto"]  # the bracket's picture
        assert telegram_photo(next(iter(photo["_files"].values()))) is None


def test_a_64_player_double_elimination_bracket_fits_a_telegram_photo() -> None:
    """The largest bracket a chat shows in one picture (looked at: 2,640 by 3,156 pixels,
    its names 8 points at 100 dpi), names at their longest and hostile."""
    slots = build(64, double=True)
    name = "Щ" * 40
    games = tuple(BracketGame({"w": "w", "l": "l"}.get(s.part.value, "f"), s.stage - 1,
                              name, HOSTILE) for s in slots)
    png = render(BracketChart("Кубок", games, ("winners", "losers", "final")))
    assert telegram_photo(png) is None
    width, height = int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")
    assert 2000 < width < 3000 and 2500 < height < 4000
