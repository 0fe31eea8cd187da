"""Issue 22's acceptance: a 200-player ladder with 32-character hostile names, 60 seasons
and 500 games of one player. Every command and button, on Discord and on Telegram, is
answered within the platform's limits (the strict stand-ins refuse anything else, and
the harnesses check that nothing was refused and nothing a player typed became a link),
and no reply is cut inside a line: what each platform shows is the whole reply, in
whole lines (or, in a line longer than a message, whole words)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.discord import render as discord_render
from bot.telegram import render as telegram_render
from bot.text import APOLOGY
from core.commands.words import MAX_REASON
from core.domain.names import shown_name
from core.domain.records import Reply, UserRef
from tests.support.adapters import (
    DiscordHarness,
    TelegramHarness,
    discord_harness,
    telegram_harness,
)
from tests.support.chat import Chat
from tests.support.discord_payloads import (
    GUILD,
    MANAGE_GUILD,
    button,
    command,
    member,
    option,
    user_option,
    with_user,
)
from tests.support.discord_payloads import person as discord_person
from tests.support.telegram_fake import GROUP
from tests.support.telegram_fake import person as telegram_person

PLAYERS, SEASONS, STAR_GAMES = 200, 60, 500
HOSTILE = ["[x](https://y)", "<@123>", "@everyone", "&amp;", "\u202eevil", "evil.com",
           "**bold** _it_ ~~s~~ ||sp||", "https://e.vil/login"]
DISCORD_ID, TELEGRAM_ID = 1300000000000100000, 800000


def name(n: int) -> str:
    """A 32-character hostile name, unique by its last four characters."""
    return (HOSTILE[n % len(HOSTILE)] + " " + "x" * 32)[:28] + f"{n:04d}"


def reason(n: int) -> str:
    """A hostile reason as long as a reason may be."""
    return " ".join(name(n + k) for k in range(9))[:MAX_REASON]


class Roster(Chat):
    """A chat whose players "p0".."p199" are the platform's users, hostile names and all."""

    def __init__(self, store: Any, chat: str, people: dict[str, UserRef]) -> None:
        super().__init__(store, chat=chat)
        self.people = people

    def resolve(self, who: str) -> UserRef:
        return self.people.get(who) or super().resolve(who)


