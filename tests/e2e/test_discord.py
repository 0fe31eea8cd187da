"""The Discord adapter, offline, through discord.py's real code: raw INTERACTION_CREATE
payloads go to the real CommandTree and view store; responses are captured as the HTTP
requests discord.py makes (to a loopback stand-in)."""

from __future__ import annotations

import asyncio
import json
import logging
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.discord.platform import APOLOGY
from bot.limits import Limiter
from tests.support import platform_limits
from tests.support.adapters import DiscordHarness as Harness
from tests.support.adapters import discord_harness, rewired, with_web_url
from tests.support.chat import Chat
from tests.support.discord_fake import (
    CHANNEL,
    GUILD,
    MANAGE_GUILD,
    OTHER_CHANNEL,
    button,
    command,
    member,
    option,
    person,
    user_option,
    with_user,
)

ROOT = Path(__file__).resolve().parents[2]
MOD = member(person(1300000000000000101, "mod"), permissions=MANAGE_GUILD)
ALICE = member(person(1300000000000000102, "alice"))
BOB = member(person(1300000000000000103, "bob"))
DAVE = member(person(1300000000000000105, "dave"))
EPHEMERAL = 64


@pytest.fixture
async def dc(tmp_path: Path) -> AsyncIterator[Harness]:
    async with discord_harness(tmp_path / "l.db") as harness:
        yield harness


def text(response: dict[str, Any]) -> str:
    if response.get("embeds"):
        e = response["embeds"][0]
        return f"{e.get('title', '')}\n{e.get('description', '')}".strip()
    return str(response.get("content", ""))


def ephemeral(response: dict[str, Any]) -> bool:
    return bool(response.get("flags", 0) & EPHEMERAL)


async def ladder(dc: Harness, *options: str) -> None:
    await dc.send(command("create", option("name", "main"), option("preset", "duel"),
                          option("options", " ".join(options)), by=MOD, group="ladder"))
    await dc.send(command("join", by=ALICE))
    await dc.send(command("join", by=BOB))


def report(by: dict[str, Any], result: str, opponent: dict[str, Any],
           *extra: dict[str, Any]) -> dict[str, Any]:
    return command("report", option("result", result),
                   with_user(user_option("opponent", opponent["user"]), opponent["user"]),
                   *extra, by=by)


async def test_a_duel_from_create_to_confirm_button(dc: Harness) -> None:
    created = await dc.send(command("create", option("name", "main"), option("preset", "duel"),
                                    by=MOD, group="ladder"))
    assert text(created).startswith("Ladder main created with the duel rulebook")
    await dc.send(command("join", by=ALICE))
    await dc.send(command("join", by=BOB))
    pending = await dc.send(report(ALICE, "win", BOB))
    assert text(pending).startswith("Match #1 reported: alice beat bob.")
    ids = [c["custom_id"] for c in pending["components"][0]["components"]]
    assert ids == ["lb:confirm:1:main", "lb:dispute:1:main", "lb:withdraw:1:main"]
    confirmed = await dc.send(button("lb:confirm:1:main", BOB))
    assert "alice 1000 -> 1016 (+16), bob 1000 -> 984 (-16)" in text(confirmed)
    assert not ephemeral(confirmed)
    assert {p["name"]: p["rating"] for p in (await dc.export())["players"]} == {
        "alice": 1016, "bob": 984}
    # the buttons are taken off the report
    assert any(m == "PATCH" and p.startswith(f"/channels/{CHANNEL}/messages/")
               for m, p, _ in dc.fake.requests)


async def test_the_reporter_withdraws_with_the_button(dc: Harness) -> None:
    await ladder(dc)
    await dc.send(report(ALICE, "win", BOB))
    answer = await dc.send(button("lb:withdraw:1:main", BOB))
    assert ephemeral(answer) and "your opponent reported #1: /dispute 1" in text(answer)
    withdrawn = await dc.send(button("lb:withdraw:1:main", ALICE))
    assert text(withdrawn) == "Match #1 (alice beat bob) withdrawn by alice: it never counted."
    assert not ephemeral(withdrawn)
    assert [m["status"] for m in (await dc.export())["matches"]] == ["voided"]


async def test_a_withdrawn_report_leaves_its_buttons_nothing_to_confirm(dc: Harness) -> None:
    await ladder(dc)
    await dc.send(report(ALICE, "win", BOB))
    withdrawn = await dc.send(command("withdraw", by=ALICE))
    assert text(withdrawn) == "Match #1 (alice beat bob) withdrawn by alice: it never counted."
    answer = await dc.send(button("lb:confirm:1:main", BOB))
    assert ephemeral(answer)
    assert text(answer) == "Match #1 is voided; only a pending report can be confirmed."
    assert [m["status"] for m in (await dc.export())["matches"]] == ["voided"]


