"""Challenges on the nhwc position ladder (RULES.md section 4), through the commands."""

from __future__ import annotations

from core.calendar import HOUR
from tests.chat import Chat


async def nhwc(chat: Chat, n: int = 8, *options: str) -> None:
    await chat.ladder("nhwc", "confirm=false", *options)
    await chat.join(*(f"p{i}" for i in range(1, n + 1)))


async def test_play_a_challenge_from_issue_to_result(chat: Chat) -> None:
    await nhwc(chat)
    await chat.ok("p7", "/challenge @p5")
    text = await chat.ok("p5", "/accept")
    assert "p7 on rung 7, p5 on rung 5" in text
    text = await chat.ok("p5", "/report win @p7 major")
    # rungs 5 and 7: the higher (case 2) major victory goes up 1; the lower (case 5) stays
    assert "p5 rung 5 -> 4 (up 1)" in text and "p7 stays on rung 7" in text
    ratings = await chat.ratings()
    assert ratings["p5"] == 4 and ratings["p7"] == 7 and ratings["p4"] == 5


async def test_history_says_who_stayed(chat: Chat) -> None:
    # The example above, then an adjacent draw (case 3 draw 0, case 4 draw +1: the lower's
    # target is the higher's rung, and on a draw the one who started higher goes above).
    await nhwc(chat)
    await chat.ok("p7", "/challenge @p5")
    await chat.ok("p5", "/accept")
    await chat.ok("p5", "/report win @p7 major")
    await chat.ok("p2", "/challenge @p1")
    await chat.ok("p1", "/accept")
    assert "p2 stays on rung 2, p1 stays on rung 1" in await chat.ok("p2", "/report draw @p1")
    lines = (await chat.ok("p1", "/history")).splitlines()
    assert lines[1].endswith("p2 drew with p1: p2 stays on 2, p1 stays on 1"), lines
    assert lines[2].endswith("p5 beat p7 (major): p5 5 -> 4, p7 stays on 7"), lines


async def test_a_result_needs_an_accepted_challenge_and_a_margin(chat: Chat) -> None:
    await nhwc(chat)
    text = await chat.refused("p2", "/report win @p1 major")
    assert "no accepted challenge between you and p1" in text
    await chat.ok("p2", "/challenge @p1")
    assert "no accepted challenge" in await chat.refused("p2", "/report win @p1 major")
    await chat.ok("p1", "/accept @p2")
    assert "minor, major or overwhelming" in await chat.refused("p2", "/report win @p1")
    await chat.ok("p2", "/report draw @p1")


async def test_invalid_decline_is_refused_with_the_rule(chat: Chat) -> None:
    await nhwc(chat)
    await chat.ok("p4", "/challenge @p1")
    text = await chat.refused("p1", "/decline too strong for me")
    assert text.startswith("A challenge may be declined only by a player already engaged in an "
                           "unfinished challenge or marked unavailable (/unavailable).")
    # the challenge is still open
    assert "accepts" in await chat.ok("p1", "/accept")


async def test_decline_when_unavailable(chat: Chat) -> None:
    await nhwc(chat)
    await chat.ok("p1", "/unavailable")
    await chat.ok("p4", "/challenge @p1")
    assert "marked unavailable" in await chat.ok("p1", "/decline on holiday")
    standings = await chat.ok("p2", "/standings")
    assert "1. p1 (unavailable)" in standings


async def test_decline_when_engaged(chat: Chat) -> None:
    await nhwc(chat)
    await chat.ok("p2", "/challenge @p1")
    await chat.ok("p1", "/accept")
    await chat.ok("p3", "/challenge @p1")
    assert "already engaged in challenge #1" in await chat.ok("p1", "/decline")


async def test_unanswered_challenge_becomes_a_forfeit(chat: Chat) -> None:
    await nhwc(chat, 6)
    await chat.ok("p6", "/challenge @p2")
    reminders = await chat.tick(48 * HOUR)
    assert [a.text for a in reminders] == [
        "@p2: p6's challenge #1 runs out at 2026-01-08 10:00 UTC. /accept or /decline before "
        "then, or it counts as your minor defeat."]
    [forfeit] = await chat.tick(24 * HOUR)
    # rungs 6 and 2: gap 4, cases 6 and 1; a minor defeat: p6 up 2, p2 down 1
    assert "a forfeit (minor defeat)" in forfeit.text
    ratings = await chat.ratings()
    assert ratings["p6"] == 4 and ratings["p2"] == 3
    assert await chat.tick(72 * HOUR) == []  # nothing applies twice


