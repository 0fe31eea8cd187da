"""Moderators: permissions in the core, corrections that re-derive, and the audit trail."""

from __future__ import annotations

import pytest

from core.domain.calendar import DAY
from tests.support.chat import Chat

MOD_COMMANDS = [
    "/ladder create other preset=duel",
    "/ladder set confirm=false",
    "/ladder default main",
    "/mod void 1 reason",
    "/mod set 1 @bob reason",
    "/mod adjust @alice +10 reason",
    "/mod season close",
    "/mod remove @bob reason",
]


@pytest.mark.parametrize("text", MOD_COMMANDS)
async def test_moderator_commands_are_refused_to_players(chat: Chat, text: str) -> None:
    await chat.ladder("duel", "confirm=false")
    await chat.join("alice", "bob")
    await chat.ok("alice", "/report win @bob")
    before = await chat.export()
    reply = await chat.refused("alice", text)
    assert reply.startswith("Only moderators can do that")
    assert await chat.export() == before


async def worked_pair(chat: Chat) -> None:
    """The worked pair of RULES.md: A (1000) beats B (1100): +20; then B beats A: +13."""
    await chat.ladder("duel", "confirm=false")
    await chat.join("A", "B")
    await chat.ok("mod", "/mod adjust @B +100 setup")
    await chat.ok("A", "/report win @B")
    await chat.ok("B", "/report win @A")


async def test_void_rederives_later_matches(chat: Chat) -> None:
    await worked_pair(chat)
    assert await chat.ratings() == {"A": 1007, "B": 1093}
    text = await chat.ok("mod", "/mod void 1 never played")
    # Without the first game, B (1100) beats A (1000): gap +100, B gains 12.
    assert "Standings re-derived: A 1007 -> 988 (-19), B 1093 -> 1112 (+19)." in text
    assert await chat.ratings() == {"A": 988, "B": 1112}
    assert (await chat.export())["matches"][0]["status"] == "voided"


async def test_a_correction_lists_players_who_left_among_those_it_moved(chat: Chat) -> None:
    # B leaves before the void. B's record stays (a /join brings B back at it), so the
    # moderator is told how the correction moved it too.
    await worked_pair(chat)
    await chat.ok("B", "/leave")
    text = await chat.ok("mod", "/mod void 1 never played")
    assert "Standings re-derived: A 1007 -> 988 (-19), B (left) 1093 -> 1112 (+19)." in text
    assert "B is back on main at 1112." in await chat.ok("B", "/join")


async def test_set_result_rederives_as_if_reported_so(chat: Chat) -> None:
    await chat.ladder("duel", "confirm=false")
    await chat.join("A", "B")
    await chat.ok("mod", "/mod adjust @B +100 setup")
    await chat.ok("B", "/report win @A")  # should have been A's win
    await chat.ok("B", "/report win @A")
    text = await chat.ok("mod", "/mod set 1 @A wrong winner")
    assert "Was: B beat A. Now: A beat B." in text
    # As reported in the first place: A 1000 beats B 1100: 1020 / 1080; then B wins +13.
    assert await chat.ratings() == {"B": 1093, "A": 1007}


async def test_void_of_a_pending_report_changes_nothing_else(chat: Chat) -> None:
    await chat.ladder("duel")
    await chat.join("A", "B")
    await chat.ok("A", "/report win @B")
    text = await chat.ok("mod", "/mod void 1 mistake")
    assert "It had not counted yet" in text
    assert "no report waiting" in await chat.refused("B", "/confirm")
    assert await chat.ratings() == {"A": 1000, "B": 1000}
    assert "void already" in await chat.refused("mod", "/mod void 1 again")


async def test_a_voided_match_can_be_restored_by_setting_its_result(chat: Chat) -> None:
    await chat.ladder("duel", "confirm=false", "calibration=0")
    await chat.join("A", "B")
    await chat.ok("A", "/report win @B")
    await chat.ok("mod", "/mod void 1 oops")
    text = await chat.ok("mod", "/mod set 1 @A it was fine")
    assert "Was: A beat B (voided). Now: A beat B." in text
    assert "Standings re-derived: A 1000 -> 1016 (+16), B 1000 -> 984 (-16)." in text, text
    assert await chat.ratings() == {"A": 1016, "B": 984}
    # the stored standings too, which /standings and /profile read
    assert (await chat.ok("A", "/standings")).splitlines()[1:] == ["1. A 1016 (Fighter)",
                                                                   "2. B 984 (Challenge Accepted)"]
    assert "Games: 1: 1 win" in await chat.ok("A", "/profile")
    assert (await chat.export())["matches"][0]["status"] == "confirmed"


