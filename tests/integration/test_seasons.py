"""RULES.md, "Seasons after an early close": the season an early close begins still ends
on the 1st, is labelled like its month with a letter, and the calendar goes on."""

from __future__ import annotations

from tests.support.chat import Chat


async def _duel(chat: Chat) -> None:
    await chat.ladder("duel", "confirm=false")
    await chat.join("a", "b")


async def test_an_early_close_in_january_still_closes_on_the_first(chat: Chat) -> None:
    await _duel(chat)
    await chat.time("2026-01-20T12:00:00+00:00")
    closed = await chat.ok("mod", "/mod season close early")
    assert "Season 2026-01 of main is closed" in closed
    assert "Season 2026-01b starts now" in closed
    found = await chat.time("2026-02-01T00:00:00+00:00")
    assert [a.text.split(" of main")[0] for a in found if "closed" in a.text] == \
        ["Season 2026-01b"]
    assert "Season 2026-02 starts now" in found[0].text
    found = await chat.time("2026-03-01T00:00:00+00:00")
    assert "Season 2026-02 of main is closed" in found[0].text
    hall = await chat.export()
    assert hall["hall_of_fame"] == []


async def test_three_closes_on_one_day_give_letters_in_turn(chat: Chat) -> None:
    await _duel(chat)
    labels = []
    for _ in range(3):
        text = await chat.ok("mod", "/mod season close")
        labels.append(text.split("Season ")[-1].split(" starts")[0])
    assert labels == ["2026-01b", "2026-01c", "2026-01d"]
    assert "season 2026-01d" in await chat.ok("a", "/standings season")
    found = await chat.time("2026-02-01T00:00:00+00:00")
    assert "Season 2026-01d of main is closed" in found[0].text


async def test_the_early_seasons_winners_enter_the_hall_under_its_label(chat: Chat) -> None:
    await chat.ladder("duel", "confirm=false", "calibration=0", "season_min_games=1")
    await chat.join("a", "b")
    await chat.ok("mod", "/mod season close")
    await chat.ok("a", "/report win @b")
    await chat.time("2026-02-01T00:00:00+00:00")
    hall = (await chat.export())["hall_of_fame"]
    assert [(h["season"], h["place"], h["name"]) for h in hall] == [("2026-01b", 1, "a")]
    assert "2026-01b: 1. a +16" in await chat.ok("a", "/halloffame")


async def test_months_of_downtime_close_quiet_seasons_in_one_announcement(chat: Chat) -> None:
    await chat.ladder("duel", "confirm=false", "calibration=0", "season_min_games=1")
    await chat.join("a", "b")
    found = [a.text for a in await chat.time("2026-03-10T12:00:00+00:00")]
    assert found == [
        "Seasons 2026-01 to 2026-02 of main are closed (2 seasons): no one qualified for the "
        "Hall of Fame (1+ rated games and a gain). Season 2026-03 starts now; everyone starts "
        "at 0."]
    await chat.ok("a", "/report win @b")  # a wins season 2026-03
    found = [a.text for a in await chat.time("2026-07-02T00:00:00+00:00")]
    assert found == [
        "Season 2026-03 of main is closed. Hall of Fame: 1. a +16. Season 2026-04 starts now; "
        "everyone starts at 0.",
        "Seasons 2026-04 to 2026-06 of main are closed (3 seasons): no one qualified for the "
        "Hall of Fame (1+ rated games and a gain). Season 2026-07 starts now; everyone starts "
        "at 0.",
    ], found
    hall = (await chat.export())["hall_of_fame"]
    assert [(h["season"], h["name"]) for h in hall] == [("2026-03", "a")]
    one = [a.text for a in await chat.time("2026-08-01T00:00:00+00:00")]
    assert one == ["Season 2026-07 of main is closed. No one qualified for the Hall of Fame "
                   "(1+ rated games and a gain). Season 2026-08 starts now; everyone starts at 0."]
