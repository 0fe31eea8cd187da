"""What a new community admin meets in the first days (issue 51, "smaller things"); each
answer was wrong or misleading before."""

from __future__ import annotations

from core.domain.chart import ChartData
from core.service.queries.views import standings_view
from storage.memory.store import MemoryStore
from tests.support.chat import Chat


async def test_a_misspelt_preset_gets_a_did_you_mean() -> None:
    chat = Chat(MemoryStore())
    assert (await chat.refused("mod", "/ladder create main preset=dule")).startswith(
        "There is no preset called 'dule'. Did you mean duel? Choose one of: ")
    await chat.ladder("duel", "language=ru")  # (a refusal speaks the chat's language)
    assert (await chat.refused("mod", "/ladder create cup preset=glicko")).startswith(
        "Набора правил «glicko» нет. Может быть, glicko2? Выберите один из: ")


async def test_the_queue_a_moderator_is_told_to_set_is_one_the_ladder_takes() -> None:
    chat = Chat(MemoryStore())
    await chat.ladder("duel")
    await chat.join("alice")
    told = await chat.refused("alice", "/queue")
    assert told == ("main has no queue: a moderator sets one with /ladder set queue=1v1 (it "
                    "rates one-on-one games only).")
    await chat.ok("mod", "/ladder set queue=1v1")  # (queue=2v2, as it said before, is refused)
    await chat.ladder("warlight", name="wl")
    await chat.join("alice", ladder="ladder=wl")
    assert "queue=2v2" in await chat.refused("alice", "/queue ladder=wl")
    await chat.ladder("nhwc", name="cup")
    await chat.join("bob", ladder="ladder=cup")
    assert await chat.refused("bob", "/queue ladder=cup") == \
        "A position ladder has no queue: its rungs are played for by challenge."


async def test_challenge_keys_do_nothing_without_challenges_and_are_refused() -> None:
    chat = Chat(MemoryStore())
    await chat.ladder("duel")
    assert await chat.refused("mod", "/ladder set challenge_hours=1") == (
        "challenge_hours does nothing on a ladder without challenges: set challenges=true "
        "with it.")
    assert "challenge_hours=1" in await chat.ok("mod",
                                                "/ladder set challenges=true challenge_hours=1")
    await chat.ladder("nhwc", name="cup")
    await chat.ok("mod", "/ladder set play_hours=48 ladder=cup")


async def test_how_to_serve_the_public_page_is_said_to_the_moderator_alone() -> None:
    chat = Chat(MemoryStore())
    await chat.ladder("duel")
    reply = await chat.say("mod", "/ladder set public=true")
    assert reply is not None and reply.private and "[web] url" in str(reply.text)
    assert "public=true" in await chat.ok("mod", "/ladder info")


async def test_a_player_listed_on_the_page_gets_no_line_of_their_own_below_it() -> None:
    # 26 players at one rating share place 1; the 25th listed, on page 2, was told "… 1."
    chat = Chat(MemoryStore())
    await chat.ladder("duel", "calibration=0")
    names = [f"p{n:02d}" for n in range(26)]
    await chat.join(*names)
    page = (await chat.ok(names[24], "/standings rating page=2")).splitlines()
    assert page[0] == "main: ratings, page 2 of 2"
    assert page[1:] == [f"{n}. {name} 1000 (Fighter)" for n, name in
                        enumerate(names[20:], 21)]


async def test_the_first_player_of_a_position_ladder_is_not_told_it_is_the_bottom() -> None:
    chat = Chat(MemoryStore())
    await chat.ladder("nhwc", "language=nl")
    assert await chat.ok("a", "/join") == "a doet mee aan main, op plaats 1, als eerste speler."
    assert await chat.ok("b", "/join") == "b doet mee aan main, op plaats 2, de onderste."


async def test_a_player_with_no_games_gets_words_not_empty_axes() -> None:
    chat = Chat(MemoryStore())
    await chat.ladder("duel")
    await chat.join("alice", "bob")
    profile = await chat.say("alice", "/profile")
    assert profile is not None and profile.chart is None
    assert str(profile.text).splitlines()[1] == "No games yet."
    await chat.ok("alice", "/report win @bob")
    await chat.ok("bob", "/confirm")
    drawn = await chat.say("alice", "/profile")
    assert drawn is not None and isinstance(drawn.chart, ChartData)
    assert [value for _, value in drawn.chart.points][-1] == 1016  # RULES.md §3: +16


async def test_the_web_table_marks_glicko_players_provisional_by_their_rd() -> None:
    # Glicko-2 is provisional while RD > 110 (RULES.md §6), whatever the games played:
    # the web's table marked no one (it counted calibration games, which glicko2 has none of).
    chat = Chat(MemoryStore())
    await chat.ladder("glicko2", "confirm=false", "public=true")
    await chat.join("alice", "bob")
    await chat.ok("alice", "/report win @bob")
    view = await chat.store.run(lambda repo: standings_view(repo, 1, "rating", chat.at))
    assert view is not None
    assert [(r["name"], r["provisional"]) for r in view["rows"]] == [
        ("alice", True), ("bob", True)]