async def build(store: Any, chat: str, key: Callable[[int], str]) -> None:
    """The ladder: everyone joins; p0 plays 500 games over 60 seasons. Beside it, a small
    position ladder and a free-for-all one of 45."""
    # (named as the adapters name them: core.domain.names.shown_name)
    people = {f"p{n}": UserRef(key(n), shown_name(name(n))) for n in range(PLAYERS)}
    roster = Roster(store, chat, people)
    await roster.ladder("duel", "confirm=false", "calibration=0", "season_min_games=1",
                        "farm_limit=none")
    await roster.join(*people)
    for game in range(STAR_GAMES):
        opponent = f"p{1 + game % (PLAYERS - 1)}"
        result = "win" if game % 3 else "loss"
        await roster.ok("p0", f"/report {result} @{opponent}")
        if game % 20 == 0:  # corrections with long, hostile reasons, in history and profile
            await roster.ok("mod", f"/mod adjust @p0 +1 {reason(game)}")
        if game % (STAR_GAMES // SEASONS) == 0 and game // (STAR_GAMES // SEASONS) < SEASONS:
            await roster.ok("mod", "/mod season close")
    await roster.ok("mod", "/ladder set confirm=true")
    # a position ladder for the challenges, a free-for-all one for long match reports
    await roster.ok("mod", "/ladder create pos preset=nhwc")
    await roster.join("p0", "p7", "p8", "p9", ladder="ladder=pos")
    await roster.ok("mod", "/ladder create ffa preset=warlight")
    await roster.join(*(f"p{n}" for n in range(45)), ladder="ladder=ffa")


def intact(parts: list[str], text: str, limit: int) -> bool:
    """The parts are the whole text: every word, in order, and every line that fits a
    message whole in one part."""
    lines = {line for part in parts for line in part.splitlines()}
    return [w for p in parts for w in p.split()] == text.split() and all(
        line in lines for line in text.splitlines() if line.strip() and len(line) <= limit)


# ---------------------------------------------------------------- Discord

def discord_member(n: int, moderator: bool = False) -> dict[str, Any]:
    return member(discord_person(DISCORD_ID + n, name(n)),
                  permissions=MANAGE_GUILD if moderator else 0)


STAR, OTHER, THIRD = discord_member(0), discord_member(7), discord_member(8)
MOD = member(discord_person(1300000000000000101, "mod"), permissions=MANAGE_GUILD)


def someone(key: str, n: int) -> dict[str, Any]:
    user = discord_person(DISCORD_ID + n, name(n))
    return with_user(user_option(key, user), user)


def mentions(*ns: int) -> str:
    return " ".join(f"<@{DISCORD_ID + n}>" for n in ns)


def discord_script() -> list[dict[str, Any]]:
    """Every slash command, with the options that make the longest answers."""
    reads: list[dict[str, Any]] = [command("help", by=STAR)]
    reads += [command("help", option("command", topic), by=STAR)
              for topic in ("report", "mod", "ladder", "settings", "presets")]
    reads += [command("players", option("page", page), by=STAR) for page in (1, 10, 11)]
    for table in ("season", "week", "ladder", "rating"):
        reads += [command("standings", option("table", table), option("page", page), by=STAR)
                  for page in (1, 2, 10)]
    reads += [command("profile", by=STAR), command("profile", someone("player", 7), by=STAR),
              command("history", by=STAR), command("history", option("page", 50), by=STAR),
              command("history", option("page", 51), by=STAR),
              command("halloffame", by=STAR), command("info", by=STAR, group="ladder"),
              command("list", by=STAR, group="ladder")]
    pos, ffa = option("ladder", "pos"), option("ladder", "ffa")
    play = [command("join", by=STAR), command("available", by=STAR),
            command("unavailable", by=STAR),
            command("challenge", someone("opponent", 0), pos, by=OTHER),
            command("decline", option("reason", reason(4)), pos, by=STAR),
            command("available", pos, by=STAR),
            command("challenge", someone("opponent", 0), pos, by=THIRD),
            command("accept", pos, by=STAR),
            command("challenge", someone("opponent", 0), pos, by=OTHER),
            command("challenge-cancel", pos, by=OTHER),
            command("report", option("result", "win"), someone("opponent", 7), by=STAR),
            command("dispute", option("reason", reason(3)), by=OTHER),
            command("report", option("result", "loss"), someone("opponent", 8), by=STAR),
            command("confirm", by=THIRD),
            command("report", option("result", "draw"), someone("opponent", 9), by=STAR),
            command("withdraw", by=STAR),
            command("report-ffa", option("players", mentions(*range(35))), ffa, by=STAR),
            command("report-teams", option("team1", mentions(0, 1, 2)),
                    option("team2", mentions(3, 4, 5)), option("result", "team1"), ffa,
                    by=STAR)]
    moderate = [
        command("void", option("match", 1), option("reason", reason(1)), by=MOD, group="mod"),
        command("set", option("match", 2), option("result", f"<@{DISCORD_ID + 2}>"),
                option("reason", "wrong winner"), by=MOD, group="mod"),
        command("adjust", someone("player", 5), option("amount", 50), option("reason", name(5)),
                by=MOD, group="mod"),
        command("remove", someone("player", 6), option("reason", name(6)), by=MOD, group="mod"),
        command("add", someone("player", 6), by=MOD, group="mod"),
        command("ban", someone("player", 11), option("reason", name(11)), by=MOD, group="mod"),
        command("unban", someone("player", 11), option("reason", "served"), by=MOD,
                group="mod"),
        command("cancel", option("challenge", 2), option("reason", reason(2)),
                option("ladder", "pos"), by=MOD, group="mod"),
        command("season-close", option("reason", name(12)), by=MOD, group="mod"),
        command("set", option("options", "k=30 public=true"), by=MOD, group="ladder"),
        command("create", option("name", "extra"), option("preset", "dutch"),
                option("options", "confirm=false"), by=MOD, group="ladder"),
        command("rename", option("name", "league"), by=MOD, group="ladder"),
        command("default", option("name", "league"), by=MOD, group="ladder"),
        command("delete", option("name", "league"), by=MOD, group="ladder"),
        command("leave", by=STAR)]
    return reads + play + moderate


@pytest.fixture
async def big_discord(tmp_path: Path) -> AsyncIterator[DiscordHarness]:
    async with discord_harness(tmp_path / "big.db") as harness:
        await build(harness.store, f"discord:{GUILD}", lambda n: f"discord:{DISCORD_ID + n}")
        yield harness


async def test_every_discord_command_and_button_on_a_big_hostile_ladder(
    big_discord: DiscordHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    dc = big_discord
    made: list[tuple[Reply, discord_render.Rendered]] = []
    render = discord_render.render

    def spy(reply: Reply, *args: Any) -> discord_render.Rendered:
        made.append((reply, render(reply, *args)))
        return made[-1][1]

    monkeypatch.setattr("bot.discord.platform.render", spy)
    for payload in discord_script():
        answers = await dc.deliver(payload)
        assert answers and str(APOLOGY) not in str(answers), (payload["data"], answers)
        await press_every_button(dc, answers)
    for reply, rendered in made:
        text = discord_render.shown(reply.said)
        if rendered.messages[0].get("content") is not None:  # (else embeds)
            contents = [str(m["content"]) for m in rendered.messages]
            assert intact(contents, text, discord_render.MAX_CONTENT), reply.said[:200]
        else:
            embeds = [m["embed"] for m in rendered.messages]
            title, _, body = text.partition("\n")
            assert embeds[0].title == title
            assert intact([e.description or "" for e in embeds], body,
                          discord_render.EMBED_DESCRIPTION)
    longest = max(len(r.said) for r, _ in made)
    assert longest > 4096 and sum(len(m.messages) > 1 for _, m in made) >= 3  # it was big


async def press_every_button(dc: DiscordHarness, answers: list[dict[str, Any]]) -> None:
    """Under a pending report: a stranger presses each button, then its players do."""
    ids = [c["custom_id"] for a in answers for row in a.get("components") or []
           for c in row["components"]]
    for custom_id in ids:
        assert await dc.deliver(button(custom_id, discord_member(150)))  # refused, privately
    # The free-for-all's players confirm it with the button (a long reply); the duels'
    # reports are left to the /dispute and /confirm commands that follow them.
    for custom_id in [i for i in ids if i.startswith("lb:confirm:") and i.endswith(":ffa")]:
        for player in (OTHER, THIRD):  # the first confirms; the second is told it is done
            assert await dc.deliver(button(custom_id, player))


# ---------------------------------------------------------------- Telegram

def telegram_user(n: int) -> dict[str, Any]:
    return telegram_person(TELEGRAM_ID + n, name(n))  # no username: shown by its full name


def said(*words: str | int) -> tuple[str, list[dict[str, Any]]]:
    """A message text, with each int a player mentioned as Telegram clients do for a user
    without a username (a text_mention entity; offsets in UTF-16 code units)."""
    text, entities = "", []
    for word in words:
        if text:
            text += " "
        if isinstance(word, int):
            shown = name(word)
            entities.append({"type": "text_mention", "offset": len(text.encode("utf-16-le")) // 2,
                             "length": len(shown.encode("utf-16-le")) // 2,
                             "user": telegram_user(word)})
            text += shown
        else:
            text += word
    return text, entities


def telegram_script() -> list[tuple[int, tuple[str, list[dict[str, Any]]]]]:
    """(who, message) for every command, with the arguments of the longest answers."""
    star = 0
    steps: list[tuple[int, tuple[str, list[dict[str, Any]]]]] = [
        (star, said("/start")), (star, said("/help")), (star, said("/help report")),
        (star, said("/help settings")),
        (star, said("/help presets")), (star, said("/players")), (star, said("/players page=10")),
        (star, said("/players page=11"))]
    for table in ("season", "week", "ladder", "rating"):
        steps += [(star, said(f"/standings {table} page={page}")) for page in (1, 2, 10)]
    steps += [(star, said("/profile")), (star, said("/profile", 7)), (star, said("/history")),
              (star, said("/history page=50")), (star, said("/history page=51")),
              (star, said("/halloffame")), (star, said("/ladder info")),
              (star, said("/ladder list")), (star, said("/join")), (star, said("/available")),
              (star, said("/unavailable")), (7, said("/challenge", 0, "ladder=pos")),
              (star, said("/decline", reason(4), "ladder=pos")),
              (star, said("/available ladder=pos")), (8, said("/challenge", 0, "ladder=pos")),
              (star, said("/accept ladder=pos")), (7, said("/challenge", 0, "ladder=pos")),
              (7, said("/challenge cancel ladder=pos")),
              (star, said("/report win", 7)), (7, said("/dispute", reason(3))),
              (star, said("/report loss", 8)), (8, said("/confirm")),
              (star, said("/report draw", 9)), (star, said("/withdraw")),
              (star, said("/report ffa", *range(35), "ladder=ffa")),
              (star, said("/report teams", 0, 1, 2, "vs", 3, 4, 5, "ladder=ffa")),
              (-1, said("/mod void 1", reason(1))), (-1, said("/mod set 2", 2, "wrong winner")),
              (-1, said("/mod adjust", 5, "+50", name(5))), (-1, said("/mod remove", 6, name(6))),
              (-1, said("/mod add", 6)), (-1, said("/mod ban", 11, name(11))),
              (-1, said("/mod unban", 11, "served")),
              (-1, said("/mod cancel 2", reason(2), "ladder=pos")),
              (-1, said("/mod season close", name(12))),
              (-1, said("/ladder set k=30 public=true")),
              (-1, said("/ladder create extra preset=dutch confirm=false")),
              (-1, said("/ladder rename league")),
              (-1, said("/ladder default league")), (-1, said("/ladder delete league")),
              (star, said("/leave"))]
    return steps


MODERATOR = telegram_person(101, "Mo", "mod")


@pytest.fixture
async def big_telegram(tmp_path: Path) -> AsyncIterator[TelegramHarness]:
    async with telegram_harness(tmp_path / "big.db", [MODERATOR]) as harness:
        await build(harness.store, f"telegram:{GROUP['id']}",
                    lambda n: f"telegram:{TELEGRAM_ID + n}")
        yield harness


async def test_every_telegram_command_and_button_on_a_big_hostile_ladder(
    big_telegram: TelegramHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    tg = big_telegram
    made: list[tuple[Reply, list[str]]] = []
    render = telegram_render.render

    def spy(reply: Reply, *args: Any) -> list[tuple[str, Any]]:
        parts = render(reply, *args)
        made.append((reply, [p for p, _ in parts]))
        return parts

    monkeypatch.setattr("bot.telegram.platform.render", spy)
    for who, (text, entities) in telegram_script():
        user = MODERATOR if who < 0 else telegram_user(who)
        sent, alerts = len(tg.api.sent()), len(tg.alerts())
        answers = await tg.say(user, text, entities=entities)
        assert answers and str(APOLOGY) not in answers, (text, answers)
        for pending in [p for p in tg.api.sent()[sent:] if "reply_markup" in p]:
            keys = [k["callback_data"] for row in pending["reply_markup"]["inline_keyboard"]
                    for k in row]
            for data in keys:
                await tg.press(telegram_user(150), data)  # a stranger: refused in an alert
            assert len(tg.alerts()) >= alerts + len(keys)
            if keys[0].startswith("confirm:ffa:"):  # as on Discord
                for player in (7, 8):  # the first confirms; the second is told it is done
                    await tg.press(telegram_user(player), keys[0])
    private = {"id": TELEGRAM_ID, "type": "private", "first_name": name(0)}
    for text in ("/standings", "/standings ladder=ffa", "/profile ladder=ffa",
                 "/history ladder=ffa", "/halloffame ladder=pos", "/players ladder=ffa",
                 "/ladder info ladder=pos", "/report win"):
        assert await tg.say(telegram_user(0), text, chat=private), text
    for reply, parts in made:
        assert intact(parts, telegram_render.shown(reply.said), telegram_render.MAX_MESSAGE)
    assert max(len(r.said) for r, _ in made) > 4096 and sum(len(p) > 1 for _, p in made) >= 1
    assert all(len(a.get("text", "")) <= 200 for a in tg.alerts())