async def test_setting_the_result_a_match_has_is_refused(chat: Chat) -> None:
    await chat.ladder("duel", "confirm=false")
    await chat.join("A", "B")
    await chat.ok("A", "/report win @B")
    await chat.ok("mod", "/mod set 1 @B B won")
    audit = len((await chat.ok("mod", "/history")).splitlines())
    text = await chat.refused("mod", "/mod set 1 @B B won")
    assert text == "Match #1 stands as B beat A already; nothing to change."
    assert len((await chat.ok("mod", "/history")).splitlines()) == audit  # not logged
    await chat.ok("mod", "/mod set 1 @B major B won big")  # a margin is a change


async def test_a_changed_result_is_rated_as_the_rules_rate_it_now(chat: Chat) -> None:
    """The match record says whether the new result counts, not what the old one did."""
    await chat.ladder("duel", "confirm=false")  # games under 2 moves are unrated
    await chat.join("A", "B")
    await chat.ok("A", "/report win @B")
    await chat.ok("mod", "/mod set 1 draw moves=1 too short")
    match = (await chat.export())["matches"][0]
    assert match["rated"] is False
    assert await chat.ratings() == {"A": 1000, "B": 1000}
    await chat.ok("mod", "/mod void 1 never played")
    await chat.ok("mod", "/mod set 1 draw moves=40 it was played")
    assert (await chat.export())["matches"][0]["rated"] is True


async def test_adjust_on_a_position_ladder_moves_rungs(chat: Chat) -> None:
    await chat.ladder("nhwc")
    await chat.join("p1", "p2", "p3")
    text = await chat.ok("mod", "/mod adjust @p3 +2 promotion")
    assert "p3 rung 3 -> 1 (up 2)" in text
    assert await chat.ratings() == {"p3": 1, "p1": 2, "p2": 3}
    text = await chat.ok("mod", "/mod adjust @p3 -1 demotion")
    assert text.startswith("mod adjusted p3 by -1 rung: demotion. p3 rung 1 -> 2 (down 1).")


async def test_audit_log_in_history_and_profile(chat: Chat) -> None:
    await chat.ladder("duel", "confirm=false")
    await chat.join("A", "B")
    await chat.ok("A", "/report win @B")
    await chat.ok("mod", "/mod void 1 played on the wrong ladder")
    await chat.ok("mod", "/mod adjust @B +5 sportsmanship")
    history = await chat.ok("A", "/history")
    assert "mod voided #1: played on the wrong ladder" in history
    assert "mod adjusted B +5 points: sportsmanship" in history
    profile = await chat.ok("A", "/profile @B")
    assert "Corrections:" in profile and "sportsmanship" in profile and "#1" in profile
    assert "sportsmanship" not in await chat.ok("A", "/profile")


async def test_settings_change_applies_from_then_on(chat: Chat) -> None:
    await chat.ladder("duel", "confirm=false")
    await chat.join("A", "B")
    await chat.ok("A", "/report win @B")  # K 32: +16
    text = await chat.ok("mod", "/ladder set k=64")
    assert text == "main: k=64 (was 32)."
    await chat.ok("A", "/report loss @B")  # K 64 at a 32 gap: round(64 * 0.5459) = 35
    assert await chat.ratings() == {"A": 981, "B": 1019}
    # a correction before the change replays under the old K, after it under the new
    await chat.ok("mod", "/mod void 1 test")
    assert await chat.ratings() == {"B": 1032, "A": 968}


async def test_season_close_by_moderator_freezes_and_announces(chat: Chat) -> None:
    await chat.ladder("duel", "confirm=false", "calibration=0")
    await chat.join("A", "B", "C")
    for _ in range(3):
        await chat.ok("A", "/report win @B")
        await chat.tick(DAY)
    reply = await chat.say("mod", "/mod season close end of the cup")
    assert reply is not None and reply.announce
    assert reply.said.startswith("Season 2026-01 of main is closed by mod: end of the cup. "
                                 "Hall of Fame: 1. A +")
    hall = await chat.ok("B", "/halloffame")
    assert "2026-01: 1. A +" in hall
    data = await chat.export()
    assert data["tables"]["season"] == []
    assert data["hall_of_fame"][0]["name"] == "A"
    # the season the early close began (2026-01b) still ends on the 1st; 2026-01 stays
    found = await chat.time("2026-02-01T00:00:00+00:00")
    assert [a.text.split(".")[0] for a in found] == ["Season 2026-01b of main is closed"]
    assert [h["season"] for h in (await chat.export())["hall_of_fame"]] == ["2026-01"]


async def test_correction_reaching_into_a_closed_season_says_so(chat: Chat) -> None:
    await chat.ladder("duel", "confirm=false", "calibration=0")
    await chat.join("A", "B")
    for _ in range(3):
        await chat.ok("A", "/report win @B")
        await chat.tick(DAY)
    await chat.time("2026-02-01T00:00:00+00:00")
    text = await chat.ok("mod", "/mod set 1 @B replay showed B won")
    assert "The frozen table of season 2026-01 changes" in text


