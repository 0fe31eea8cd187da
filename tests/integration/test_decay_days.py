"""Decay is said (issue 51): each day it moved someone, one summary per ladder (who, how
much, the largest moves first), in the ladder's language; `/history` names the decay days,
and a player's history what each took from them. It was silent before. The numbers are
RULES.md §5's: a day takes max(1, floor(R² / 125000)), nothing at 0."""

from __future__ import annotations

from typing import Any

from core.domain.calendar import DAY
from core.domain.chart import ChartData
from storage.memory.store import MemoryStore
from tests.support.chat import Chat


async def three(chat: Chat, *options: str) -> None:
    """A dutch ladder: a at 1700, b at 1000, c at 0 (the floor: nothing to take)."""
    await chat.ladder("dutch", "confirm=false", *options)
    await chat.join("a", "b", "c")
    await chat.ok("mod", "/mod adjust @a +1700 start")
    await chat.ok("mod", "/mod adjust @b +1000 start")


async def test_a_decay_day_is_summed_up_once_per_ladder(store: Any) -> None:
    chat = Chat(store)
    await three(chat)
    said = [a.text for a in await chat.tick(DAY)]  # (the first midnight, 2026-01-06)
    assert said == ["Decay on main, 2026-01-06: 2 players lost rating: a 1700 -> 1677 (-23), "
                    "b 1000 -> 992 (-8)."]
    assert 1700 ** 2 // 125_000 == 23 and 1000 ** 2 // 125_000 == 8
    assert (await chat.ok("c", "/history")).splitlines()[-1] == (
        "Decay days: 2026-01-06 (each takes rating from every active member; /profile says how "
        "much).")
    assert (await chat.ok("c", "/history @a")).splitlines()[-1] == "Decay: 2026-01-06 -23."


async def test_a_day_that_moves_nobody_says_nothing_and_many_are_cut() -> None:
    chat = Chat(MemoryStore())
    await chat.ladder("dutch", "confirm=false")
    await chat.join("a", "b")
    assert await chat.tick(DAY) == []  # (everyone at 0)
    crowd = [f"p{n}" for n in range(8)]
    await chat.join(*crowd)
    for n, name in enumerate(crowd):
        await chat.ok("mod", f"/mod adjust @{name} +{1000 + 100 * n} start")
    [said] = [a.text for a in await chat.tick(DAY)]
    assert said.startswith("Decay on main, 2026-01-07: 8 players lost rating: "
                           "p7 1700 -> 1677 (-23), p6 1600 -> 1580 (-20), ")
    assert said.endswith(", and 3 more.")


async def test_the_summary_speaks_the_ladders_language() -> None:
    ru = Chat(MemoryStore(), chat="ru")
    await three(ru, "language=ru")
    [said] = [a.text for a in await ru.tick(DAY)]
    assert said.startswith("Снижение рейтинга в main за 2026-01-06: рейтинг снизился у "
                           "игроков (2 игрока): a 1700 -> 1677 (-23)")
    nl = Chat(MemoryStore(), chat="nl")
    await three(nl, "language=nl")
    [said] = [a.text for a in await nl.tick(DAY)]
    assert said.startswith("Verval op main, 2026-01-06: 2 spelers verloren rating: a 1700 -> "
                           "1677 (-23)")


async def test_a_players_chart_marks_each_decay_step() -> None:
    # The steps were drawn unlabelled, like any other move of the line.
    chat = Chat(MemoryStore())
    await three(chat)
    await chat.tick(2 * DAY)
    profile = await chat.say("a", "/profile")
    assert profile is not None and isinstance(profile.chart, ChartData)
    # 1700 - 23 = 1677, then 1677 - floor(1677² / 125000) = 1677 - 22 = 1655
    assert [value for _, value in profile.chart.decays] == [1677, 1655]
