"""Open challenges (RULES.md, "Accepted challenges"; issue 27): `/challenge` with no name,
taken by the first member who answers `/accept @challenger`, with the cases of a normal
challenge from the rungs at acceptance; unanswered by the challenge deadline (72 hours by
default) it lapses with no forfeit."""

from __future__ import annotations

from core.domain.calendar import HOUR
from tests.support.chat import Chat


async def nhwc(chat: Chat, n: int = 6) -> None:
    await chat.ladder("nhwc", "confirm=false")
    await chat.join(*(f"p{i}" for i in range(1, n + 1)))


async def test_the_first_to_accept_takes_it_and_plays_it_as_a_challenge(chat: Chat) -> None:
    await nhwc(chat)
    text = await chat.ok("p6", "/challenge")
    assert text == ("p6 (rung 6) challenges anyone on main: the first to answer /accept @p6 "
                    "takes it, by 2026-01-08 10:00 UTC; unanswered, it lapses with no forfeit "
                    "(#1).")
    assert (await chat.ok("p2", "/accept @p6")).startswith(
        "p2 accepts p6's challenge #1: p6 on rung 6, p2 on rung 2.")
    assert await chat.refused("p3", "/accept @p6") == \
        "You have no open challenge from p6 to answer."  # taken: nobody else may
    # rungs 6 and 2: gap 4, cases 6 and 1 (RULES.md §4); a minor win: p6 up 2, p2 down 1
    await chat.ok("p6", "/report win @p2 minor")
    ratings = await chat.ratings()
    assert ratings["p6"] == 4 and ratings["p2"] == 3


async def test_the_cases_are_the_rungs_when_it_is_accepted(chat: Chat) -> None:
    await nhwc(chat)
    await chat.ok("p6", "/challenge")
    await chat.ok("p5", "/challenge @p1")  # meanwhile p5 climbs to the top
    await chat.ok("p1", "/accept")
    await chat.ok("p5", "/report win @p1 overwhelming")
    rungs = await chat.ratings()
    taker = next(name for name, rung in rungs.items() if rung == 2)
    text = await chat.ok(taker, "/accept @p6")
    assert f"p6 on rung 6, {taker} on rung 2" in text


async def test_unanswered_it_lapses_with_no_forfeit_and_no_reminder(chat: Chat) -> None:
    await nhwc(chat)
    await chat.ok("p6", "/challenge")
    assert "Challenges: #1 to anyone, unanswered (lapses at 2026-01-08 10:00 UTC)." in \
        (await chat.ok("p6", "/profile")).splitlines()
    assert await chat.tick(71 * HOUR) == []  # no reminder: nobody was challenged
    [lapsed] = await chat.tick(1 * HOUR)
    assert lapsed.text == ("p6's open challenge #1 lapsed: nobody took it within 72 hours. "
                           "No forfeit; nobody moves.")
    assert await chat.ratings() == {f"p{i}": i for i in range(1, 7)}
    assert await chat.tick(72 * HOUR) == []  # nothing applies twice
    assert await chat.refused("p2", "/accept @p6") == \
        "You have no open challenge from p6 to answer."


async def test_refusals_name_what_to_do(chat: Chat) -> None:
    await nhwc(chat)
    await chat.ok("p6", "/challenge")
    assert await chat.refused("p6", "/challenge") == (
        "You already have an open challenge to anyone (#1): /challenge cancel takes it back.")
    assert await chat.refused("p6", "/accept @p6") == (
        "That is your own open challenge: someone else takes it (/challenge cancel takes it "
        "back).")
    assert await chat.refused("p2", "/accept") == (
        "No challenge is waiting for you; to take an open challenge, name its challenger: "
        "/accept @name.")
    assert await chat.refused("p2", "/decline busy") == \
        "You have no open challenge to answer."  # (nobody declines a challenge to anyone)
    await chat.ok("p2", "/challenge @p6")  # a challenge between them already
    assert "already have challenge #2" in await chat.refused("p2", "/accept @p6")


async def test_the_challenger_cancels_it_or_a_moderator_does(chat: Chat) -> None:
    await nhwc(chat)
    await chat.ok("p6", "/challenge")
    assert await chat.ok("p6", "/challenge cancel") == \
        "p6 cancelled open challenge #1: nobody moves."
    await chat.ok("p6", "/challenge")
    assert await chat.ok("mod", "/mod cancel 2 nobody is online") == (
        "mod cancelled p6's open challenge #2: nobody is online. Nobody moves.")
    assert "#2, p6's open challenge" in await chat.ok("p6", "/history")
    assert await chat.tick(100 * HOUR) == []  # a cancelled one never lapses


async def test_an_open_challenge_on_a_rating_ladder(chat: Chat) -> None:
    await chat.ladder("duel", "confirm=false", "challenges=true", "language=nl")
    await chat.join("ann", "bob")
    assert (await chat.ok("ann", "/challenge")).startswith(
        "ann (1000) daagt iedereen uit op main: wie als eerste /accept @ann antwoordt")
    assert "ann" in await chat.ok("bob", "/accept @ann")
