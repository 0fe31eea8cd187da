"""What a player is told beyond the report flow: profiles (newcomers, leavers, decay, open
reports), history that says why, help for every command, hints on a second ladder, empty tables
and settings in the singular."""

from __future__ import annotations

from tests.support.chat import Chat, duel


async def test_profile_of_a_newcomer_says_no_games_yet(chat: Chat) -> None:
    await duel(chat)
    assert (await chat.ok("alice", "/profile")).splitlines()[1] == "No games yet."


async def test_profile_of_a_player_who_left_shows_the_record(chat: Chat) -> None:
    await duel(chat, "confirm=false")
    await chat.ok("alice", "/report win @bob")
    await chat.ok("bob", "/leave")
    text = await chat.ok("alice", "/profile @bob")
    assert text.splitlines()[:2] == [
        "bob left main at rating 984 and is in no table until they /join again.",
        "Games: 1: 0 wins, 1 loss, 0 draws. Last played 2026-01-05 10:00 UTC."]
    assert "has not joined main" in await chat.refused("alice", "/profile @carol")
    assert (await chat.ok("bob", "/profile")).splitlines()[0] == (  # their own record too
        "bob left main at rating 984 and is in no table until they /join again.")
    assert "not on main yet" in await chat.refused("carol", "/profile")


async def test_profile_of_a_player_who_left_a_position_ladder(chat: Chat) -> None:
    await chat.ladder("nhwc")
    await chat.join("alice", "bob")
    await chat.ok("bob", "/leave")
    text = await chat.ok("alice", "/profile @bob")
    assert text.splitlines()[0] == "bob left main and is on no rung until they /join again."


async def test_on_a_second_ladder_the_join_hints_name_it(chat: Chat) -> None:
    # A plain /join would join the chat's default ladder, not this one.
    await duel(chat, "confirm=false")
    await chat.ladder("warlight", "confirm=false", name="side")
    assert (await chat.ok("bob", "/standings ladder=side")).endswith(
        "No one has joined yet: /join ladder=side")
    await chat.join("alice", ladder="ladder=side")
    assert "ask @bob to /join ladder=side first" in await chat.refused(
        "alice", "/report win @bob ladder=side")
    assert "You are not on side yet: /join ladder=side first." in await chat.refused(
        "bob", "/report win @alice ladder=side")
    assert "/join ladder=side to come back" in await chat.ok("alice", "/leave ladder=side")
    assert "You are not on main yet: /join first." in await chat.refused("carol",
                                                                          "/report win @bob")


async def test_a_one_move_game_in_replies_and_history(chat: Chat) -> None:
    await duel(chat, "confirm=false")
    text = await chat.ok("alice", "/report win @bob moves=1")
    assert text == "Match #1: alice beat bob (1 move). Nothing moves: shorter than 2 moves, " \
                   "so unrated."
    history = await chat.ok("alice", "/history")
    assert history.splitlines()[1].endswith(
        "alice beat bob (1 move): shorter than 2 moves, so unrated")
    await chat.ok("alice", "/report win @bob moves=3 unrated")
    assert (await chat.ok("alice", "/history")).splitlines()[1].endswith(
        "alice beat bob (3 moves, unrated): marked unrated")


async def test_history_says_why_a_rated_game_moved_as_it_did(chat: Chat) -> None:
    # RULES.md, dutch: a series of two wins between equals moves 24 in all (16, then +8);
    # more than 719 apart, the stronger player's win moves nothing.
    await chat.ladder("dutch", "confirm=false")
    await chat.join("alice", "bob", "carol")
    await chat.ok("mod", "/mod adjust @alice +1000 start")
    await chat.ok("mod", "/mod adjust @bob +1000 start")
    await chat.ok("alice", "/report win @bob")
    await chat.ok("alice", "/report win @bob")
    await chat.ok("alice", "/report win @carol")
    lines = (await chat.ok("alice", "/history")).splitlines()
    assert lines[1].endswith("alice beat carol: 1024 points apart, a win by the stronger "
                             "player moves nothing (more than 719 apart)")
    assert lines[2].endswith("alice beat bob: alice +8, bob -8 (game 2 of a series)")
    assert lines[3].endswith("alice beat bob: alice +16, bob -16")


