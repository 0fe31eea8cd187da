"""What falls due when: the plan of a ladder's time-driven jobs, and `next_due`.

`core.service.jobs` runs what this plans; commands that add a job (a pending report, a
challenge) call `expect` so the scheduler wakes the ladder in time.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from core.domain.calendar import (
    HOUR,
    day_start,
    local,
    midnights,
    month_label,
    previous_month,
    season_after,
    season_month,
)
from core.domain.model import Timestamp
from core.domain.records import ChallengeRecord, LadderInfo, QueueState
from core.domain.rulebooks import choose
from core.domain.settings import Settings
from core.domain.tournament.record import Status, Tournament
from core.ports.repository import Repo

# Jobs due at the same instant run in this order.
# A round's end comes last at its instant: the plan is made again after it (the next
# round's jobs), from the instant on, so nothing else of that instant may wait behind it.
_ORDER = {"confirm": 0, "forfeit": 1, "expire": 1, "lapse": 2, "remind": 3, "unready": 3,
          "unqueue": 3, "decay": 4, "season": 5, "summary": 6, "ranks": 7,
          "round_remind": 8, "round_end": 8}
ROUND_REMINDER = 24 * HOUR  # a round's players are reminded a day before its deadline


@dataclass(frozen=True, slots=True)
class Job:
    """One due piece of work."""

    at: Timestamp
    kind: str
    ref: int = 0  # match, challenge, queue match or tournament id
    label: str = ""  # decay day or season

    @property
    def key(self) -> tuple[Timestamp, int, int, str]:
        """Sort key: time, then the fixed kind order, then id."""
        return (self.at, _ORDER[self.kind], self.ref, self.label)


def plan(repo: Repo, ladder: LadderInfo, now: Timestamp) -> list[Job]:
    """Every job due in (ladder.clock, now], in the order they run."""
    settings, clock = ladder.settings, ladder.clock
    jobs: list[Job] = []
    if settings.confirm:
        for m in repo.open_matches(ladder.id):
            due = m.reported_at + round(settings.confirm_hours * HOUR)
            if m.status == "pending" and due <= now:
                jobs.append(Job(max(due, clock), "confirm", m.id))
    if settings.challenges:
        for c in repo.unfinished_challenges(ladder.id):
            # the deadline first: once it has passed, its reminder has no point
            for due, kind in challenge_times(settings, c):
                if due <= now:
                    jobs.append(Job(max(due, clock), kind, c.id))
                    break
    if settings.queue is not None:
        jobs += [Job(max(due, clock), kind, ref) for due, kind, ref in
                 queue_due(repo.queue(ladder.id), settings.ready_seconds) if due <= now]
    if ladder.contested:
        jobs += [Job(max(due, clock), kind, ref) for due, kind, ref in
                 round_times(repo.tournaments(ladder.id)) if due <= now]
    days = midnights(clock, now, settings.timezone) if now > clock else []
    # The log's end of each local day, applied once: decay, or a rating period's close.
    if settings.decays or choose(settings).waits(settings):
        for start, day in days:
            if ladder.last_decay is None or day.isoformat() > ladder.last_decay:
                jobs.append(Job(start, "decay", label=day.isoformat()))
    if "season" in settings.tables and ladder.season is not None:
        season = ladder.season
        for start, day in days:
            # A season ends on the 1st, the one begun by an early close too (RULES.md).
            month = month_label(start, settings.timezone)
            if day.day == 1 and season_month(season) <= previous_month(month):
                jobs.append(Job(start, "season", label=season))
                season = season_after(season, start, settings.timezone)
    if settings.weekly_summary:
        for start, day in days:
            if day.weekday() == 0:
                jobs.append(Job(start, "summary", label=day.isoformat()))
    if days:  # where everyone stands as the newest day begins (after its decay)
        jobs.append(Job(days[-1][0], "ranks", label=days[-1][1].isoformat()))
    jobs.sort(key=lambda j: j.key)
    return jobs


def challenge_times(settings: Settings, c: ChallengeRecord) -> list[tuple[Timestamp, str]]:
    """When a challenge's jobs fall due: an open one's forfeit, an accepted one's lapse
    (RULES.md, "Accepted challenges"; not while a report of it waits), and the reminder
    `reminder_hours` before either, once; an open challenge to anyone only lapses."""
    if c.status == "open":
        start, due, kind = c.issued_at, c.issued_at + round(settings.challenge_hours * HOUR), \
            "forfeit"
        if c.challenged is None:  # open to anyone, nobody took it: it lapses, no forfeit
            return [(due, "expire")]
    elif c.status == "accepted" and c.match is None and c.answered_at is not None:
        start, due, kind = c.answered_at, c.answered_at + round(settings.play_hours * HOUR), \
            "lapse"
    else:
        return []
    times = [(due, kind)]  # the deadline first
    remind = due - round(settings.reminder_hours * HOUR)
    if settings.reminder_hours > 0 and not c.reminded and start < remind:
        times.append((remind, "remind"))
    return times


def queue_due(state: QueueState, ready_seconds: int) -> list[tuple[Timestamp, str, int]]:
    """When a queue's jobs fall due: each place's lapse, each ready check's end."""
    jobs = [(e.expires, "unqueue", 0) for e in state.entries]
    jobs += [(m.formed_at + ready_seconds, "unready", m.id) for m in state.matches if not m.on]
    return jobs


