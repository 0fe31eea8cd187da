"""The queue's ready check on the platforms (issue 27): the Ready button under a formed
match, on Discord and Telegram through their strict stand-ins (which refuse what the real
servers refuse: sizes, components, callback data), with a hostile name in the teams; a
press that only notes the presser's readiness is said to them alone and leaves the button
for the others, the last press starts the match for everyone; the announcement of a match
formed again after a failed check carries its button too."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.scheduler import Scheduler
from tests.support.adapters import T0, discord_harness, telegram_harness
from tests.support.discord_payloads import (
    CHANNEL,
    MANAGE_GUILD,
    OTHER_CHANNEL,
    button,
    command,
    member,
    option,
    person,
)
from tests.support.telegram_fake import GROUP
from tests.support.telegram_fake import person as tg_person

HOSTILE = "@everyone <b>**x**</b> https://evil.example"
LADDER = "q" * 32  # the longest ladder name: the callback data must still fit
EPHEMERAL = 64
# As Telegram shows it: the address a player typed no link (a zero-width space in it).
UNLINKED = HOSTILE.replace("https://evil.example", "https:\u200b//evil\u200b.example").replace(
    "@everyone", "@\u200beveryone")  # (no link, no mention: core.domain.names)


def content(response: dict[str, Any]) -> str:
    return str(response.get("content", ""))


async def test_discords_ready_button(tmp_path: Path) -> None:
    mod = member(person(1300000000000000101, "mod"), permissions=MANAGE_GUILD)
    alice = member(person(1300000000000000102, HOSTILE))
    bob = member(person(1300000000000000103, "bob"))
    dave = member(person(1300000000000000105, "dave"))
    async with discord_harness(tmp_path / "l.db") as dc:
        await dc.send(command("create", option("name", LADDER), option("preset", "warlight"),
                              option("options", "whole=true start=1000 queue=1v1"), by=mod,
                              group="ladder"))
        for who in (alice, bob, dave):
            await dc.send(command("join", option("ladder", LADDER), by=who))
        await dc.send(command("queue", option("ladder", LADDER), by=alice))
        formed = await dc.send(command("queue", option("ladder", LADDER), by=bob))
        assert content(formed).startswith("Queue match #1 on")
        # the two players are called on a line of the bot's own; the name pings nobody
        assert content(formed).splitlines()[-1] == \
            "<@1300000000000000102> <@1300000000000000103>"
        assert formed["allowed_mentions"]["parse"] == []
        assert sorted(map(int, formed["allowed_mentions"]["users"])) == [
            1300000000000000102, 1300000000000000103]
        [row] = formed["components"]
        assert [c["custom_id"] for c in row["components"]] == [f"lb:ready:1:{LADDER}"]
        stranger = await dc.send(button(f"lb:ready:1:{LADDER}", dave))
        assert stranger["flags"] & EPHEMERAL and "No match of yours" in content(stranger)
        noted = await dc.send(button(f"lb:ready:1:{LADDER}", alice))
        assert noted["flags"] & EPHEMERAL
        assert content(noted) == "Queue match #1: 1 of 2 ready; waiting for bob."
        edits = [p for m, p, _ in dc.fake.requests if m == "PATCH" and
                 p.startswith(f"/channels/{CHANNEL}/messages/")]
        assert edits == []  # the button stays for bob
        on = await dc.send(button(f"lb:ready:1:{LADDER}", bob))
        assert not on.get("flags", 0) & EPHEMERAL
        assert content(on).startswith("Queue match #1 is on:")
        assert any(m == "PATCH" and p.startswith(f"/channels/{CHANNEL}/messages/")
                   for m, p, _ in dc.fake.requests)  # now it is taken off


async def test_telegrams_ready_button_and_the_announcement_of_a_match_formed_again(
        tmp_path: Path) -> None:
    mod = tg_person(101, "Mo", "mod")
    alice = tg_person(102, HOSTILE)  # no username: shown by the name as typed
    bob = tg_person(103, "Bob", "bob")
    carol = tg_person(104, "Carol", "carol")
    async with telegram_harness(tmp_path / "l.db", [mod]) as tg:
        await tg.say(mod, f"/ladder create {LADDER} preset=warlight whole=true start=1000 "
                          "queue=1v1 ready_seconds=60")
        for who in (alice, bob, carol):
            await tg.say(who, "/join")
        await tg.say(alice, "/queue")
        [formed] = await tg.say(bob, "/queue")
        assert formed.startswith(f"Queue match #1 on {LADDER}: @{UNLINKED} vs @bob")
        markup = tg.api.sent()[-1]["reply_markup"]
        assert [b["callback_data"] for b in markup["inline_keyboard"][0]] == [
            f"ready:{LADDER}:1"]
        await tg.say(carol, "/queue")  # waits behind the match
        assert await tg.press(alice, f"ready:{LADDER}:1") == []  # said to alice alone
        toast = tg.alerts()[-1]
        assert toast["text"] == "Queue match #1: 1 of 2 ready; waiting for bob." and \
            not toast.get("show_alert")
        assert "editMessageReplyMarkup" not in [m for m, _ in tg.api.calls]

        # bob never presses: 60 seconds on, the check fails and alice meets carol
        async def post(announcement: Any) -> None:
            await tg.platform.post(announcement)

        scheduler = Scheduler(tg.store, post, lambda: float(T0 + 10_000 + 61))
        await scheduler.tick()
        await scheduler.flush()
        posted = tg.api.sent()[-1]
        assert posted["chat_id"] == GROUP["id"]
        assert posted["text"].splitlines() == [
            "Queue match #1 did not start: bob did not say ready and lost their place.",
            f"Queue match #2 on {LADDER}: @{UNLINKED} vs @carol (mean ratings 1000 and 1000)."
            " Say /ready (or press Ready) within 60 seconds."]
        assert [b["callback_data"] for b in posted["reply_markup"]["inline_keyboard"][0]] == [
            f"ready:{LADDER}:2"]


async def test_discords_announcement_of_a_match_formed_again_calls_its_players(
        tmp_path: Path) -> None:
    mod = member(person(1300000000000000101, "mod"), permissions=MANAGE_GUILD)
    players = [member(person(1300000000000000110 + n, name)) for n, name in
               enumerate(("ann", HOSTILE, "cid"))]
    async with discord_harness(tmp_path / "l.db") as dc:
        await dc.send(command("create", option("name", "main"), option("preset", "warlight"),
                              option("options", f"queue=1v1 ready_seconds=60 "
                                                f"channel={OTHER_CHANNEL}"),
                              by=mod, group="ladder"))
        for who in players:
            await dc.send(command("join", by=who))
        for who in players:
            await dc.send(command("queue", by=who))  # ann and the hostile name; cid waits
        await dc.send(button("lb:ready:1:main", players[0]))

        async def post(announcement: Any) -> None:
            await dc.platform.post(announcement)

        scheduler = Scheduler(dc.store, post, lambda: dc.clock.now + 61)
        await scheduler.tick()
        await scheduler.flush()
        [body] = [b for m, p, b in dc.fake.requests
                  if m == "POST" and p == f"/channels/{OTHER_CHANNEL}/messages"]
        lines = body["content"].splitlines()
        assert lines[0].startswith("Queue match #1 did not start:")
        assert lines[1].startswith("Queue match #2 on main: @ann vs @cid")
        assert lines[2] == "<@1300000000000000110> <@1300000000000000112>"
        assert body["allowed_mentions"]["parse"] == []
        assert sorted(map(int, body["allowed_mentions"]["users"])) == [
            1300000000000000110, 1300000000000000112]
        [row] = body["components"]
        assert [c["custom_id"] for c in row["components"]] == ["lb:ready:2:main"]
