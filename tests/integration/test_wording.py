"""Replies that read wrong in a community's first months (issue: a community's first
months), each as a user meets it."""

from __future__ import annotations

from typing import Any

from core.domain.settings import Policy, preset
from tests.support.chat import Chat


async def test_an_empty_ladder_names_the_season_that_begins(chat: Chat) -> None:
    await chat.ladder("duel")
    assert "None" not in await chat.ok("a", "/halloffame")
    assert "Season 2026-01 is under way" in await chat.ok("a", "/halloffame")
    assert (await chat.ok("a", "/standings season")).startswith("main: season 2026-01 (")
    assert "Season 2026-01 under way" in await chat.ok("a", "/ladder info")


async def test_challenges_on_a_rating_ladder_name_ratings_not_rungs(chat: Chat) -> None:
    await chat.ladder("duel", "challenges=true")
    await chat.join("a", "b")
    text = await chat.ok("a", "/challenge @b")
    assert "None" not in text and "(1000 challenges 1000)" in text, text
    text = await chat.ok("b", "/accept")
    assert "a at 1000, b at 1000" in text and "minor|major" not in text, text


async def test_a_custom_preset_is_described_by_its_own_settings(store: Any) -> None:
    club = preset("duel").with_changes({"k": 24.0, "floor": None})
    chat = Chat(store, policy=Policy(presets=(("club", club),)))
    created = await chat.ok("mod", "/ladder create main preset=club")
    info = await chat.ok("mod", "/ladder info")
    for text in (created, info):
        assert "floor 800" not in text and "K 24" in text, text
    presets = await chat.ok("a", "/help presets")
    assert "club: this community's own, based on duel: zero-sum Elo from 1000 with K 24" \
        in presets, presets
    assert "duel: zero-sum Elo from 1000 with K 32, minimum gain 1, floor 800" in presets
    await chat.ok("mod", "/ladder set public=true")
    from core.service.queries.views import standings_view
    page = await store.run(lambda repo: standings_view(repo, 1, None, chat.at), commit=False)
    assert "floor 800" not in page["summary"] and "K 24" in page["summary"], page["summary"]


async def test_a_match_a_moderator_made_unrated_does_not_say_reported(chat: Chat) -> None:
    await chat.ladder("duel", "confirm=false")
    await chat.join("a", "b")
    await chat.ok("a", "/report win @b")
    await chat.ok("mod", "/mod set 1 @a unrated a friendly")
    history = await chat.ok("a", "/history")
    assert "reported as unrated" not in history and "#1" in history, history
    assert "marked unrated" in history


async def test_mod_set_reads_vs_between_the_sides(chat: Chat) -> None:
    await chat.ladder("duel", "confirm=false")
    await chat.join("a", "b")
    await chat.ok("a", "/report win @b")
    text = await chat.ok("mod", "/mod set 1 @b vs @a the result was the other way")
    assert "b beat a" in text and ": the result was the other way" in text, text
    assert "vs @a" not in text


async def test_a_report_against_yourself_says_so(chat: Chat) -> None:
    await chat.ladder("duel")
    await chat.join("a")
    text = await chat.refused("a", "/report win @a")
    assert text.startswith("You cannot report a game against yourself"), text


async def test_help_takes_a_command_with_its_words(chat: Chat) -> None:
    assert (await chat.ok("a", "/help mod void")).startswith("Moderators: void a match")
    assert (await chat.ok("a", "/help report win")).startswith("Report a game you played")
