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
from tests.support.adapters import DiscordHarness, discord_harness, telegram_harness
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
        friendly = await dc.send(command(
            "report", option("result", "win"), option("tournament", "none"),
            with_user(user_option("opponent", players[1]["user"]), players[1]["user"]),
            by=players[0]))
        assert "ann beat" in content(friendly) and "counts for" not in content(friendly)
        reported = await dc.send(command(
            "report", option("result", "win"), option("again", True),
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


async def _joined(dc: DiscordHarness, mod: dict[str, Any], players: list[dict[str, Any]],
                  fmt: str) -> None:
    """A duel ladder and its tournament Кубок of `fmt`, which every one of `players` joined."""
    await dc.send(command("create", option("name", "main"), option("preset", "duel"),
                          option("options", "confirm=false"), by=mod, group="ladder"))
    await dc.send(command("create", option("name", "Кубок"), option("format", fmt),
                          by=mod, group="tournament"))
    for who in players:
        await dc.send(command("join", by=who))
        await dc.send(command("join", option("name", "Кубок"), by=who, group="tournament"))


async def test_a_64_player_swiss_stays_readable_on_discord(tmp_path: Path) -> None:
    """Sixty-four players with names at their longest (hostile ones among them): the start
    names the first 16 seeds, not a line of sixty-four; every message is cut between
    lines (looked at: no line runs on for screens); the asker's own game comes first; the
    table pages by 20. After round 1 (each higher seed wins), round 2 pairs the 32 winners
    among themselves, page 2 of the table is places 21-40."""
    mod = member(person(1300000000000000201, "mod"), permissions=MANAGE_GUILD)
    players = [member(person(1300000000000000300 + i, f"{HOSTILE[:28]}{i:02d}" if i % 2
                             else f"Щ{i:02d}" + "ы" * 29)) for i in range(64)]
    async with discord_harness(tmp_path / "l.db") as dc:
        await _joined(dc, mod, players, "swiss")

        async def said(by: dict[str, Any], name: str, *options: dict[str, Any]) -> list[str]:
            before = len(dc.fake.shown)
            await dc.send(command(name, *options, by=by, group="tournament"))
            return [content(m) for m in dc.fake.shown[before:]]

        started = await said(mod, "start")
        first = started[0].splitlines()[0]
        assert "15. Щ14" in first and "and 48 more (all of them: /tournament show name:Кубок)" \
            in first and "17. " not in first
        text = "\n".join(started)
        assert "1. Щ00" in text and "32. " in text  # board 32: seed 32 against seed 64
        assert all(len(line) < 1000 for m in started for line in m.splitlines()
                   if not line.startswith("<@"))  # (the last line calls the 64 players)
        for i in range(32):  # board i: seed i+1 against seed i+33; the higher seed wins
            await dc.send(command("report", option("result", "win"), with_user(
                user_option("opponent", players[i + 32]["user"]), players[i + 32]["user"]),
                by=players[i]))
        shown = await said(players[40], "show")
        assert shown[0].startswith("Your game: round 2 against ")
        assert "Кубок, page 1 of 4:" in shown[0] and "Round 2 of 6 of Кубок" in "".join(shown)
        assert "… and 44 more: /tournament show name:Кубок page:2" in shown[0]
        assert all(len(m) <= 2000 for m in shown)
        second = await said(players[40], "show", option("name", "Кубок"), option("page", 2))
        lines = [line for m in second for line in m.splitlines()]
        assert "Кубок, page 2 of 4:" in lines
        table = lines[lines.index("Кубок, page 2 of 4:") + 1:][:20]
        assert [line.split(".")[0] for line in table] == [str(n) for n in range(21, 41)]
        assert all(" 0 (Buchholz 1, SB 0)" in line for line in table[12:])  # the losers


async def test_a_64_player_double_bracket_is_a_picture_on_discord(tmp_path: Path) -> None:
    """/tournament shows an elimination's bracket as a picture Discord takes (within its
    10 MiB upload limit), beside the text."""
    mod = member(person(1300000000000000201, "mod"), permissions=MANAGE_GUILD)
    players = [member(person(1300000000000000300 + i, f"{HOSTILE[:28]}{i:02d}"))
               for i in range(64)]
    async with discord_harness(tmp_path / "l.db") as dc:
        await _joined(dc, mod, players, "double")
        await dc.send(command("start", by=mod, group="tournament"))
        await dc.send(command("report", option("result", "win"), with_user(
            user_option("opponent", players[63]["user"]), players[63]["user"]),
            by=players[0]))
        before = len(dc.fake.uploads)
        shown = await dc.send(command("show", by=players[1], group="tournament"))
        assert "W1 #1: " in content(shown) or "W1 #1: " in "".join(dc.fake.texts())
        [(_, files)] = dc.fake.uploads[before:]
        [png] = files.values()
        assert png.startswith(b"\x89PNG") and len(png) < 10 * 1024 * 1024
        width, height = int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")
        assert 2000 < width < 3000 and 2500 < height < 4000
        (tmp_path / "bracket.png").write_bytes(png)


async def test_a_64_player_swiss_on_telegram_stays_within_its_limits(tmp_path: Path) -> None:
    """The same field on Telegram: every message within 4,096 characters (the stand-in
    refuses more), cut between lines, the table paged, the next page's command typed as
    Telegram's users type it."""
    mod = tg_person(201, "Mo", "mod")
    people = [tg_person(300 + i, f"{HOSTILE[:28]}{i:02d}" if i % 2 else f"Щ{i:02d}" + "ы" * 29)
              for i in range(64)]
    async with telegram_harness(tmp_path / "l.db", [mod]) as tg:
        await tg.say(mod, "/ladder create main preset=duel confirm=false")
        await tg.say(mod, "/tournament create Кубок format=swiss")
        for who in people:
            await tg.say(who, "/join")
            await tg.say(who, "/tournament join")
        started = await tg.say(mod, "/tournament start")
        assert "and 48 more (all of them: /tournament Кубок)" in started[0]
        shown = await tg.say(people[3], "/tournament")
        assert shown[0].startswith("Your game: round 1 against ")
        assert "… and 44 more: /tournament Кубок page=2" in "\n".join(shown)
        assert all(len(text) <= 4096 for text in started + shown)
        second = "\n".join(await tg.say(people[3], "/tournament Кубок page=2"))
        assert "Кубок, page 2 of 4:" in second and "\n21. " in second
