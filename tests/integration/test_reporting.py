"""The report flow on both stores: pending, confirm, dispute, automatic confirmation,
duplicates and races, and bad input that must change nothing."""

from __future__ import annotations

import asyncio
from typing import Any

from core.domain.calendar import HOUR
from tests.support.chat import Chat, duel


async def test_report_waits_for_confirmation_then_counts(chat: Chat) -> None:
    await duel(chat)
    text = await chat.ok("alice", "/report win @bob")
    assert text.startswith("Match #1 reported: alice beat bob. bob: /confirm or /dispute")
    assert await chat.ratings() == {"alice": 1000, "bob": 1000}
    assert (await chat.export())["matches"][0]["status"] == "pending"
    text = await chat.ok("bob", "/confirm")
    assert "alice 1000 -> 1016 (+16), bob 1000 -> 984 (-16)" in text
    assert await chat.ratings() == {"alice": 1016, "bob": 984}


async def test_replies_show_what_changed(chat: Chat) -> None:
    await duel(chat, "confirm=false")
    await chat.ok("mod", "/mod adjust @bob +100 worked example")
    text = await chat.ok("alice", "/report win @bob")
    assert "alice 1000 -> 1020 (+20), bob 1100 -> 1080 (-20)" in text


async def test_a_settled_match_cannot_be_confirmed_or_disputed_again(chat: Chat) -> None:
    await duel(chat)
    await chat.ok("alice", "/report win @bob")
    await chat.ok("bob", "/confirm")
    assert await chat.refused("bob", "/confirm 1") == \
        "Match #1 is confirmed; only a pending report can be confirmed."
    assert await chat.refused("bob", "/dispute 1 wrong") == \
        "Match #1 is confirmed; only a pending report can be disputed."


async def test_only_the_opponent_confirms(chat: Chat) -> None:
    await duel(chat)
    await chat.join("carol")
    await chat.ok("alice", "/report win @bob")
    assert "no report waiting" in await chat.refused("alice", "/confirm")
    assert "Your side reported #1" in await chat.refused("alice", "/confirm 1")
    assert "Only the players of match #1" in await chat.refused("carol", "/confirm 1")
    assert "not on main yet: /join first" in await chat.refused("dave", "/confirm 1")
    assert await chat.ratings() == {"alice": 1000, "bob": 1000, "carol": 1000}


async def test_only_participants_report(chat: Chat) -> None:
    await duel(chat, "confirm=false")
    await chat.join("carol")
    text = await chat.refused("carol", "/report ffa @alice @bob")
    assert text == "Only a player in the game can report it."
    assert (await chat.export())["matches"] == []


async def test_unknown_users_are_told_to_join(chat: Chat) -> None:
    await duel(chat, "confirm=false")
    text = await chat.refused("alice", "/report win @zed")
    assert text == "zed has not joined main: ask @zed to /join first."
    assert "not on main yet: /join first" in await chat.refused("zed", "/report win @alice")
    assert (await chat.export())["matches"] == []


async def test_dispute_waits_for_a_moderator(chat: Chat) -> None:
    await duel(chat)
    await chat.ok("alice", "/report win @bob")
    text = await chat.ok("bob", "/dispute I won that")
    assert "is disputed: I won that" in text and "/mod set 1" in text
    await chat.tick(48 * HOUR)  # disputed reports are never confirmed automatically
    assert (await chat.export())["matches"][0]["status"] == "disputed"
    # nor does the pair play on past it: the next game waits for the moderator
    for who, text in (("alice", "/report win @bob"), ("bob", "/report loss @alice")):
        assert (await chat.refused(who, text)) == ("Match #1 between you is disputed and "
                                                   "waits for a moderator (/mod set or /mod void).")
    text = await chat.ok("mod", "/mod set 1 @bob checked the replay")
    assert "bob 1000 -> 1016 (+16), alice 1000 -> 984 (-16)" in text
    assert await chat.ratings() == {"alice": 984, "bob": 1016}


async def test_automatic_confirmation_after_the_window(chat: Chat) -> None:
    await duel(chat)
    await chat.ok("alice", "/report win @bob")
    assert await chat.tick(24 * HOUR - 1) == []
    [announcement] = await chat.tick(1)
    assert announcement.text.startswith("Match #1 (alice beat bob) is confirmed: no answer "
                                        "within 24 hours.")
    assert await chat.ratings() == {"alice": 1016, "bob": 984}


