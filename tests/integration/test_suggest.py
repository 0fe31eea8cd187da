"""`/suggest`: up to five fair opponents now (issue 27), checked against ratings worked out
from RULES.md (duel: K 32 zero-sum from 1000; 4 rated games a pair in 7 days; nhwc rungs;
dutch's 719 gap)."""

from __future__ import annotations

from tests.support.chat import Chat


async def duel(chat: Chat, *names: str) -> None:
    await chat.ladder("duel", "confirm=false")
    await chat.join(*names)


async def test_the_nearest_in_rating_first_ties_by_who_joined(chat: Chat) -> None:
    await duel(chat, "alice", "bob", "cat", "dan", "eve", "fay", "gus")
    await chat.ok("bob", "/report win @cat")  # equal: 32 * (1 - 0.5) = 16 each way
    text = await chat.ok("alice", "/suggest")
    assert text == ("Fair games for alice on main now: dan (1000), eve (1000), fay (1000), "
                    "gus (1000), bob (1016).")


async def test_unavailable_players_and_challenges_are_left_out(chat: Chat) -> None:
    await chat.ladder("duel", "confirm=false", "challenges=true")
    await chat.join("alice", "bob", "cat", "dan")
    await chat.ok("bob", "/unavailable")
    await chat.ok("cat", "/challenge @dan")
    assert await chat.ok("alice", "/suggest") == (
        "No fair opponent for alice on main right now: the others are unavailable, in a "
        "challenge, too far apart, or have played you often enough lately.")
    assert await chat.ok("cat", "/suggest") == (
        "cat, you are in an unfinished challenge on main: play it first (/profile shows it).")
    await chat.ok("bob", "/available")
    assert await chat.ok("alice", "/suggest") == \
        "Fair games for alice on main now: bob (1000)."


async def test_a_pair_farmed_this_week_is_left_out(chat: Chat) -> None:
    await duel(chat, "alice", "bob", "cat")
    for _ in range(2):  # four rated games of the pair: a fifth would be unrated
        await chat.ok("alice", "/report win @bob again")
        await chat.ok("bob", "/report win @alice again")
    assert "cat (1000)." in await chat.ok("alice", "/suggest")
    assert "bob" not in await chat.ok("alice", "/suggest")
    await chat.tick(7 * 24 * 3600 + 60)  # the week after: bob is fair again
    assert "bob (" in await chat.ok("alice", "/suggest")


async def test_a_position_ladder_suggests_the_nearest_rungs_above_first(chat: Chat) -> None:
    await chat.ladder("nhwc", "confirm=false")
    await chat.join(*(f"p{i}" for i in range(1, 9)))
    assert await chat.ok("p5", "/suggest") == (
        "Fair games for p5 on main now: p4 (rung 4), p6 (rung 6), p3 (rung 3), p7 (rung 7)"
        ", p2 (rung 2).")


async def test_dutch_leaves_out_a_gap_beyond_719(chat: Chat) -> None:
    await chat.ladder("dutch", "confirm=false")
    await chat.join("alice", "bob", "cat")
    await chat.ok("mod", "/mod adjust @bob +720 strong")
    await chat.ok("mod", "/mod adjust @cat +719 strong")
    assert await chat.ok("alice", "/suggest") == \
        "Fair games for alice on main now: cat (719)."


async def test_a_stranger_is_told_to_join_and_the_reply_speaks_the_ladders_language(
        chat: Chat) -> None:
    await chat.ladder("duel", "language=ru")
    await chat.join("alice", "bob")
    assert "/join" in await chat.refused("zed", "/suggest")
    assert await chat.ok("alice", "/suggest") == \
        "alice, честные соперники в main сейчас: bob (1000)."