async def test_permissions_are_checked_in_the_core_for_any_adapter(store: object) -> None:
    # A chat whose adapter marks nobody as a moderator: the core still refuses.
    chat = Chat(store, chat="telegram:-1001", admins=())
    text = await chat.refused("owner", "/ladder create main preset=duel")
    assert text.startswith("Only moderators")


async def test_ladder_set_and_info_take_ladder_option(chat: Chat) -> None:
    # /help promises ladder=NAME on any command; a chat's second ladder is set and shown
    # through it, without making it the default first.
    await chat.ladder("duel")
    await chat.ok("mod", "/ladder create other preset=dutch")
    text = await chat.ok("mod", "/ladder set ladder=other confirm=false")
    assert text == "other: confirm=false (was true)."
    assert "other: the dutch rulebook" in await chat.ok("mod", "/ladder info ladder=other")
    assert "main (default): the duel rulebook" in await chat.ok("mod", "/ladder info")
    # Where a ladder is named by the command itself, ladder= is refused with the way.
    for text in ("/ladder create third preset=duel ladder=other", "/ladder list ladder=other",
                 "/ladder default main ladder=other"):
        reply = await chat.refused("mod", text)
        assert "ladder=NAME" in reply and "/ladder set" in reply, reply
    assert await chat.ok("mod", "/ladder default ladder=other") == (
        "other is now this chat's default ladder.")


async def test_a_ladder_named_without_ladder_is_understood_as_meant(chat: Chat) -> None:
    await chat.ladder("duel")
    await chat.ok("mod", "/ladder create league preset=fame")
    reply = await chat.refused("alice", "/join league")
    assert reply == "I don't understand 'league'.\nUsage: /join\nDid you mean /join ladder=league?"
    await chat.ok("alice", "/join ladder=league")
    await chat.ok("bob", "/join ladder=league")
    for text, meant in (("/standings league", "/standings ladder=league"),
                        ("/report win @bob league", "/report win @bob ladder=league"),
                        ("/profile @bob league", "/profile @bob ladder=league")):
        assert (await chat.refused("alice", text)).endswith(f"Did you mean {meant}?")
    # a word that names no ladder gets no guess, nor one next to a ladder named already
    assert "Did you mean" not in await chat.refused("alice", "/join leauge")
    assert "Did you mean" not in await chat.refused("alice", "/standings league ladder=main")


async def test_setting_errors_read_as_sentences_in_chat(chat: Chat) -> None:
    # The same errors are clauses of config-file errors ("[ladder]: there is no ..."), so
    # they are written lower case; in chat they stand alone.
    assert await chat.refused("mod", "/ladder create x preset=chess") == (
        "There is no preset called 'chess'. Choose one of: warlight, fame, duel, nhwc, dutch, "
        "glicko2, openskill.")
    await chat.ladder("duel")
    reply = await chat.refused("mod", "/ladder set colour=red")
    assert reply == "There is no setting called 'colour'; `/help settings` lists them."
    # a key stays as written
    assert await chat.refused("mod", "/ladder set k=-5") == \
        "k=-5: expected a number above 0, at most 1,000."


@pytest.mark.parametrize(("preset", "rule"), [("duel", "anti-farming"), ("dutch", "the series")])
async def test_a_dispute_decided_over_30_days_late_cannot_be_rated(chat: Chat, preset: str,
                                                                   rule: str) -> None:
    """Anti-farming looks at a pair's games of the 7 days before each game (a series, at
    its first game), and the standings keep those only 30 days past: a later decision
    could not count it right."""
    await chat.ladder(preset)
    await chat.join("A", "B")
    start = await chat.ratings()
    await chat.ok("A", "/report win @B")
    await chat.ok("B", "/dispute it was a draw")
    await chat.tick(30 * DAY + 60)
    before = await chat.export()
    text = await chat.refused("mod", "/mod set 1 @A late")
    assert text.startswith("Match #1 was played more than 30 days ago"), text
    assert f"{rule} counts a game right only" in text
    assert "/mod set 1 RESULT unrated" in text and "/mod void 1" in text
    assert await chat.export() == before  # nothing written, not even the audit
    text = await chat.ok("mod", "/mod set 1 @A unrated decided late")
    assert "Match #1 decided by mod: decided late. A beat B (unrated)." in text, text
    assert await chat.ratings() == start


async def test_a_dispute_decided_within_30_days_is_rated(chat: Chat) -> None:
    await chat.ladder("duel", "calibration=0")
    await chat.join("A", "B")
    await chat.ok("A", "/report win @B")
    await chat.ok("B", "/dispute it was a draw")
    await chat.tick(30 * DAY)
    await chat.ok("mod", "/mod set 1 @A A won")
    assert await chat.ratings() == {"A": 1016, "B": 984}