async def test_confirm_false_applies_at_once_and_confirm_says_so(chat: Chat) -> None:
    await duel(chat, "confirm=false")
    await chat.ok("alice", "/report win @bob")
    assert await chat.ratings() == {"alice": 1016, "bob": 984}
    text = await chat.ok("bob", "/confirm")
    assert text == "Reports on main count at once; there is nothing to confirm."


async def test_second_report_of_a_pending_game_is_answered_not_recorded(chat: Chat) -> None:
    await duel(chat)
    await chat.ok("alice", "/report win @bob")
    text = await chat.refused("alice", "/report win @bob")
    assert "already reported as #1" in text
    # the opponent reporting the same result confirms it instead of adding a match
    text = await chat.ok("bob", "/report loss @alice")
    assert text.startswith("That matches #1, which is now confirmed.")
    assert [m["id"] for m in (await chat.export())["matches"]] == [1]
    assert await chat.ratings() == {"alice": 1016, "bob": 984}


async def test_conflicting_report_points_to_dispute(chat: Chat) -> None:
    await duel(chat)
    await chat.ok("alice", "/report win @bob")
    text = await chat.refused("bob", "/report win @alice")
    assert "already a report of this game: #1" in text and "/dispute 1" in text
    assert len((await chat.export())["matches"]) == 1


async def test_other_sides_report_moments_later_is_the_same_game(chat: Chat) -> None:
    await duel(chat, "confirm=false")
    await chat.ok("alice", "/report win @bob")
    await chat.tick(30)
    text = await chat.refused("bob", "/report loss @alice")
    assert "alice already reported this game as #1" in text
    assert await chat.ratings() == {"alice": 1016, "bob": 984}
    # four minutes later (once counted twice): still the same game, and it says how to
    # report another one
    await chat.tick(4 * 60)
    text = await chat.refused("bob", "/report loss @alice")
    assert text == ("alice already reported this game as #1 (alice beat bob) at 2026-01-05 "
                    "10:00 UTC; it counts once. If you played another game since, add `again` "
                    "to the report.")
    assert len((await chat.export())["matches"]) == 1
    assert "Match #2" in await chat.ok("bob", "/report loss @alice again")
    # after the ladder's window (confirm_hours, 24 by default) it is a new game
    await chat.tick(24 * 3600)
    await chat.ok("bob", "/report loss @alice")
    assert len((await chat.export())["matches"]) == 3


async def test_the_other_sides_report_of_a_draw_is_the_same_game(chat: Chat) -> None:
    """A draw has no order of sides: the opponent's draw is the same game, reported
    from the other side (which once confirmed, or was recorded a second time)."""
    await duel(chat)
    await chat.ok("alice", "/report draw @bob")
    text = await chat.ok("bob", "/report draw @alice")
    assert text.startswith("That matches #1, which is now confirmed."), text
    await chat.ladder("duel", "confirm=false", name="quick")
    await chat.join("alice", "bob", ladder="ladder=quick")
    await chat.ok("alice", "/report draw @bob ladder=quick")
    text = await chat.refused("bob", "/report draw @alice ladder=quick")
    assert "alice already reported this game as #1" in text
    assert len((await chat.export("quick"))["matches"]) == 1
    # teams, whichever team reports first
    await chat.ok("mod", "/ladder create teams preset=warlight")
    await chat.join("alice", "bob", "carol", "dave", ladder="ladder=teams")
    await chat.ok("alice", "/report teams @alice @bob vs @carol @dave draw ladder=teams")
    text = await chat.ok("carol", "/report teams @dave @carol vs @bob @alice draw ladder=teams")
    assert text.startswith("That matches #1, which is now confirmed."), text


async def test_racing_reports_produce_one_match(store: Any) -> None:
    for confirm in ("true", "false"):
        chat = Chat(store, chat=f"race-{confirm}")
        await duel(chat, f"confirm={confirm}")
        replies = await asyncio.gather(
            chat.say("alice", "/report win @bob"), chat.say("bob", "/report loss @alice"))
        data = await chat.export()
        assert len(data["matches"]) == 1, [r and r.text for r in replies]
        assert sum(1 for r in replies if r is not None and r.error) <= 1
        if confirm == "false":
            assert await chat.ratings() == {"alice": 1016, "bob": 984}