async def test_a_stranger_pressing_confirm_gets_an_ephemeral_no(dc: Harness) -> None:
    await ladder(dc)
    await dc.send(command("join", by=DAVE))
    await dc.send(report(ALICE, "win", BOB))
    before = await dc.export()
    answer = await dc.send(button("lb:confirm:1:main", DAVE))
    assert ephemeral(answer)
    assert text(answer) == "Only the players of match #1 can confirm it."
    assert await dc.export() == before


async def test_a_non_moderator_using_mod_gets_an_ephemeral_no(dc: Harness) -> None:
    await ladder(dc, "confirm=false")
    await dc.send(report(ALICE, "win", BOB))
    before = await dc.export()
    answer = await dc.send(command("void", option("match", 1), option("reason", "no"),
                                   by=ALICE, group="mod"))
    assert ephemeral(answer) and text(answer).startswith("Only moderators")
    assert await dc.export() == before
    done = await dc.send(command("void", option("match", 1), option("reason", "mistake"),
                                 by=MOD, group="mod"))
    assert "Standings re-derived" in text(done)


async def test_malformed_options_get_an_ephemeral_explanation(dc: Harness) -> None:
    await ladder(dc, "confirm=false")
    before = await dc.export()
    for payload, words in [
        (command("create", option("name", "x y"), option("preset", "duel"), by=MOD,
                 group="ladder"), "Settings are written key=value; 'y' is not"),
        (command("set", option("options", "k"), by=MOD, group="ladder"),
         "Settings are written key=value"),
        (command("set", option("options", "k=-5"), by=MOD, group="ladder"),
         "expected a number above 0"),
        (command("report-ffa", option("players", "first second"), by=ALICE),
         "Name every player in finishing order"),
        (report(ALICE, "draw", BOB, option("margin", "major")), "A draw carries no margin"),
        (command("report-teams",
                 option("team1", f"<@{ALICE['user']['id']}> <@{BOB['user']['id']}>"),
                 option("team2", f"<@{DAVE['user']['id']}>"), option("result", "team1"),
                 by=ALICE),  # a user known only by the mention is addressed by it, not "@@"
         f"<@{DAVE['user']['id']}> has not joined main: ask <@{DAVE['user']['id']}> to /join"),
    ]:
        answer = await dc.send(payload)
        assert ephemeral(answer), text(answer)
        assert words in text(answer)
    assert await dc.export() == before


async def test_standings_and_profiles_are_embeds(dc: Harness) -> None:
    await ladder(dc, "confirm=false")
    await dc.send(report(ALICE, "win", BOB))
    standings = await dc.send(command("standings", option("table", "season"), by=ALICE))
    assert standings["embeds"][0]["title"] == "main: season 2026-01 (gain this month; 3+ rated " \
                                              "games)"
    profile = await dc.send(command("profile", with_user(user_option("player", BOB["user"]),
                                                         BOB["user"]), by=ALICE))
    assert profile["embeds"][0]["title"].startswith("bob on main: rating 984")


async def test_free_for_all_and_teams_take_mentions(dc: Harness) -> None:
    await dc.send(command("create", option("name", "main"), option("preset", "warlight"),
                          option("options", "confirm=false"), by=MOD, group="ladder"))
    for who in (ALICE, BOB, DAVE, MOD):
        await dc.send(command("join", by=who))
    ids = [w["user"]["id"] for w in (ALICE, BOB, DAVE)]
    ffa = await dc.send(command("report-ffa", option("players", " ".join(f"<@{i}>" for i in ids)),
                                by=ALICE))
    assert "alice 1200 -> 1232 (+32)" in text(ffa)
    teams = await dc.send(command(
        "report-teams", option("team1", f"<@{ids[0]}> <@{ids[1]}>"),
        option("team2", f"<@{ids[2]}> <@{MOD['user']['id']}>"), option("result", "team2"),
        by=ALICE))
    assert text(teams).startswith("Match #2:") and "beat alice and bob" in text(teams)


async def test_moderator_role_per_ladder(dc: Harness) -> None:
    role = 1300000000000000777
    await ladder(dc, "confirm=false", f"mod_role={role}")
    helper = member(person(1300000000000000106, "helper"), roles=[role])
    done = await dc.send(command("adjust", with_user(user_option("player", ALICE["user"]),
                                                     ALICE["user"]),
                                 option("amount", 5), option("reason", "fair play"), by=helper,
                                 group="mod"))
    assert "alice 1000 -> 1005 (+5)" in text(done)