async def test_commands_before_any_ladder(chat: Chat) -> None:
    text = await chat.refused("alice", "/join")
    assert text == "There is no ladder here yet. A moderator creates one: /ladder create main " \
                   "preset=duel"
    assert "Commands:" in await chat.ok("alice", "/help")


async def test_help_for_every_command(chat: Chat) -> None:
    from core.commands.registry import USAGE

    for word in USAGE:
        text = await chat.ok("alice", f"/help {word}")
        assert f"Usage: {USAGE[word]}" in text
    assert "confirm_hours" in await chat.ok("alice", "/help settings")
    assert "nhwc" in await chat.ok("alice", "/help presets")


async def test_profile_on_a_decaying_ladder_says_what_a_day_takes(chat: Chat) -> None:
    # RULES.md, dutch: a player at 1000 loses 8 a day; at 0 nothing.
    await chat.ladder("dutch")
    await chat.join("alice", "bob")
    await chat.ok("mod", "/mod adjust @alice +1000 start")
    assert "Decay: -8 a day at this rating (at 00:00 UTC)." in \
        (await chat.ok("bob", "/profile @alice")).splitlines()
    assert "Decay:" not in await chat.ok("bob", "/profile")


async def test_a_profile_says_who_each_open_report_waits_for(chat: Chat) -> None:
    await duel(chat)
    await chat.join("carol")
    await chat.ok("alice", "/report win @bob")
    await chat.ok("carol", "/report win @alice")
    await chat.ok("bob", "/dispute 1 never played")
    assert ("Open reports: #1 alice beat bob: disputed, waiting for a moderator; "
            "#2 carol beat alice: waiting for alice to /confirm 2 or /dispute 2.") in \
        await chat.ok("alice", "/profile")
    assert "Open reports: #2 carol beat alice: waiting for alice to answer (or carol to " \
           "/withdraw 2)." in await chat.ok("bob", "/profile @carol")


async def test_an_empty_table_says_whom_it_lists(chat: Chat) -> None:
    """RULES (duel): after calibration; the season needs 3+ rated games, the week 2+."""
    await duel(chat, "confirm=false", "calibration=1")
    assert (await chat.ok("alice", "/standings week")).splitlines()[1] == (
        "No one is listed now: the week table lists calibrated players (1 rated game) with "
        "2+ rated games in the last 7 days and a gain.")
    await chat.ok("mod", "/ladder set calibration=5")
    assert (await chat.ok("alice", "/standings season")).splitlines()[1] == (
        "No one is listed now: the season table lists calibrated players (5 rated games) "
        "with 3+ rated games this month and a gain.")


async def test_settings_of_one_read_in_the_singular(chat: Chat) -> None:
    await chat.ladder("duel", "calibration=1", "confirm_hours=1", "farm_limit=1",
                      "farm_days=1", "week_days=1", "active_days=1")
    assert "The first rated game calibrates: tables list you after it." in \
        await chat.ok("alice", "/join")
    await chat.join("bob")
    assert "/dispute within 1 hour, or it counts" in await chat.ok("alice", "/report win @bob")
    await chat.ok("bob", "/confirm")
    await chat.ok("alice", "/report win @bob")
    text = await chat.ok("bob", "/confirm")
    assert "this pair already has 1 rated game in the last 1 day, so unrated" in text, text
    assert "Reports wait up to 1 hour for" in await chat.ok("alice", "/ladder info")
    assert "last 1 day (gain" in await chat.ok("alice", "/standings week")
    assert "active in the last 1 day)" in await chat.ok("alice", "/standings ladder")
