"""No English is left where a ladder speaks another language: with every message said in
a pseudo-language (each one wrapped in ⟦…⟧), a full console session, the web pages and
the Discord and Telegram payloads of a Russian ladder hold nothing outside the wrappers
but what users typed (names, reasons), numbers, dates and the command words that stay
as they are in every language (their usage lines)."""

from __future__ import annotations

import html
import io
import re
from collections.abc import AsyncIterator, Iterable
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot import console as console_module
from bot.discord.roles import RoleSync
from bot.following import LiveStandings
from bot.web import words as web_words
from bot.web.pages import Web
from core import i18n
from core.commands.registry import USAGE
from storage.sqlite.store import SqliteStore
from tests.support.adapters import discord_harness, telegram_harness
from tests.support.chat import Chat
from tests.support.discord_payloads import (
    CHANNEL,
    MANAGE_GUILD,
    button,
    command,
    member,
    option,
    person,
)
from tests.support.telegram_fake import person as tg_person

# What users typed, and the words that stay as they are in every language.
TYPED = {"alice", "bob", "carol", "mod", "main", "rungs", "league", "mistake", "wrong",
         "winner", "bonus", "inactive", "cheating", "ok", "busy", "nowhere", "extra", "chess",
         "colour", "xx", "charts", "png", "json", "deleted", "console", "q"}
LATIN = re.compile(r"[A-Za-z]{2,}")


