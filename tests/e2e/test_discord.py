"""The Discord adapter, offline, through discord.py's real code: raw INTERACTION_CREATE
payloads go to the real CommandTree and view store; responses are captured as the HTTP
requests discord.py makes (to a loopback stand-in)."""

from __future__ import annotations

import logging
from typing import Any

import pytest

from bot.text import APOLOGY
from tests.support.adapters import DiscordHarness as Harness
from tests.support.chat import Chat
from tests.support.discord_payloads import (
    CHANNEL,
    GUILD,
    OTHER_CHANNEL,
    button,
    command,
    member,
    option,
    person,
    user_option,
    with_user,
)
from tests.support.discord_play import ALICE, BOB, DAVE, MOD, ephemeral, ladder, report, text


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


async def test_a_russian_ladders_report_and_buttons_speak_russian(dc: Harness) -> None:
    await dc.send(command("create", option("name", "main"), option("preset", "duel"),
                          option("options", "language=ru"), by=MOD, group="ladder"))
    await dc.send(command("join", by=ALICE))
    await dc.send(command("join", by=BOB))
    pending = await dc.send(report(ALICE, "win", BOB))
    assert text(pending).startswith("Результат матча #1: alice — bob, победа: alice.")
    buttons = pending["components"][0]["components"]
    assert [b["label"] for b in buttons] == ["Подтвердить", "Оспорить", "Отозвать"]
    assert [b["custom_id"] for b in buttons] == [  # what a press answers stays as it was
        "lb:confirm:1:main", "lb:dispute:1:main", "lb:withdraw:1:main"]
    confirmed = await dc.send(button("lb:confirm:1:main", BOB))
    assert text(confirmed).startswith("Матч #1 подтверждён: alice — bob, победа: alice.")


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