async def test_announcements_go_to_the_ladders_channel(dc: Harness) -> None:
    await ladder(dc)
    await dc.send(report(ALICE, "win", BOB))
    elsewhere = command("dispute", option("reason", "not true"), by=BOB)
    elsewhere["channel_id"] = str(OTHER_CHANNEL)
    elsewhere["channel"]["id"] = str(OTHER_CHANNEL)
    answer = await dc.send(elsewhere)
    assert "is disputed: not true" in text(answer)
    assert [p for p in dc.fake.channel_posts(CHANNEL) if "is disputed" in p]
    from core.domain.records import Announcement

    await dc.platform.post(Announcement(f"discord:{GUILD}", "main", "Season over.",
                                        str(CHANNEL)))
    assert dc.fake.channel_posts(CHANNEL)[-1] == "Season over."


async def test_match_ids_autocomplete_in_mod(dc: Harness) -> None:
    await ladder(dc, "confirm=false")
    await dc.send(report(ALICE, "win", BOB))
    payload = command("void", {"name": "match", "type": 4, "value": "", "focused": True},
                      by=MOD, group="mod")
    payload["type"] = 4
    choices = (await dc.send(payload))["choices"]
    assert choices == [{"name": "#1 alice vs bob (confirmed)", "value": 1}]


