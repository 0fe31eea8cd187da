"""Challenges on the nhwc position ladder (RULES.md section 4), through the commands."""

from __future__ import annotations

from core.domain.calendar import HOUR
from tests.support.chat import Chat


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
    assert "Challenges: #2 with p2, accepted: play it and /report by 2026-01-12 10:00 UTC." in \
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
    assert text == ("p2 has challenge #1 unfinished: it is played, declined or forfeited "
                    "first, or /mod cancel 1 reason.")
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


# RULES.md, "Accepted challenges": play_hours, the reminder, /challenge cancel, /mod cancel.

async def test_an_accepted_challenge_left_unplayed_lapses_after_play_hours(chat: Chat) -> None:
    await nhwc(chat, 3)
    await chat.ok("p2", "/challenge @p3")
    accepted = await chat.ok("p3", "/accept")
    assert "Play by 2026-01-12 10:00" in accepted and "lapses" in accepted, accepted
    assert "p3 declines" not in (await chat.ok("p3", "/profile"))
    assert await chat.tick(144 * HOUR - 1) == []
    reminded = await chat.tick(1)  # 24 hours before the 168
    assert [a.text for a in reminded] == [
        "@p2 @p3: challenge #1 must be played and reported by 2026-01-12 10:00 UTC, or it "
        "lapses with no result."]
    assert await chat.tick(24 * HOUR - 1) == []
    lapsed = await chat.tick(1)
    assert [a.text for a in lapsed] == [
        "Challenge #1 between p2 and p3 lapsed: not played within 168 hours of its "
        "acceptance. No result, nobody moves; both are free."]
    assert await chat.ratings() == {"p1": 1, "p2": 2, "p3": 3}
    # both are free: p3 may be challenged, and declines only for a valid reason again
    await chat.ok("p1", "/challenge @p3")
    assert "neither" in await chat.refused("p3", "/decline busy")
    assert "no accepted challenge" in await chat.refused("p3", "/report win @p2 minor")
    assert "left main" in await chat.ok("p2", "/leave")


async def test_a_played_challenge_waiting_for_confirmation_does_not_lapse(chat: Chat) -> None:
    await chat.ladder("nhwc")
    await chat.join("p1", "p2", "p3")
    await chat.ok("p3", "/challenge @p2")
    await chat.ok("p2", "/accept")
    await chat.tick(167 * HOUR)
    await chat.ok("p3", "/report win @p2 major")
    assert not [a for a in await chat.tick(2 * HOUR) if "lapsed" in a.text]
    assert "p3 rung 3 -> 1" in await chat.ok("p2", "/confirm")


async def test_play_hours_is_a_setting_with_a_range(chat: Chat) -> None:
    await nhwc(chat, 2, "play_hours=2")
    await chat.ok("p2", "/challenge @p1")
    await chat.ok("p1", "/accept")
    assert any("lapsed" in a.text for a in await chat.tick(2 * HOUR))
    assert "at most 8,760" in await chat.refused("mod", "/ladder set play_hours=9000")


async def test_the_challenger_cancels_an_unanswered_challenge(chat: Chat) -> None:
    await nhwc(chat, 4)
    assert "no unanswered challenge" in await chat.refused("p4", "/challenge cancel")
    await chat.ok("p4", "/challenge @p3")
    await chat.ok("p4", "/challenge @p2")
    which = await chat.refused("p4", "/challenge cancel")
    assert "/challenge cancel @p3 or /challenge cancel @p2" in which
    assert "no unanswered challenge" in await chat.refused("p3", "/challenge cancel")
    text = await chat.ok("p4", "/challenge cancel @p3")
    assert text == "p4 cancelled challenge #1 to p3: nobody moves."
    assert "no open challenge" in await chat.refused("p3", "/accept")
    await chat.ok("p2", "/accept")
    assert "accepted already" in await chat.refused("p4", "/challenge cancel @p2")
    # the cancelled one never becomes a forfeit
    found = await chat.tick(100 * HOUR)
    assert not [a for a in found if "forfeit" in a.text]
    assert (await chat.ratings())["p3"] == 3


async def test_a_moderator_cancels_any_unfinished_challenge_with_a_reason(chat: Chat) -> None:
    await nhwc(chat, 3)
    await chat.ok("p3", "/challenge @p2")
    await chat.ok("p2", "/accept")
    assert "Only moderators" in await chat.refused("p3", "/mod cancel 1 no")
    assert "reason" in await chat.refused("mod", "/mod cancel 1")
    assert "no unfinished challenge #7" in await chat.refused("mod", "/mod cancel 7 gone")
    assert "challenge's id" in await chat.refused("mod", "/mod cancel @p2 gone")
    text = await chat.ok("mod", "/mod cancel 1 p2 is away for a month")
    assert text == ("mod cancelled challenge #1 between p3 and p2: p2 is away for a month. "
                    "No result, nobody moves; both are free.")
    assert "no unfinished challenge #1" in await chat.refused("mod", "/mod cancel 1 again")
    assert "cancelled challenge #1 between p3 and p2: p2 is away" in \
        await chat.ok("p3", "/profile")
    assert "took p2 off" in await chat.ok("mod", "/mod remove @p2 away")


async def test_a_played_challenge_is_voided_before_it_is_cancelled(chat: Chat) -> None:
    await chat.ladder("nhwc")
    await chat.join("p1", "p2")
    await chat.ok("p2", "/challenge @p1")
    await chat.ok("p1", "/accept")
    await chat.ok("p2", "/report win @p1 minor")
    assert "/mod void 1 reason" in await chat.refused("mod", "/mod cancel 1 late")


async def test_decline_asks_which_when_several_wait(chat: Chat) -> None:
    await nhwc(chat, 4)
    await chat.ok("p1", "/unavailable")
    await chat.ok("p3", "/challenge @p1")
    await chat.ok("p4", "/challenge @p1")
    which = await chat.refused("p1", "/decline away")
    assert which == "2 challenges wait for you: say which, /decline @p3 or /decline @p4."
    assert "declines p4's challenge #2 (away)" in await chat.ok("p1", "/decline @p4 away")
    assert "declines p3's challenge #1" in await chat.ok("p1", "/decline")
