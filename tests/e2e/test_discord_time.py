"""Discord's clocks: an interaction not answered in 3 seconds is deferred and answered later,
privately where it was private; an answer after 15 minutes is refused by the stand-in."""

from __future__ import annotations

from typing import Any

import pytest

from tests.support.adapters import DiscordHarness as Harness
from tests.support.discord_payloads import button, command, option
from tests.support.discord_play import ALICE, BOB, DAVE, MOD, ephemeral, ladder, report, text


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
