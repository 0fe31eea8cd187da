"""Everything that happens because time passes: decay, season closes, deadlines,
automatic confirmation, weekly summaries; catch-up after downtime, applied once."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from apscheduler.triggers.interval import IntervalTrigger

from bot.scheduler import Scheduler
from core.domain.calendar import DAY, HOUR, iso, parse_instant
from core.domain.events import DecayDay, SeasonClosed
from core.domain.records import Announcement
from storage.sqlite.store import SqliteStore
from tests.support.chat import Chat


async def dutch(chat: Chat, *options: str) -> None:
    await chat.ladder("dutch", "confirm=false", *options)
    await chat.join("a")
    await chat.ok("mod", "/mod adjust @a +1000 start")


async def test_a_dutch_player_at_1000_who_does_not_play(chat: Chat) -> None:
    await dutch(chat)
    seen = []
    for day in ("2026-01-06", "2026-01-07", "2026-01-08"):
        await chat.time(f"{day}T00:00:00+00:00")
        seen.append((await chat.ratings())["a"])
    assert seen == [992, 985, 978]


async def test_three_midnights_in_one_jump_decay_three_times(chat: Chat) -> None:
    await dutch(chat)
    await chat.time("2026-01-08T09:00:00+00:00")
    assert await chat.ratings() == {"a": 978}
    await chat.time("2026-01-08T23:59:59+00:00")  # no midnight on the way
    assert await chat.ratings() == {"a": 978}


async def test_decay_runs_at_the_ladders_midnight_across_daylight_saving(store: Any) -> None:
    chat = Chat(store, at=parse_instant("2026-03-27T12:00:00+00:00"))
    await dutch(chat, "timezone=Europe/Amsterdam")
    await chat.time("2026-04-01T12:00:00+00:00")
    events = await store.run(lambda repo: repo.events(1))
    decays = [(iso(e.at), e.day) for e in events if isinstance(e, DecayDay)]
    # 00:00 in Amsterdam is 23:00 UTC before 29 March and 22:00 UTC after: every local
    # day once, 30 and 31 March included (APScheduler's own trigger skips 31 March).
    assert decays == [
        ("2026-03-27T23:00:00+00:00", "2026-03-28"),
        ("2026-03-28T23:00:00+00:00", "2026-03-29"),
        ("2026-03-29T22:00:00+00:00", "2026-03-30"),
        ("2026-03-30T22:00:00+00:00", "2026-03-31"),
        ("2026-03-31T22:00:00+00:00", "2026-04-01"),
    ]
    assert await chat.ratings() == {"a": 1000 - 8 - 7 - 7 - 7 - 7}


async def test_a_zone_that_skips_midnight_still_gets_its_day(store: Any) -> None:
    # Chile moves its clocks from Saturday 24:00 to Sunday 01:00 on 6 September 2026.
    chat = Chat(store, at=parse_instant("2026-09-04T12:00:00+00:00"))
    await dutch(chat, "timezone=America/Santiago")
    await chat.time("2026-09-07T12:00:00+00:00")
    events = await store.run(lambda repo: repo.events(1))
    assert [(iso(e.at), e.day) for e in events if isinstance(e, DecayDay)] == [
        ("2026-09-05T04:00:00+00:00", "2026-09-05"),
        ("2026-09-06T04:00:00+00:00", "2026-09-06"),  # 01:00, the day's first instant
        ("2026-09-07T03:00:00+00:00", "2026-09-07"),
    ]


async def season_ladder(chat: Chat) -> None:
    await chat.ladder("duel", "confirm=false", "calibration=0")
    await chat.join("A", "B", "C")
    for _ in range(3):
        await chat.ok("A", "/report win @B")
        await chat.tick(DAY)


async def test_season_closes_on_the_first_with_an_announcement(chat: Chat) -> None:
    await season_ladder(chat)
    assert await chat.time("2026-01-31T23:59:59+00:00") == []
    [announcement] = await chat.time("2026-02-01T00:00:00+00:00")
    assert announcement.text.startswith("Season 2026-01 of main is closed. Hall of Fame: 1. A +")
    assert "Season 2026-02 starts now; everyone starts at 0." in announcement.text
    data = await chat.export()
    assert data["hall_of_fame"][0]["season"] == "2026-01" and data["tables"]["season"] == []
    assert "season 2026-02" in await chat.ok("A", "/standings season")
    assert "2026-01: 1. A +" in await chat.ok("A", "/halloffame")
    # Listed before, not after a month without games: "not yet" would say never.
    await chat.time("2026-03-10T00:00:00+00:00")
    assert (await chat.ok("A", "/standings ladder")).splitlines()[1] == (
        "No one is listed now: the ladder lists players who played in the last 30 days.")


async def test_season_close_follows_the_ladders_time_zone(store: Any) -> None:
    chat = Chat(store)
    await chat.ladder("duel", "timezone=Asia/Tokyo")
    await chat.join("A")
    # 1 February 00:00 in Tokyo is 31 January 15:00 UTC
    assert await chat.time("2026-01-31T14:59:59+00:00") == []
    [announcement] = await chat.time("2026-01-31T15:00:00+00:00")
    assert announcement.text.startswith("Season 2026-01 of main is closed.")


async def test_months_of_downtime_close_each_season_once_in_order(chat: Chat) -> None:
    await season_ladder(chat)
    found = await chat.time("2026-04-15T00:00:00+00:00")  # the quiet ones: one line
    assert [a.text.split(" of main")[0] for a in found] == [
        "Season 2026-01", "Seasons 2026-02 to 2026-03"]
    assert await chat.time("2026-04-20T00:00:00+00:00") == []
    events = await chat.store.run(lambda repo: repo.events(1))
    assert [e.season for e in events if isinstance(e, SeasonClosed)] == [
        "2026-01", "2026-02", "2026-03"]


async def test_weekly_summary_on_monday(chat: Chat) -> None:
    await chat.ladder("duel", "confirm=false", "weekly_summary=true")  # 2026-01-05 is a Monday
    await chat.join("A", "B")
    await chat.ok("A", "/report win @B")
    [summary] = await chat.time("2026-01-12T00:00:00+00:00")
    assert summary.text == "main: top movers of the week: A +16 (1 game), B -16 (1 game)."


async def test_weekly_summary_of_a_position_ladder_says_up_and_down(chat: Chat) -> None:
    # RULES.md, nhwc: rung 3 beats rung 1 (case 5 and case 2) by a major victory: the
    # winner goes up 2, the loser down 1, and the player between is pushed down 1.
    await chat.ladder("nhwc", "confirm=false", "weekly_summary=true")
    await chat.join("A", "B", "C")
    await chat.ok("C", "/challenge @A")
    await chat.ok("A", "/accept")
    await chat.ok("C", "/report win @A major")
    found = await chat.time("2026-01-12T00:00:00+00:00")
    assert [a.text for a in found] == ["main: top movers of the week: C up 2, A down 1, B down 1."]
    assert [a.text for a in await chat.time("2026-01-19T00:00:00+00:00")] == [
        "main: a quiet week, no rung moved."]


async def test_next_due_tells_the_scheduler_when_to_wake(chat: Chat) -> None:
    await chat.ladder("warlight", "confirm_hours=1")  # every ladder wakes at its midnight
    await chat.join("A", "B")

    async def due() -> int | None:
        ladder = await chat.store.run(lambda repo: repo.ladder("console", "main"))
        return ladder.next_due  # type: ignore[no-any-return]

    midnight = parse_instant("2026-01-06T00:00:00+00:00")
    assert await due() == midnight
    await chat.ok("A", "/report win @B")  # confirmed automatically in an hour
    assert await due() == chat.at + HOUR
    await chat.ok("B", "/confirm")
    # A hint is never late, but may be early: nothing is due at it any more, and
    # reaching it re-plans to the midnight.
    assert await due() == chat.at + HOUR
    assert await chat.tick(HOUR) == []
    assert await due() == midnight


# ------------------------------------------------------------ the running bot's scheduler


class FakeClock:
    def __init__(self, at: str) -> None:
        self.now = float(parse_instant(at))

    def __call__(self) -> float:
        return self.now


async def test_scheduler_applies_downtime_once_at_start(tmp_path: Path) -> None:
    db = tmp_path / "l.db"
    async with SqliteStore(db) as store:
        chat = Chat(store)
        await dutch(chat)
        await chat.ladder("duel", "calibration=0", name="cup")
        await chat.join("A", "B", ladder="ladder=cup")
        await chat.ok("A", "/report win @B ladder=cup")  # pending: confirmed automatically
    posted: list[Announcement] = []

    async def deliver(found: Announcement) -> None:
        posted.append(found)

    clock = FakeClock("2026-02-03T12:00:00+00:00")  # the bot was down for four weeks
    async with SqliteStore(db) as store:
        scheduler = Scheduler(store, deliver, clock)
        await scheduler.start()
        scheduler.stop()
        decay, *rest = posted  # (named: the chat has two ladders)
        assert decay.text.startswith("main: Decay on main: 29 days, 2026-01-06 to 2026-02-03. "
                                     "The last: Decay on main, 2026-02-03: ")
        assert [a.text[:49] for a in rest] == [
            "cup: Match #1 (A beat B) is confirmed: no answer ",
            "cup: Season 2026-01 of cup is closed. No one qual",
        ]
        after_start = await Chat(store, at=int(clock.now)).export("main")
    async with SqliteStore(db) as store:
        again = Scheduler(store, deliver, clock)
        assert await again.start() == []  # a second start applies nothing
        again.stop()
        events = await store.run(lambda repo: repo.events(1))
        # one decay day per midnight from 6 January to 3 February, not one more
        assert len([e for e in events if isinstance(e, DecayDay)]) == 29
        assert await Chat(store, at=int(clock.now)).export("main") == after_start
        # later ticks pick up what falls due after the start
        clock.now += DAY
        ticked = await again.tick()  # (the next midnight's decay, said: 823² // 125000 = 5)
        assert [a.text for a in ticked] == [
            "main: Decay on main, 2026-02-04: 1 player lost rating: a 823 -> 818 (-5)."]
        assert len(posted) == 4  # (the three at the start, and this one)
        events = await store.run(lambda repo: repo.events(1))
        assert len([e for e in events if isinstance(e, DecayDay)]) == 30


async def test_scheduler_triggers_without_sleeping(tmp_path: Path) -> None:
    async with SqliteStore(tmp_path / "l.db") as store:
        async def deliver(found: Announcement) -> None:
            return None

        scheduler = Scheduler(store, deliver, FakeClock("2026-01-05T10:00:00+00:00"), every=30)
        await scheduler.start()
        try:
            job = scheduler.apscheduler.get_job("catch-up")
            assert job is not None and isinstance(job.trigger, IntervalTrigger)
            assert job.coalesce is True and job.misfire_grace_time is None
            assert job.max_instances == 1
            start = job.trigger.start_date
            first = job.trigger.get_next_fire_time(None, start)
            assert first is not None
            second = job.trigger.get_next_fire_time(first, first)
            assert second is not None and (second - first).total_seconds() == 30
        finally:
            scheduler.stop()