async def test_bad_input_changes_nothing(chat: Chat) -> None:
    await duel(chat, "confirm=false")
    before = await chat.export()
    bad = [
        ("alice", "/report"),
        ("alice", "/report win"),
        ("alice", "/report win @alice"),
        ("alice", "/report win @bob moves=x"),
        ("alice", "/report teams @alice vs @bob @carol"),
        ("alice", "/report ffa @alice @bob @mod"),
        ("alice", "/report win @bob " + "spam " * 500),
        ("alice", "/mod void 1 because"),
        ("alice", "/ladder set confirm=true"),
        ("alice", "/frobnicate @bob"),
        ("alice", "/report win @bob'; DROP TABLE players; --"),
        ("mod", "/mod void 99 no such match"),
        ("mod", "/mod adjust @zed +5 not a member"),
        ("mod", "/ladder set colour=red"),
    ]
    for name, text in bad:
        reply = await chat.say(name, text)
        assert reply is not None and reply.error, text
        assert reply.said and "Traceback" not in reply.said
    assert await chat.export() == before


async def test_one_on_one_ladders_refuse_team_and_ffa_games(chat: Chat) -> None:
    await duel(chat, "confirm=false")
    await chat.join("carol", "dave")
    assert "one-on-one games only" in await chat.refused("alice", "/report ffa @alice @bob @carol")
    assert "one-on-one games only" in await chat.refused(
        "alice", "/report teams @alice @bob vs @carol @dave")


async def test_fame_refuses_a_rated_game_too_far_apart_but_records_unrated(chat: Chat) -> None:
    await chat.ladder("fame", "confirm=false")
    await chat.join("alice", "bob")
    await chat.ok("mod", "/mod adjust @bob +1070 setup")
    text = await chat.refused("alice", "/report win @bob")
    assert text.startswith("The ratings are 1070 apart; this ladder rates games only up to 1000 "
                           "apart")
    text = await chat.ok("alice", "/report win @bob unrated")
    assert "Nothing moves: marked unrated." in text
    assert await chat.ratings() == {"bob": 2070, "alice": 1000}


async def test_redelivered_message_is_answered_once(chat: Chat) -> None:
    await duel(chat, "confirm=false")
    first = await chat.ok("alice", "/report win @bob", message_id="update-1")
    again = await chat.ok("alice", "/report win @bob", message_id="update-1")
    assert again == first
    assert len((await chat.export())["matches"]) == 1


async def test_leave_and_come_back_keeps_the_record(chat: Chat) -> None:
    await duel(chat, "confirm=false")
    await chat.ok("alice", "/report win @bob")
    assert "left main" in await chat.ok("alice", "/leave")
    assert "alice" not in await chat.ratings()
    # Someone who left is told so, not that they have yet to join.
    assert await chat.refused("alice", "/leave") == "You left main: /join to come back."
    assert await chat.refused("bob", "/report win @alice") == (
        "alice left main: ask @alice to /join again first.")
    assert "is back on main at 1016" in await chat.ok("alice", "/join")


async def test_leave_is_refused_with_open_reports(chat: Chat) -> None:
    await duel(chat)
    await chat.ok("alice", "/report win @bob")
    assert "settle it before leaving" in await chat.refused("bob", "/leave")


async def test_a_farmed_game_says_why_once(chat: Chat) -> None:
    # RULES.md, duel: unrated when the pair already has 4 rated games in the 7 days before.
    await duel(chat, "confirm=false")
    for _ in range(4):
        await chat.ok("alice", "/report win @bob")
        await chat.tick(HOUR)
    text = await chat.ok("alice", "/report win @bob")
    assert text.endswith("Nothing moves: this pair already has 4 rated games in the last 7 "
                         "days, so unrated (anti-farming).")
    assert (await chat.ok("alice", "/history")).splitlines()[1].endswith(
        "alice beat bob: this pair already has 4 rated games in the last 7 days, so unrated "
        "(anti-farming)")