@pytest.fixture(autouse=True)
def pseudo(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every message said in a language other than English is wrapped. English stays
    bare, so words that skip the catalogs (a `str()` of a message is English) show."""
    def wrap(text: str, language: str) -> str:
        return text if language == "en" else f"⟦{text}⟧"

    monkeypatch.setattr(i18n, "wrapped", wrap)
    monkeypatch.setattr(web_words, "wrapped", wrap)


def unsaid(text: str) -> str:
    """What is left of `text` outside every ⟦…⟧ (nested ones too)."""
    left, depth = [], 0
    for char in text:
        if char == "⟦":
            depth += 1
        elif char == "⟧":
            depth -= 1
        elif depth == 0:
            left.append(char)
    return "".join(left)


def english(texts: Iterable[str], allowed: set[str] = TYPED) -> list[str]:
    """Each line of `texts`, outside the wrappers, that holds a word nobody typed."""
    return [line for text in texts for line in unsaid(text).splitlines()
            if line.strip().replace("\\", "") not in USAGE.values()  # (Discord escapes them)
            and any(w not in allowed for w in LATIN.findall(line))]


SESSION = """\
!time 2026-01-05T10:00:00+00:00
@mod: /ladder create main preset=duel language=ru confirm=false calibration=0
@mod: /help
@mod: /help settings
@mod: /help presets
@mod: /help report
@mod: /help nothing
@alice: /join
@bob: /join
@carol: /join
@alice: /join
@alice: /report win @bob major
@bob: /report win @carol moves=40
@alice: /report draw @carol
@alice: /report win @bob unrated
@alice: /report win @dave
@alice: /report
@alice: /frobnicate
@alice: /standings
@alice: /standings season
@alice: /standings week
@alice: /standings rating
@alice: /standings page=9
@alice: /profile
@alice: /profile @bob
@alice: /history
@alice: /players
@alice: /halloffame
@alice: /suggest
@bob: /suggest
@mod: /ladder info
@mod: /ladder list
@mod: /ladder set k=-5
@mod: /ladder set k=24 public=true
@mod: /ladder set colour=red
@mod: /ladder set rd=100
@mod: /mod void 1 mistake
@mod: /mod set 2 @carol wrong winner
@mod: /mod adjust @alice +5 bonus
@mod: /mod remove @carol inactive
@mod: /mod add @carol
@mod: /mod ban @bob cheating
@bob: /join
@mod: /mod unban @bob ok
@mod: /mod season close
@alice: /halloffame
@alice: /history
@alice: /mod void 1 mistake
@mod: /ladder set confirm=true
@alice: /report win @bob
@bob: /dispute
@alice: /report win @carol
@alice: /withdraw
@alice: /report loss @carol
@carol: /confirm
@alice: /leave
@mod: /ladder create rungs preset=nhwc language=ru
@alice: /join ladder=rungs
@bob: /join ladder=rungs
@carol: /join ladder=rungs
@carol: /challenge @alice ladder=rungs
@alice: /accept ladder=rungs
@carol: /report win @alice ladder=rungs
@carol: /report win @alice major ladder=rungs
@alice: /confirm ladder=rungs
@bob: /unavailable ladder=rungs
@bob: /available ladder=rungs
@bob: /challenge @carol ladder=rungs
@carol: /decline busy ladder=rungs
@bob: /challenge cancel ladder=rungs
@carol: /challenge @bob ladder=rungs
!time 2026-01-20T10:00:00+00:00
@alice: /history ladder=rungs
@mod: /ladder rename league
@mod: /ladder default rungs
@mod: /ladder delete league
@mod: /ladder delete league confirm
@mod: /ladder create x preset=chess
@mod: /ladder create q preset=warlight queue=1v1 bestof=3 language=ru
@alice: /join ladder=q
@bob: /join ladder=q
@carol: /join ladder=q
@alice: /queue ladder=q
@alice: /queue ladder=q
@bob: /queue ladder=q
@carol: /ready ladder=q
@alice: /ready ladder=q
@alice: /ready ladder=q
@bob: /queue leave ladder=q
@carol: /queue ladder=q
@carol: /ready ladder=q
@alice: /ready ladder=q
@alice: /report win @carol ladder=q
@alice: /report win @carol 1-1 ladder=q
@alice: /report win @carol 3-0 ladder=q
@alice: /report win @carol 2-1 ladder=q
@carol: /queue ladder=q
@carol: /queue leave ladder=q
@mod: /ladder set queue=5v5 bestof_rating=games ladder=q
@mod: /ladder create p preset=nhwc queue=1v1 language=ru
@alice: /standings ladder=nowhere
@mod: /ladder set weekly_summary=true decay=true
!time 2026-02-09T10:00:00+00:00
@alice: /standings
@alice: /mod
@alice: /report win
@alice: /confirm 99
@alice: /report win @alice
@alice: /join extra words here
@mod: /ladder set language=xx
"""


async def test_a_full_console_session_leaves_no_english(tmp_path: Path) -> None:
    out, err = io.StringIO(), io.StringIO()
    async with SqliteStore(tmp_path / "l.db") as store:
        await console_module.Console(store, ["mod"], out, err).run(SESSION.splitlines())
    said = [line.removeprefix("bot: ") for line in out.getvalue().splitlines()]
    assert err.getvalue() == ""
    assert len(said) > 200 and sum("⟦" in line for line in said) > 150  # all of it spoke
    assert english(["\n".join(said)]) == []


@pytest.fixture
async def russian_site(tmp_path: Path) -> AsyncIterator[TestClient[Any, Any]]:
    async with SqliteStore(tmp_path / "l.db") as store:
        chat = Chat(store)
        await chat.ladder("duel", "confirm=false", "calibration=0", "public=true", "language=ru")
        await chat.join("alice", "bob", "carol")
        await chat.ok("alice", "/report win @bob major")
        await chat.ok("carol", "/report draw @alice")
        await chat.ok("mod", "/mod void 1 mistake")
        await chat.ok("mod", "/mod adjust @alice +5 bonus")
        await chat.time("2026-02-01T00:00:00+00:00")  # a season closes: a Hall of Fame
        async with TestClient(TestServer(Web(store, clock=lambda: chat.at).app)) as client:
            yield client


def page_text(page: str) -> str:
    """A page's words as a reader sees them: no style sheet, no tags, entities read."""
    page = re.sub(r"(?s)<style>.*?</style>|<svg.*?</svg>", " ", page)
    return html.unescape(re.sub(r"<[^>]+>", "\n", page))


@pytest.mark.parametrize("path", ["/", "/ladders/1", "/ladders/1?table=season",
                                  "/ladders/1?table=week", "/ladders/1?table=rating",
                                  "/ladders/1/hall", "/ladders/1/history",
                                  "/ladders/1/players/1", "/ladders/99"])
async def test_the_web_pages_leave_no_english(russian_site: TestClient[Any, Any],
                                              path: str) -> None:
    response = await russian_site.get(path, headers={"Accept-Language": "ru"})
    page = await response.text()
    assert '<html lang="ru">' in page
    # The brand, the preset's name and a margin are words of the bot's commands.
    assert english([page_text(page)], TYPED | {"Ladderbot", "duel", "major"}) == []


RU = "ru"
MOD = member(person(1300000000000000101, "mod"), permissions=MANAGE_GUILD)
ALICE = member(person(1300000000000000102, "alice"))
BOB = member(person(1300000000000000103, "bob"))


def russian(payload: dict[str, Any]) -> dict[str, Any]:
    """An interaction from a client set to Russian."""
    return {**payload, "locale": RU}


def discord_words(response: dict[str, Any]) -> list[str]:
    """Every text of a Discord message: its content, embeds and buttons' labels."""
    found = [str(response.get("content") or "")]
    for embed in response.get("embeds") or []:
        found += [embed.get("title", ""), embed.get("description", ""),
                  (embed.get("footer") or {}).get("text", "")]
        found += [f"{f['name']}\n{f['value']}" for f in embed.get("fields", [])]
    found += [c.get("label", "") for row in response.get("components") or []
              for c in row.get("components", [])]
    return found


async def test_discord_payloads_leave_no_english(tmp_path: Path) -> None:
    async with discord_harness(tmp_path / "l.db") as dc:
        user = {"type": 6, "value": BOB["user"]["id"]}
        opponent = {**user, "name": "opponent", "user": BOB["user"]}
        for payload in [
            command("create", option("name", "main"), option("preset", "duel"),
                    option("options", "language=ru confirm=true"), by=MOD, group="ladder"),
            command("join", by=ALICE), command("join", by=BOB), command("join", by=BOB),
            command("report", option("result", "win"), opponent, by=ALICE),
            button("lb:confirm:1:main", BOB), button("lb:confirm:1:main", BOB),
            command("standings", by=ALICE), command("profile", by=ALICE),
            command("history", by=ALICE), command("help", by=ALICE),
            command("void", option("match", 1), option("reason", "mistake"), by=ALICE,
                    group="mod"),
            command("set", option("options", "k=-5"), by=MOD, group="ladder"),
            command("set", option("options", "roles=leagues,top:3 champion_role=true"), by=MOD,
                    group="ladder"),
            command("pin", by=MOD, group="ladder"), command("info", by=MOD, group="ladder"),
        ]:
            await dc.send(russian(payload))
        answers = dc.fake.responses()
        # what follows the standings: the live message, and the names of the roles made
        live = LiveStandings(dc.store, [dc.platform.board], dc.clock, dc.platform.post)
        await live.step()
        await live.settled()
        sync = RoleSync(dc.store, dc.platform.roles, dc.clock)
        while (wake := await sync.step()) is not None:
            dc.clock.now = wake
        made = [r["name"] for r in dc.fake.guild.roles.values()
                if r["name"] not in ("@everyone", "Ladderbot")]
        posted = dc.fake.channel_posts(CHANNEL)
    assert len(answers) >= 16 and made and posted
    assert english(w for answer in answers for w in discord_words(answer)) == []
    assert english([*made, *posted]) == []


async def test_telegram_payloads_leave_no_english(tmp_path: Path) -> None:
    admin = tg_person(500, "mod")
    alice, bob = tg_person(501, "alice", "alice"), tg_person(502, "bob", "bob")
    for who in (admin, alice, bob):
        who["language_code"] = RU
    async with telegram_harness(tmp_path / "l.db", [admin]) as tg:
        said = await tg.say(admin, "/ladder create main preset=duel language=ru")
        for who, text in [(alice, "/join"), (bob, "/join"), (alice, "/report win @bob"),
                          (alice, "/standings"), (bob, "/help"), (bob, "/frobnicate")]:
            said += await tg.say(who, text)
        said += await tg.press(bob, "confirm:main:1")
        said += await tg.press(bob, "confirm:main:1")  # again: an alert
        said += await tg.press(bob, "nonsense")
        private = {"id": bob["id"], "type": "private", "first_name": "bob"}
        said += await tg.say(bob, "/report win @alice", chat=private)
        said += await tg.say(bob, "/profile", chat=private)
        alerts = [a.get("text", "") for a in tg.alerts()]
        menus = [c["description"] for m, p in tg.api.calls if m == "setMyCommands"
                 and p.get("language_code") == RU for c in p["commands"]]
    assert len(said) >= 10 and len(alerts) == 3 and menus
    assert english([*said, *alerts]) == []
    assert all(d.startswith("⟦") and d.endswith("⟧") for d in menus)


async def test_discords_command_menu_has_no_english_in_russian() -> None:
    from bot.config import Config
    from bot.discord.platform import DiscordPlatform
    from bot.discord.words import Words

    platform = DiscordPlatform(Config(), None)
    payloads = [await c.get_translated_payload(platform.tree, Words())
                for c in platform.tree.get_commands()]

    def russian_words(node: dict[str, Any]) -> Iterable[str]:
        if "description_localizations" in node:
            yield node["description_localizations"][RU]
        for choice in node.get("choices", []):  # (a preset's name is a command word)
            if "name_localizations" in choice:
                yield choice["name_localizations"][RU]
        for inner in node.get("options", []):
            yield from russian_words(inner)

    said = [words for payload in payloads for words in russian_words(payload)]
    assert len(said) > 40 and all(w.startswith("⟦") and w.endswith("⟧") for w in said), said