async def test_a_late_decision_is_rated_where_no_rule_looks_back(chat: Chat) -> None:
    await chat.ladder("warlight")  # no anti-farming, no series
    await chat.join("A", "B")
    await chat.ok("A", "/report win @B")
    await chat.ok("B", "/dispute it was a draw")
    await chat.tick(90 * DAY)
    await chat.ok("mod", "/mod set 1 @A A won")
    assert await chat.ratings() == {"A": 1216, "B": 1184}  # RULES: 1200 + 32 * (1 - 0.5)


async def test_a_raised_floor_never_lifts_a_loser_below_it(chat: Chat) -> None:
    """RULES: no rating falls below the floor. A player left below a floor raised later
    loses nothing more, and gains nothing by losing; a win still counts in full."""
    await chat.ladder("duel", "confirm=false")
    await chat.join("A", "B", "C")
    await chat.ok("mod", "/mod adjust @B -190 setup")  # 810
    await chat.ok("mod", "/ladder set floor=850")
    text = await chat.ok("A", "/report win @B")
    assert "B 810 -> 810 (0)" in text, text
    assert "A 1000 -> 1008 (+8)" in text  # A 1000 beats B 810: the winner gains in full
    text = await chat.refused("mod", "/mod adjust @B -5 setup")
    assert text == "B is at 810, not above main's floor of 850: no rating goes lower."
    text = await chat.ok("B", "/report win @C")  # 810 beats 1000: +24, still below 850
    assert "B 810 -> 834 (+24)" in text, text
    assert (await chat.ratings())["B"] == 834


async def test_a_moderator_takes_an_inactive_player_off_a_position_ladder(chat: Chat) -> None:
    await chat.ladder("nhwc", "confirm=false")
    await chat.join("p1", "p2", "p3", "p4")
    text = await chat.ok("mod", "/mod remove @p2 inactive since March")
    assert text == ("mod took p2 off main: inactive since March. p3 rung 3 -> 2 (up 1), "
                    "p4 rung 4 -> 3 (up 1). The record stays: p2 can /join again.")
    assert await chat.ratings() == {"p1": 1, "p3": 2, "p4": 3}
    assert "mod removed p2: inactive since March" in await chat.ok("p1", "/history")
    assert "left main" in await chat.refused("mod", "/mod remove @p2 twice")
    assert "p2 is back on main on rung 4, the bottom." in await chat.ok("p2", "/join")


async def test_a_player_with_business_waiting_is_not_removed(chat: Chat) -> None:
    await chat.ladder("duel")
    await chat.join("alice", "bob")
    await chat.ok("alice", "/report win @bob")
    before = await chat.export()
    text = await chat.refused("mod", "/mod remove @bob cheating")
    assert text == ("bob has report #1 waiting (pending or disputed): settle it first, or "
                    "/mod void 1 reason.")
    assert "Moderator actions need a reason" in await chat.refused("mod", "/mod remove @bob")
    assert "has not joined" in await chat.refused("mod", "/mod remove @carol spam")
    assert await chat.export() == before
    await chat.ok("mod", "/mod void 1 never played")
    await chat.ok("mod", "/mod remove @bob cheating")
    assert [p["name"] for p in (await chat.export())["players"]] == ["alice"]



async def test_a_rulebooks_own_keys_are_refused_on_another(chat: Chat) -> None:
    """Glicko-2's, OpenSkill's and fame's keys configure their formula only: set on a
    ladder of another, they would change nothing, so the answer says why instead."""
    reply = await chat.refused("mod", "/ladder create elo preset=warlight rd=200")
    assert reply == ("rd= configures the glicko2 rulebook, and this ladder rates by Elo: "
                     "`/help settings` says what each key is for.")
    await chat.ok("mod", "/ladder create g preset=glicko2 rd=200 confirm=false")
    assert "k1= configures the fame rulebook" in await chat.refused(
        "mod", "/ladder set k1=3 ladder=g")
    assert "sigma= configures the openskill rulebook, and this ladder rates by rungs" in \
        await chat.refused("mod", "/ladder create p preset=nhwc sigma=3")
    await chat.ok("mod", "/ladder set tau=0.3 ladder=g")


def test_every_setting_has_one_group() -> None:
    """/help settings lists each key once, under what it configures."""
    from core.domain.setting_keys import SETTING_GROUPS, SETTING_SPECS
    from core.service.helptext import help_text

    keys = [key for _, _, group in SETTING_GROUPS for key in group]
    assert sorted(keys) == sorted(SETTING_SPECS)
    text = str(help_text("settings"))
    assert "Glicko-2:\n  rd: " in text and "Decay:\n  decay: " in text
    assert all(text.count(f"\n  {key}: ") == 1 for key in keys)