def round_times(tournaments: list[Tournament]) -> list[tuple[Timestamp, str, int]]:
    """When running tournaments' jobs fall due: each round's end, and its reminder a day
    before (once, and only in a round longer than a day)."""
    jobs = []
    for x in tournaments:
        if x.status is Status.RUNNING and x.deadline is not None:
            jobs.append((x.deadline, "round_end", x.id))
            if not x.reminded and x.round_hours * HOUR > ROUND_REMINDER:
                jobs.append((x.deadline - ROUND_REMINDER, "round_remind", x.id))
    return jobs


def next_due(repo: Repo, ladder: LadderInfo) -> Timestamp | None:
    """When this ladder next has a job due after its clock (None: nothing scheduled)."""
    settings = ladder.settings
    # Every ladder wakes at its midnight: the day's ranks are kept then (and decay, the
    # season close and the weekly summary run then, where the ladder has them).
    day = local(ladder.clock, settings.timezone).date()
    found: list[Timestamp] = [day_start(day + timedelta(days=1), settings.timezone)]
    if settings.confirm:
        window = round(settings.confirm_hours * HOUR)
        found += [m.reported_at + window for m in repo.open_matches(ladder.id)
                  if m.status == "pending"]
    if settings.challenges:
        for c in repo.unfinished_challenges(ladder.id):
            found += [due for due, _ in challenge_times(settings, c)]
    if settings.queue is not None:
        found += [due for due, _, _ in queue_due(repo.queue(ladder.id), settings.ready_seconds)]
    if ladder.contested:
        found += [due for due, _, _ in round_times(repo.tournaments(ladder.id))]
    return min(found) if found else None


def schedule(repo: Repo, chat: str, name: str) -> None:
    """Store when the ladder next has a job due, for the scheduler (a full re-plan)."""
    ladder = repo.ladder(chat, name)
    if ladder is not None:
        repo.update_ladder(ladder.id, next_due=next_due(repo, ladder) or 0)


def expect(repo: Repo, ladder: LadderInfo, due: Timestamp) -> None:
    """A command added a job due at `due`: wake the ladder then, if not earlier already.

    Only ever moving `next_due` earlier keeps it a safe hint: a job removed later (a
    report confirmed by hand) at worst wakes the ladder for nothing, and the catch-up
    then re-plans.
    """
    if ladder.next_due is None or due < ladder.next_due:
        repo.update_ladder(ladder.id, next_due=due)


