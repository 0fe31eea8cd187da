"""A ladder's queue (issue 27; CONSOLE.md "the ladder's queue; full, it forms a match"):
places in order, a full queue forming two teams balanced by mean rating, the ready check
within `ready_seconds` (who does not say ready is dropped, the rest wait again in their
places), a place lapsing after `queue_minutes`, and the formed match reported as usual.
Ratings are set by moderators' adjustments, so every mean is worked out by hand."""

from __future__ import annotations

from typing import Any

from tests.support.chat import Chat

ELO = ("whole=true", "start=1000", "confirm=false")


async def queue_ladder(chat: Chat, *options: str, names: str = "abcde") -> None:
    await chat.ladder("warlight", *ELO, *options)
    await chat.join(*names)


async def ratings_1400_1000_1300_1100(chat: Chat) -> None:
    await chat.ok("mod", "/mod adjust @a +400 strong")
    await chat.ok("mod", "/mod adjust @c +300 strong")
    await chat.ok("mod", "/mod adjust @d +100 strong")


async def test_a_full_queue_forms_the_balanced_match_and_starts_when_all_are_ready(
        chat: Chat) -> None:
    await queue_ladder(chat, "queue=2v2")
    await ratings_1400_1000_1300_1100(chat)
    assert await chat.ok("a", "/queue") == (
        "a joined main's queue. Waiting in main's queue (1 of 4): a.")
    assert await chat.ok("a", "/queue") == "Waiting in main's queue (1 of 4): a."  # one place
    await chat.ok("b", "/queue")
    await chat.ok("c", "/queue")
    reply = await chat.say("d", "/queue")
    assert reply is not None and reply.ready == 1
    # {1400, 1000} against {1300, 1100}: 1200 and 1200, the smallest gap of the three splits
    assert reply.text == ("Queue match #1 on main: @a @b vs @c @d (mean ratings 1200 and 1200)"
                          ". Say /ready (or press Ready) within 120 seconds.")
    assert await chat.ok("e", "/queue") == (
        "e joined main's queue. Waiting in main's queue (1 of 4): e.")
    assert await chat.refused("e", "/ready") == (
        "No match of yours waits for its ready check on main.")
    for name, said in (("a", "1 of 4 ready; waiting for b, c and d."),
                       ("c", "2 of 4 ready; waiting for b and d."),
                       ("c", "2 of 4 ready; waiting for b and d."),  # said twice: once
                       ("d", "3 of 4 ready; waiting for b.")):
        reply = await chat.say(name, "/ready")
        assert reply is not None and reply.private and reply.text == f"Queue match #1: {said}"
    assert await chat.ok("b", "/ready 1") == (
        "Queue match #1 is on: @a @b vs @c @d (mean ratings 1200 and 1200). Play it, then "
        "report it with /report teams @a @b vs @c @d (the winners first).")
    said = await chat.ok("c", "/report teams @c @d vs @b @a")
    assert said.startswith("Match #1: c and d beat b and a.") and \
        said.endswith("It was queue match #1.")


async def test_who_does_not_say_ready_is_dropped_and_the_rest_wait_in_their_places(
        chat: Chat) -> None:
    await queue_ladder(chat, "queue=1v1", "ready_seconds=60")
    await chat.ok("a", "/queue")
    await chat.ok("b", "/queue")  # match #1: a vs b
    await chat.tick(10)
    await chat.ok("c", "/queue")  # waits behind the match
    await chat.ok("a", "/ready")
    assert await chat.tick(49) == []  # 59 s after the match formed: not yet
    found = await chat.tick(1)
    assert [a.text for a in found] == [
        "Queue match #1 did not start: b did not say ready and lost their place.\n"
        "Queue match #2 on main: @a vs @c (mean ratings 1000 and 1000). "
        "Say /ready (or press Ready) within 60 seconds."]
    assert await chat.ok("b", "/queue") == (
        "b joined main's queue. Waiting in main's queue (1 of 2): b.")


async def test_the_announcement_of_a_match_formed_again_carries_its_ready_button(
        chat: Chat) -> None:
    await queue_ladder(chat, "queue=1v1", "ready_seconds=60")
    for name in "abc":
        await chat.ok(name, "/queue")
    await chat.ok("a", "/ready")
    found = await chat.tick(61)
    assert [(a.ready, a.text.splitlines()[-1].startswith("Queue match #2")) for a in found] == [
        (2, True)]
    found = await chat.tick(61)  # nobody said ready for #2: both lose their places
    assert [a.ready for a in found] == [None]
    assert "a and c did not say ready" in found[0].text