async def test_with_two_reports_waiting_confirm_asks_which(chat: Chat) -> None:
    """Guessing could settle the game the player meant to dispute."""
    await duel(chat)
    await chat.join("carol")
    await chat.ok("alice", "/report win @bob")
    await chat.ok("carol", "/report win @bob")
    for verb in ("confirm", "dispute"):
        text = await chat.refused("bob", f"/{verb}")
        assert text == ("2 reports wait for you: #1 (alice beat bob) and #2 (carol beat bob). "
                        f"Say which: /{verb} 1, for example.")
    assert [m["status"] for m in (await chat.export())["matches"]] == ["pending", "pending"]
    await chat.ok("bob", "/dispute 2 carol was not there")
    assert (await chat.ok("bob", "/confirm")).startswith("Match #1 confirmed")


async def test_the_reporter_withdraws_a_report_still_waiting(chat: Chat) -> None:
    """A mistaken report (wrong result, wrong opponent) is taken back by the side that made
    it while it waits: it never counted, so no moderator is needed."""
    await duel(chat)
    await chat.join("carol")
    await chat.ok("alice", "/report win @carol")  # meant bob
    assert "your opponent reported #1: /dispute 1" in await chat.refused("carol", "/withdraw 1")
    assert "You have no report" in await chat.refused("bob", "/withdraw")
    text = await chat.ok("alice", "/withdraw")
    assert text == "Match #1 (alice beat carol) withdrawn by alice: it never counted."
    assert "no report waiting" in await chat.refused("carol", "/confirm")
    assert "is void already" in await chat.refused("alice", "/withdraw 1")
    assert (await chat.ok("alice", "/report win @bob")).startswith("Match #2 reported")
    await chat.ok("bob", "/confirm")
    assert "counts already: if it is wrong, ask a moderator" in \
        await chat.refused("alice", "/withdraw 2")
    assert await chat.ratings() == {"alice": 1016, "bob": 984, "carol": 1000}
    assert [m["status"] for m in (await chat.export())["matches"]] == ["voided", "confirmed"]
    assert "alice beat carol: voided (withdrawn by alice)" in await chat.ok("carol", "/history")
    await chat.ok("carol", "/leave")  # nothing of hers waits any more


async def test_a_disputed_report_is_for_a_moderator_not_withdrawn(chat: Chat) -> None:
    await duel(chat)
    await chat.join("carol")
    await chat.ok("alice", "/report win @bob")
    await chat.ok("alice", "/report win @carol")
    text = await chat.refused("alice", "/withdraw")
    assert text == ("2 reports of yours wait: #1 (alice beat bob) and #2 (alice beat carol). "
                    "Say which: /withdraw 1, for example.")
    await chat.ok("bob", "/dispute 1 never played")
    assert "is disputed: a moderator decides it" in await chat.refused("alice", "/withdraw 1")
    assert (await chat.ok("alice", "/withdraw")).startswith("Match #2 (alice beat carol)")
    assert [m["status"] for m in (await chat.export())["matches"]] == ["disputed", "voided"]


async def test_withdraw_where_reports_count_at_once_points_to_a_moderator(chat: Chat) -> None:
    await duel(chat, "confirm=false")
    await chat.ok("alice", "/report win @bob")
    text = await chat.refused("alice", "/withdraw")
    assert text.startswith("Reports on main count at once. If one is wrong, ask a moderator")




async def test_again_is_a_new_game_whatever_waits(chat: Chat) -> None:
    # Both sides said it was a second game; the second answer confirmed the first one.
    await duel(chat)
    await chat.ok("alice", "/report win @bob")
    assert (await chat.ok("alice", "/report win @bob again")).startswith("Match #2 reported")
    assert (await chat.ok("bob", "/report loss @alice again")).startswith("Match #3 reported")
    assert [m["status"] for m in (await chat.export())["matches"]] == ["pending"] * 3


async def test_two_scores_or_two_margins_in_one_report_are_refused(chat: Chat) -> None:
    # `2-1 2-0` was taken as 2-0, `major minor` as minor.
    await chat.ladder("warlight", "bestof=3", "confirm=false")
    await chat.join("alice", "bob")
    assert (await chat.refused("alice", "/report win @bob 2-1 2-0")).startswith(
        "One score per report: a match has one final score, such as 2-1.")
    await chat.ladder("nhwc", name="cup")
    await chat.join("alice", "bob", ladder="ladder=cup")
    assert (await chat.refused("alice", "/report win @bob major minor ladder=cup")).startswith(
        "One margin per report: minor, major or overwhelming.")
    assert (await chat.export())["matches"] == [] and (await chat.export("cup"))["matches"] == []