async def test_challenges_only_where_the_ladder_has_them(chat: Chat) -> None:
    await chat.ladder("duel")
    await chat.join("a", "b")
    assert "has no challenges" in await chat.refused("a", "/challenge @b")


async def test_no_second_challenge_between_a_pair(chat: Chat) -> None:
    await nhwc(chat, 3)
    await chat.ok("p3", "/challenge @p1")
    assert "already have challenge #1" in await chat.refused("p1", "/challenge @p3")
    assert "cannot challenge yourself" in await chat.refused("p1", "/challenge @p1")


async def test_profiles_list_unfinished_challenges(chat: Chat) -> None:
    # T0 is 2026-01-05 10:00 UTC; the default deadline is 72 hours.
    await nhwc(chat, 4)
    await chat.ok("p3", "/challenge @p1")
    await chat.ok("p4", "/challenge @p2")
    await chat.ok("p2", "/accept")
    assert "Challenges: #1 from p3, to answer by 2026-01-08 10:00 UTC." in \
        (await chat.ok("p1", "/profile")).splitlines()
    assert "Challenges: #1 to p1, unanswered (a forfeit at 2026-01-08 10:00 UTC)." in \
        (await chat.ok("p3", "/profile")).splitlines()
    assert "Challenges: #2 with p2, accepted: play it and /report." in \
        (await chat.ok("p1", "/profile @p4")).splitlines()
    await chat.ok("p2", "/report win @p4 minor")
    assert not any(line.startswith("Challenges:")
                   for line in (await chat.ok("p4", "/profile")).splitlines())


async def test_the_opponents_report_of_a_challenge_game_is_the_same_game(chat: Chat) -> None:
    """The first report spends the challenge; the other side's report of the same result
    confirms it (or, without confirmation, is answered), not 'challenge first'."""
    await chat.ladder("nhwc")
    await chat.join("p1", "p2", "p3")
    await chat.ok("p3", "/challenge @p1")
    await chat.ok("p1", "/accept")
    await chat.ok("p3", "/report win @p1 major")
    text = await chat.ok("p1", "/report loss @p3 major")
    assert text.startswith("That matches #1, which is now confirmed."), text
    await chat.ok("mod", "/ladder set confirm=false")
    await chat.ok("p2", "/challenge @p1")
    await chat.ok("p1", "/accept")
    await chat.ok("p1", "/report draw @p2")
    text = await chat.refused("p2", "/report draw @p1")
    assert "p1 already reported this game as #2" in text, text
    # with no game reported, a challenge is still needed
    assert "no accepted challenge" in await chat.refused("p2", "/report win @p3 minor")


async def test_a_player_in_an_unfinished_challenge_is_not_removed(chat: Chat) -> None:
    await nhwc(chat, 3)
    await chat.ok("p3", "/challenge @p2")
    text = await chat.refused("mod", "/mod remove @p2 inactive")
    assert text == "p2 has challenge #1 unfinished: it is played, declined or forfeited first."
    await chat.tick(73 * HOUR)  # the forfeit: p2's minor defeat
    assert "took p2 off main" in await chat.ok("mod", "/mod remove @p2 inactive")


async def test_a_withdrawn_report_gives_the_challenge_back(chat: Chat) -> None:
    # p3 one below p2: case 4, a major victory +2; p2 case 3, a major defeat -1.
    await chat.ladder("nhwc")
    await chat.join("p1", "p2", "p3")
    await chat.ok("p3", "/challenge @p2")
    await chat.ok("p2", "/accept")
    await chat.ok("p3", "/report win @p2 minor")  # it was major
    await chat.ok("p3", "/withdraw")
    await chat.ok("p3", "/report win @p2 major")
    text = await chat.ok("p2", "/confirm")
    assert "p3 rung 3 -> 1 (up 2), p2 rung 2 -> 3 (down 1)" in text, text