async def test_leaving_a_ready_check_gives_the_others_their_places_back(chat: Chat) -> None:
    await queue_ladder(chat, "queue=1v1")
    await chat.ok("a", "/queue")
    await chat.ok("b", "/queue")
    assert await chat.ok("b", "/queue leave") == (
        "b left queue match #1; the others wait again. Waiting in main's queue (1 of 2): a.")
    assert await chat.refused("b", "/queue leave") == (
        "You are not in main's queue: /queue takes a place.")
    assert await chat.ok("a", "/queue leave") == "a left main's queue."


async def test_a_place_lapses_after_queue_minutes(chat: Chat) -> None:
    await queue_ladder(chat, "queue=2v2", "queue_minutes=30")
    await chat.ok("a", "/queue")
    await chat.tick(10 * 60)
    await chat.ok("b", "/queue")
    assert [a.text for a in await chat.tick(20 * 60)] == [
        "a: the place in main's queue lapsed after 30 minutes."]
    assert await chat.ok("c", "/queue") == (
        "c joined main's queue. Waiting in main's queue (2 of 4): b and c.")


async def test_a_player_who_left_the_ladder_loses_the_place(chat: Chat) -> None:
    await queue_ladder(chat, "queue=1v1")
    await chat.ok("a", "/queue")
    await chat.ok("a", "/leave")
    assert "joined main's queue" in await chat.ok("b", "/queue")  # no match with a


async def test_the_queue_setting_is_checked_against_the_rulebook(chat: Chat) -> None:
    await chat.ladder("warlight", *ELO)
    await chat.join("a")
    assert await chat.refused("a", "/queue") == (
        "main has no queue: a moderator sets one with /ladder set queue=2v2 (or 1v1 to 5v5).")
    for preset, said in (("nhwc", "A position ladder has no queue"),
                         ("duel", "queue=2v2 forms team games"),
                         ("glicko2", "queue=2v2 forms team games")):
        refused = await chat.refused("mod", f"/ladder create {preset} preset={preset} queue=2v2")
        assert refused.startswith(said), refused
    await chat.ok("mod", "/ladder create d preset=duel queue=1v1")
    assert (await chat.refused("mod", "/ladder set queue=6v6")).startswith("queue=6v6:")


async def test_a_race_of_two_joins_forms_one_match(chat: Chat) -> None:
    await queue_ladder(chat, "queue=1v1")
    await chat.ok("a", "/queue")
    replies: list[Any] = [await chat.say(n, "/queue") for n in "bc"]
    assert [r.ready for r in replies] == [1, None]
    assert replies[1].text == "c joined main's queue. Waiting in main's queue (1 of 2): c."


async def test_who_waits_again_keeps_the_place_taken_before_the_later_joiners(
        chat: Chat) -> None:
    await queue_ladder(chat, "queue=2v2", "ready_seconds=60", names="abcdefg")
    for name in "defg":  # the last four to join the ladder take the first places
        await chat.ok(name, "/queue")
    await chat.tick(5)
    for name in "abc":
        await chat.ok(name, "/queue")
    await chat.ok("d", "/ready")
    await chat.ok("e", "/ready")
    [failed] = await chat.tick(60)
    # d and e are back before a, b and c (who joined the ladder first, the queue later)
    # (all at 1000: every split is even, and the first in queue order is taken)
    assert failed.text.splitlines()[-1].startswith("Queue match #2 on main: @d @e vs @a @b")
    assert await chat.ok("c", "/queue") == "Waiting in main's queue (1 of 4): c."


async def test_report_win_alone_reports_the_askers_match_from_the_queue(chat: Chat) -> None:
    await queue_ladder(chat, "queue=2v2")
    await ratings_1400_1000_1300_1100(chat)
    # No match from the queue yet: the reply the parser gave before a bare /report win
    # could mean one (tests/unit/test_commands.py had it), with the usage.
    refused = await chat.refused("c", "/report win")
    assert refused.startswith("Name your opponent: /report win @bob.\nUsage: /report win")
    for name in "abcd":
        await chat.ok(name, "/queue")
    for name in "abcd":
        await chat.ok(name, "/ready")
    said = await chat.ok("c", "/report loss 1-2")  # c's team, c and d, lost
    assert said.startswith("Match #1: a and b beat c and d (2-1).")
    assert said.endswith("It was queue match #1.")
    assert (await chat.refused("a", "/report win")).startswith(
        "Name your opponent")  # reported: the match from the queue is closed