async def test_an_autocomplete_the_database_cannot_answer_in_time_offers_nothing(
    dc: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An autocomplete cannot be deferred: waiting behind a long correction, it was
    answered after Discord's 3 seconds (404). It offers no choices instead, in time."""
    await ladder(dc, "confirm=false")
    await dc.send(report(ALICE, "win", BOB))

    async def stuck(work: Any, **kwargs: Any) -> Any:
        await asyncio.Event().wait()  # the database thread is busy for as long as it takes

    monkeypatch.setattr(dc.store, "run", stuck)
    dc.platform.autocomplete_wait = 0  # (gives up at once: no real time passes)
    payload = command("void", {"name": "match", "type": 4, "value": "", "focused": True},
                      by=MOD, group="mod")
    payload["type"] = 4
    assert (await dc.send(payload))["choices"] == []


async def test_long_names_in_autocomplete_are_cut_at_a_space(dc: Harness) -> None:
    long = [member(person(1300000000000000400 + n, f"{'w' * 20} {'v' * 20} {n}"))
            for n in range(2)]
    await ladder(dc, "confirm=false")
    for who in long:
        await dc.send(command("join", by=who))
    await dc.send(report(long[0], "win", long[1]))
    payload = command("void", {"name": "match", "type": 4, "value": "", "focused": True},
                      by=MOD, group="mod")
    payload["type"] = 4
    [choice] = (await dc.send(payload))["choices"]
    full = "#1 " + " vs ".join(f"{'w' * 20} {'v' * 20} {n}" for n in range(2)) + " (confirmed)"
    shown = choice["name"].removesuffix("…")
    assert len(choice["name"]) <= 100 and shown != choice["name"]
    assert full.startswith(shown) and full[len(shown)] == " "  # cut between words


async def test_an_exception_is_logged_and_the_user_gets_an_apology(
    dc: Harness, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    async def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("database on fire")

    monkeypatch.setattr(dc.store, "run", broken)
    with caplog.at_level(logging.ERROR):
        answer = await dc.send(command("standings", by=ALICE))
    assert text(answer) == str(APOLOGY) and ephemeral(answer)
    assert "database on fire" in caplog.text and "Traceback" in caplog.text


def dry_run(tmp_path: Path) -> list[dict[str, Any]]:
    """`ladderbot discord sync --dry-run`'s payloads, run as a user would, with no token."""
    done = subprocess.run([sys.executable, "-m", "bot.cli", "discord", "sync", "--dry-run"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr
    payloads: list[dict[str, Any]] = json.loads(done.stdout)
    return payloads


def test_sync_dry_run_lists_every_command_without_a_token(tmp_path: Path) -> None:
    payloads = dry_run(tmp_path)
    # As Discord would take them: names, lengths, ranges (`/ready`'s match went to 2^53,
    # one past Discord's integers, and the one bulk request failed every command), option
    # counts, the 8,000 characters of a command.
    assert platform_limits.discord_commands(payloads) == []
    texts = [each for each in _options(payloads) if each["type"] == 3]
    assert texts and all(1 <= each.get("max_length", 0) <= 2000 for each in texts), [
        each["name"] for each in texts if "max_length" not in each]
    names = {p["name"]: p for p in payloads}
    assert set(names) == {"ladder", "join", "leave", "challenge", "accept", "decline",
                          "available", "unavailable", "report", "report-ffa", "report-teams",
                          "confirm", "dispute", "withdraw", "standings", "profile",
                          "history", "halloffame", "mod", "help", "players", "suggest",
                          "challenge-cancel", "queue", "queue-leave", "ready", "link", "unlink",
                          "h2h"}
    assert [o["name"] for o in names["ladder"]["options"]] == [
        "create", "set", "info", "pin", "unpin", "list", "default", "rename", "delete", "share",
        "join-share", "unshare"]
    assert [o["name"] for o in names["mod"]["options"]] == [
        "void", "set", "adjust", "remove", "add", "ban", "unban", "cancel", "season-close"]
    assert [o["name"] for o in names["standings"]["options"]] == ["table", "page", "ladder"]
    assert [c["value"] for c in names["standings"]["options"][0]["choices"]] == [
        "season", "week", "ladder", "rating"]
    assert [o["name"] for o in names["report"]["options"]][:7] == [
        "result", "opponent", "opponent_name", "score", "margin", "moves", "unrated"]
    assert [c["value"] for c in names["report"]["options"][0]["choices"]] == [
        "win", "loss", "draw"]
    assert not (tmp_path / "ladder.db").exists()


def _options(nodes: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every option of these commands, their subcommands' too."""
    found = []
    for node in nodes:
        for each in node.get("options") or []:
            found += [each] if each["type"] not in (1, 2) else _options([each])
    return found


def test_the_stand_in_refuses_what_discord_refuses_in_commands() -> None:
    def ready(**given: Any) -> list[dict[str, Any]]:
        return [{"name": "ready", "description": "d", "type": 1,
                 "options": [{"name": "match", "description": "d", **given}]}]

    assert platform_limits.discord_commands(ready(type=4, max_value=2**53 - 1)) == []
    assert platform_limits.discord_commands(ready(type=4, max_value=2**53)) == [
        "0.options.0.max_value: int53 must be between -9007199254740991 and 9007199254740991"]
    assert platform_limits.discord_commands(ready(type=3, max_length=6001))
    assert platform_limits.discord_commands(ready(type=3, min_length=-1))
    many = [{"name": f"o{n}", "description": "x" * 100, "type": 3,
             "choices": [{"name": "c" * 100, "value": "v" * 100}] * 25} for n in range(2)]
    assert platform_limits.discord_commands([{"name": "big", "description": "d", "type": 1,
                                              "options": many}]) == [
        "0: Command exceeds maximum size (8000): 10208"]  # 3 + 1 + 2 x (2 + 100 + 25 x 200)


async def test_a_flooding_user_is_slowed_politely_without_slowing_others(dc: Harness) -> None:
    await ladder(dc, "confirm=false")
    now = [0.0]
    rewired(dc.platform, limiter=Limiter(user_burst=3, user_rate=0.5, clock=lambda: now[0]))
    answers = [await dc.send(report(ALICE, "win", BOB)) for _ in range(5)]
    assert [text(a).split(":")[0] for a in answers[:3]] == ["Match #1", "Match #2", "Match #3"]
    assert ephemeral(answers[3]) and text(answers[3]) == (
        "You are sending commands faster than I can take them: please wait 2 s.")
    # an interaction must be answered, so the next one is too, briefly
    assert ephemeral(answers[4]) and text(answers[4]).startswith("Slow down a little")
    assert len((await dc.export())["matches"]) == 3
    assert not ephemeral(await dc.send(command("standings", by=BOB)))
    now[0] += 2
    assert text(await dc.send(report(ALICE, "win", BOB))).startswith("Match #4")


async def test_names_ping_nobody_and_format_nothing(dc: Harness) -> None:
    await ladder(dc)
    prankster = member(person(1300000000000000107, "@everyone"))
    joined = await dc.send(command("join", by=prankster))
    assert "@\u200beveryone joined main" in text(joined)
    # Discord parses no mention in what the bot sends: not @everyone, not roles, and only
    # the users the bot itself means (none here).
    assert joined["allowed_mentions"]["parse"] == []
    assert joined["allowed_mentions"].get("users", []) == []
    # and names are shown as typed, not as formatting or a disguised link
    phisher = member(person(1300000000000000108, "**[free nitro](https://x.example)**"))
    joined = await dc.send(command("join", by=phisher))
    # (a zero-width space after the colon: it looks as typed, and is no link)
    assert joined["content"].startswith("\\*\\*\\[free nitro](https:\u200b//x.example)\\*\\* "
                                        "joined")
    bare = member(person(1300000000000000109, "https://e.vil/login"))
    joined = await dc.send(command("join", by=bare))
    assert joined["content"].startswith("https:\u200b//e.vil/login joined")
    assert dc.fake.links == []  # (the harness checks this after every test, too)


async def test_the_bots_own_web_address_stays_a_link(dc: Harness) -> None:
    await ladder(dc, "public=true")
    rewired(dc.platform, with_web_url(dc.platform.config, "https://ladder.example"))
    info = await dc.send(command("info", by=ALICE, group="ladder"))
    assert "https://ladder.example/ladders/1" in text(info)
    assert dc.fake.links == ["https://ladder.example/ladders/1"]
    dc.fake.links.clear()


async def test_the_admin_commands_of_the_second_release(dc: Harness) -> None:
    await ladder(dc)
    banned = await dc.send(command("ban", with_user(user_option("player", BOB["user"]),
                                                    BOB["user"]),
                                   option("reason", "cheating"), by=MOD, group="mod"))
    assert text(banned).startswith("mod banned bob from main: cheating.")
    refused = await dc.send(command("join", by=BOB))
    assert ephemeral(refused) and "banned from main (by mod: cheating)" in text(refused)
    players = await dc.send(command("players", by=ALICE))
    assert "main: 1 member" in text(players)
    paged = await dc.send(command("standings", option("table", "rating"),
                                  option("page", 2), by=ALICE))
    assert "There is no page 2" in text(paged)
    renamed = await dc.send(command("rename", option("name", "league"), by=MOD,
                                    group="ladder"))
    assert text(renamed).startswith("mod renamed ladder main to league.")


async def test_a_long_reply_to_a_button_is_split_and_answered(dc: Harness) -> None:
    """35 players with 32-character names in one free-for-all: the Confirm press's reply
    is over 2,000 characters. It was refused by Discord and lost (the match confirmed,
    nobody answered, the buttons left on)."""
    players = [member(person(1300000000000000200 + n, f"{'n' * 28}{n:04d}"))
               for n in range(35)]
    await dc.send(command("create", option("name", "main"), option("preset", "warlight"),
                          by=MOD, group="ladder"))
    for who in players:
        await dc.send(command("join", by=who))
    mentions = " ".join(f"<@{p['user']['id']}>" for p in players)
    pending = await dc.send(command("report-ffa", option("players", mentions), by=players[0]))
    assert text(pending).startswith("Match #1 reported")
    answers = await dc.deliver(button("lb:confirm:1:main", players[1]))
    said = "\n".join(text(a) for a in answers)
    assert len(answers) > 1 and len(said) > 2000, said
    assert said.startswith("Match #1") and said.replace("\n", " ").endswith("and 23 more.")
    assert all(not t.endswith("n" * 3) for t in map(text, answers[:-1]))  # cut at spaces
    assert all(len(text(a)) <= 2000 for a in answers)
    assert [m["status"] for m in (await dc.export())["matches"]] == ["confirmed"]
    await dc.fake.wait_until(lambda: bool(dc.fake.edits()), lambda: "no edit")
    assert dc.fake.edits()[-1]["components"] == []


async def test_a_hall_of_fame_longer_than_an_embed_goes_on_in_more(dc: Harness) -> None:
    """60 seasons, three places each, with 32-character names: over 4,096 characters. The
    embed was cut there, mid-name, and the rest lost."""
    chat = Chat(dc.store, chat=f"discord:{GUILD}")
    await chat.ladder("duel", "confirm=false", "calibration=0", "season_min_games=1",
                      "farm_limit=none")
    names = [f"{c * 28}{n:04d}" for n, c in enumerate("abcdef")]
    await chat.join(*names)
    for _ in range(60):
        for winner, loser in zip(names[:3], names[3:], strict=True):
            await chat.ok(winner, f"/report win @{loser}")
        await chat.ok("mod", "/mod season close")
    answers = await dc.deliver(command("halloffame", by=ALICE))
    descriptions = [a["embeds"][0].get("description") or "" for a in answers]
    assert len(answers) > 1 and all(len(d) <= 4096 for d in descriptions)
    lines = "\n".join(descriptions).splitlines()
    assert len(lines) == 60 and all(line.count(". ") == 3 for line in lines), lines[-3:]
    assert lines[0].startswith("2026-01: ") and lines[-1].startswith("2026-01z35: ")



async def test_a_mention_typed_into_a_reason_pings_nobody(dc: Harness) -> None:
    """A dispute reason with `<@BOB>` in it: the reply sent `parse: ["users"]`, so Discord
    pinged bob. Only the users the bot means may be pinged."""
    await ladder(dc)
    await dc.send(report(ALICE, "win", BOB))
    reason = f"ask <@{DAVE['user']['id']}> he saw it"
    disputed = await dc.send(command("dispute", option("reason", reason), by=BOB))
    assert f"<\u200b@{DAVE['user']['id']}>" in text(disputed)  # (as typed: no pill)
    allowed = disputed["allowed_mentions"]
    assert allowed["parse"] == [] and allowed.get("users", []) == []


def test_only_the_users_the_bot_addresses_are_pinged() -> None:
    from bot.discord.render import pinged
    uid, other = 1300000000000000105, 1300000000000000106
    named = frozenset({uid})
    addressed = pinged(f"@<@{uid}>: your match #1 waits for you.", named).to_dict()
    assert addressed["parse"] == [] and addressed["users"] == [uid]
    typed = pinged(f"#1 disputed (ask <@{uid}>), waiting for a moderator", named).to_dict()
    assert typed["parse"] == [] and typed.get("users", []) == []
    # "@<@id>" typed into a reason reads as the core's address: not named, not pinged
    forged = pinged(f"#1 disputed: ask @<@{other}>", named).to_dict()
    assert forged.get("users", []) == []


async def test_a_mention_typed_as_an_address_into_a_reason_pings_nobody(dc: Harness) -> None:
    """"@<@id>" (typed as "@@dave") in a reason looked like the core addressing a user
    known only by a mention, and pinged them."""
    await ladder(dc)
    await dc.send(report(ALICE, "win", BOB))
    reason = f"ask @<@{DAVE['user']['id']}> he saw it"
    disputed = await dc.send(command("dispute", option("reason", reason), by=BOB))
    assert f"<\u200b@{DAVE['user']['id']}>" in text(disputed)  # (as typed: no pill)
    assert disputed["allowed_mentions"].get("users", []) == []


async def test_the_players_of_a_free_for_all_may_be_pinged_where_addressed(
    dc: Harness
) -> None:
    await dc.send(command("create", option("name", "main"), option("preset", "warlight"),
                          by=MOD, group="ladder"))
    for who in (ALICE, BOB, DAVE):
        await dc.send(command("join", by=who))
    ids = " ".join(f"<@{w['user']['id']}>" for w in (ALICE, BOB, DAVE))
    pending = await dc.send(command("report-ffa", option("players", ids), by=ALICE))
    named = {int(u) for u in pending["allowed_mentions"].get("users", [])}
    assert named <= {int(w["user"]["id"]) for w in (ALICE, BOB, DAVE)}


async def test_the_ladder_option_is_kept_where_options_are_parsed_as_text(dc: Harness) -> None:
    """`/ladder set options:k=20 ladder:other` answered "main: k=20" and changed the
    default ladder; /report-ffa and /mod set acted on the default ladder too."""
    await ladder(dc, "confirm=false")
    await dc.send(command("create", option("name", "other"), option("preset", "warlight"),
                          option("options", "confirm=false"), by=MOD, group="ladder"))
    for who in (ALICE, BOB, DAVE):
        await dc.send(command("join", option("ladder", "other"), by=who))
    changed = await dc.send(command("set", option("options", "k=20"),
                                    option("ladder", "other"), by=MOD, group="ladder"))
    assert text(changed).startswith("other: k=20"), text(changed)
    info = await dc.send(command("info", by=ALICE, group="ladder"))
    assert "k=" not in text(info).split("Settings changed from the preset:")[1].split("\n")[0]
    ids = " ".join(f"<@{w['user']['id']}>" for w in (ALICE, BOB, DAVE))
    ffa = await dc.send(command("report-ffa", option("players", ids),
                                option("ladder", "other"), by=ALICE))
    assert text(ffa).startswith("Match #1:") and "1200 ->" in text(ffa), text(ffa)
    order = " ".join(f"<@{w['user']['id']}>" for w in (BOB, ALICE, DAVE))
    fixed = await dc.send(command("set", option("match", 1), option("result", order),
                                  option("reason", "bob won"), option("ladder", "other"),
                                  by=MOD, group="mod"))
    assert not ephemeral(fixed) and "Standings re-derived" in text(fixed), text(fixed)
    assert (await dc.export())["matches"] == []  # main has no match


async def test_typed_options_are_checked_as_the_text_is(dc: Harness) -> None:
    """A 6,000-character /mod void reason was accepted, stored and echoed over four
    messages (the text path refuses 301); the checks are the command's own now."""
    await ladder(dc, "confirm=false")
    await dc.send(report(ALICE, "win", BOB))
    before = await dc.export()
    long = await dc.send(command("void", option("match", 1), option("reason", "x" * 6000),
                                 by=MOD, group="mod"))
    assert ephemeral(long) and "Keep the reason under 300 characters" in text(long)
    zero = await dc.send(command("adjust", with_user(user_option("player", BOB["user"]),
                                                     BOB["user"]),
                                 option("amount", 0), option("reason", "none"),
                                 by=MOD, group="mod"))
    assert ephemeral(zero) and "not 0" in text(zero)
    assert await dc.export() == before


def test_discord_is_told_the_same_limits(tmp_path: Path) -> None:
    mod = next(c for c in dry_run(tmp_path) if c["name"] == "mod")
    void = next(o for o in mod["options"] if o["name"] == "void")
    reason = next(o for o in void["options"] if o["name"] == "reason")
    assert reason["max_length"] == 300
    adjust = next(o for o in mod["options"] if o["name"] == "adjust")
    amount = next(o for o in adjust["options"] if o["name"] == "amount")
    assert (amount["min_value"], amount["max_value"]) == (-10_000, 10_000)


async def test_two_masked_links_in_one_line_are_both_shown_as_typed(dc: Harness) -> None:
    """menu.py's escape_markdown escapes only a line's first "[": a second player's
    `[Free Nitro](https://e.vil)` stayed a live link. And a right-to-left override in a
    name turned the rest of the sentence around."""
    await dc.send(command("create", option("name", "main"), option("preset", "warlight"),
                          option("options", "confirm=false"), by=MOD, group="ladder"))
    one = member(person(1300000000000000301, "[a](https://x.example)"))
    two = member(person(1300000000000000302, "[Free Nitro](https://e.vil)"))
    rtl = member(person(1300000000000000303, "\u202eevil"))
    for who in (one, two, rtl):
        await dc.send(command("join", by=who))
    ids = " ".join(f"<@{w['user']['id']}>" for w in (one, two, rtl))
    said = text(await dc.send(command("report-ffa", option("players", ids), by=one)))
    assert "\\[a](https:\u200b//x.example)" in said
    assert "\\[Free Nitro](https:\u200b//e.vil)" in said
    assert "[Free" not in said.replace(r"\[Free", "")  # no unescaped bracket anywhere
    assert "\u202eevil\u202c" in said  # the override ends with the name


def slow(dc: Harness, monkeypatch: pytest.MonkeyPatch, seconds: float) -> None:
    """Every unit of work on the database takes `seconds` on the shared clock (a void on a
    long ladder, a queue behind other servers' commands)."""
    run = dc.store.run

    async def slowly(work: Any, **kwargs: Any) -> Any:
        done = await run(work, **kwargs)
        dc.clock.now += seconds
        return done

    monkeypatch.setattr(dc.store, "run", slowly)


async def test_a_slow_correction_is_deferred_and_answered(
    dc: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Discord forgets an interaction not answered within 3 seconds: a void that took
    longer was answered too late (404 Unknown interaction), and nobody heard of it."""
    await ladder(dc, "confirm=false")
    await dc.send(report(ALICE, "win", BOB))
    slow(dc, monkeypatch, 5)
    answers = await dc.deliver(command("void", option("match", 1),
                                       option("reason", "wrong opponent"), by=MOD, group="mod"))
    assert [text(a) for a in answers] == [
        "Match #1 (alice beat bob) voided by mod: wrong opponent.\n"
        "Standings re-derived: alice 1016 -> 1000 (-16), bob 984 -> 1000 (+16)."]
    assert not ephemeral(answers[0])
    assert [m["status"] for m in (await dc.export())["matches"]] == ["voided"]


async def test_a_refusal_after_a_deferral_stays_private(
    dc: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A deferred command's first follow-up takes the deferral's flags: sent as it, a
    refusal would show in the channel. It is sent on its own, only to the asker."""
    await ladder(dc)
    slow(dc, monkeypatch, 5)
    answers = await dc.deliver(command("void", option("match", 9), option("reason", "x"),
                                       by=ALICE, group="mod"))
    assert len(answers) == 1 and ephemeral(answers[0]), answers
    assert "moderator" in text(answers[0])


async def test_a_slow_button_is_deferred_and_answered(
    dc: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    await ladder(dc)
    await dc.send(report(ALICE, "win", BOB))
    slow(dc, monkeypatch, 5)
    stranger = await dc.deliver(button("lb:confirm:1:main", DAVE))
    assert len(stranger) == 1 and ephemeral(stranger[0])
    confirmed = await dc.deliver(button("lb:confirm:1:main", BOB))
    assert "alice 1000 -> 1016 (+16)" in text(confirmed[0]) and not ephemeral(confirmed[0])
    assert [m["status"] for m in (await dc.export())["matches"]] == ["confirmed"]


async def test_a_slow_profile_with_its_chart_is_answered(
    dc: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    await ladder(dc, "confirm=false")
    await dc.send(report(ALICE, "win", BOB))
    slow(dc, monkeypatch, 5)
    answers = await dc.deliver(command("profile", by=ALICE))
    assert len(answers) == 1 and answers[0]["embeds"][0]["title"].startswith("alice")
    assert answers[0]["embeds"][0]["image"]["url"] == "attachment://chart.png"


async def test_an_answer_after_fifteen_minutes_is_refused_by_the_stand_in(dc: Harness) -> None:
    """The stand-in keeps Discord's times: it would catch a reply sent too late."""
    payload = command("help", by=ALICE)
    dc.fake.arrive(payload)
    dc.clock.now += 4
    status, body = dc.fake.answer("POST", f"/interactions/{payload['id']}/{payload['token']}"
                                          "/callback", {"type": 4, "data": {"content": "hi"}})
    assert (status, body["code"]) == (404, 10062)
    dc.fake.refused.clear()  # the harness checks that the bot itself was never refused


def test_the_command_menu_speaks_russian_and_dutch_and_names_stay(tmp_path: Path) -> None:
    payloads = dry_run(tmp_path)
    assert platform_limits.discord_commands(payloads) == []  # localizations within limits
    described: list[dict[str, Any]] = []

    def walk(node: dict[str, Any]) -> None:
        described.append(node)
        for child in node.get("options") or []:
            walk(child)

    for payload in payloads:
        walk(payload)
    assert len(described) > 100
    for node in described:  # every command, subcommand and option, in both languages
        assert set(node.get("description_localizations") or {}) == {"ru", "nl"}, node["name"]
        # /report is /report in every language: its localized name is the name itself
        assert node["name_localizations"] == {"ru": node["name"], "nl": node["name"]}
    report = next(p for p in payloads if p["name"] == "report")
    assert report["description_localizations"] == {
        "ru": "Сообщить результат сыгранной игры",
        "nl": "De uitslag van een gespeelde partij doorgeven"}
    teams = next(p for p in payloads if p["name"] == "report-teams")
    result = next(o for o in teams["options"] if o["name"] == "result")
    assert [c["name_localizations"]["ru"] for c in result["choices"]] == [
        "победила team1", "победила team2", "ничья"]
    assert [c["value"] for c in result["choices"]] == ["team1", "team2", "draw"]


async def test_a_russian_ladders_report_and_buttons_speak_russian(dc: Harness) -> None:
    await dc.send(command("create", option("name", "main"), option("preset", "duel"),
                          option("options", "language=ru"), by=MOD, group="ladder"))
    await dc.send(command("join", by=ALICE))
    await dc.send(command("join", by=BOB))
    pending = await dc.send(report(ALICE, "win", BOB))
    assert text(pending).startswith("Результат матча #1: alice побеждает bob.")
    buttons = pending["components"][0]["components"]
    assert [b["label"] for b in buttons] == ["Подтвердить", "Оспорить", "Отозвать"]
    assert [b["custom_id"] for b in buttons] == [  # what a press answers stays as it was
        "lb:confirm:1:main", "lb:dispute:1:main", "lb:withdraw:1:main"]
    confirmed = await dc.send(button("lb:confirm:1:main", BOB))
    assert text(confirmed).startswith("Матч #1 подтверждён: alice побеждает bob.")


async def test_suggest_is_an_ephemeral_list_with_names_as_typed(dc: Harness) -> None:
    await ladder(dc)
    prankster = member(person(1300000000000000110, "@everyone"))
    await dc.send(command("join", by=prankster))
    answer = await dc.send(command("suggest", by=ALICE))
    assert ephemeral(answer) and answer["allowed_mentions"]["parse"] == []
    assert text(answer) == "Fair games for alice on main now: bob (1000), @\u200beveryone (1000)."


async def test_an_open_challenge_is_issued_and_taken_with_the_challenger_option(
        dc: Harness) -> None:
    await dc.send(command("create", option("name", "cup"), option("preset", "nhwc"),
                          by=MOD, group="ladder"))
    await dc.send(command("join", by=ALICE))
    await dc.send(command("join", by=BOB))
    issued = await dc.send(command("challenge", by=BOB))
    assert text(issued).startswith("bob (rung 2) challenges anyone on cup")
    assert issued["allowed_mentions"]["parse"] == []
    taken = await dc.send(command("accept", with_user(user_option("challenger", BOB["user"]),
                                                      BOB["user"]), by=ALICE))
    assert text(taken).startswith("alice accepts bob's challenge #1: bob on rung 2, alice on "
                                  "rung 1.")
