"""Everything that happens because time passes, run as a catch-up.

`catch_up(repo, ladder, now)` applies every job that fell due since the ladder's clock,
in time order, each at the instant it was due: automatic confirmations, challenge
reminders and forfeits, decay days at local midnight, season closes on the 1st, and the
weekly summary. The scheduler, the console's simulated clock and start-up after
downtime all call it; since each job is stamped with its due instant and the clock is
stored in the same transaction, a skipped or doubled timer changes nothing.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from datetime import timedelta

from core.calendar import (
    DAY,
    HOUR,
    day_start,
    local,
    midnights,
    month_label,
    next_month,
    previous_month,
)
from core.events import DecayDay, MatchConfirmed, SeasonClosed
from core.ledger import Rederived
from core.model import Margin, Result, Timestamp
from core.moderation import season_text
from core.ports import Repo
from core.records import Announcement, ChallengeRecord, Context, LadderInfo, MatchRecord, UserRef
from core.reporting import confirm_match, effect_text
from core.session import Session, signed

# Jobs due at the same instant run in this order.
_ORDER = {"confirm": 0, "forfeit": 1, "remind": 2, "decay": 3, "season": 4, "summary": 5}
SYSTEM = UserRef("system:scheduler", "scheduler")


@dataclass(frozen=True, slots=True)
class Job:
    """One due piece of work."""

    at: Timestamp
    kind: str
    ref: int = 0  # match or challenge id
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
            if c.status != "open":
                continue
            due = c.issued_at + round(settings.challenge_hours * HOUR)
            if due <= now:
                jobs.append(Job(max(due, clock), "forfeit", c.id))
            elif settings.reminder_hours > 0 and not c.reminded:
                remind = due - round(settings.reminder_hours * HOUR)
                if c.issued_at < remind <= now:
                    jobs.append(Job(max(remind, clock), "remind", c.id))
    days = midnights(clock, now, settings.timezone) if now > clock else []
    if settings.decay and not settings.is_position:
        for start, day in days:
            if ladder.last_decay is None or day.isoformat() > ladder.last_decay:
                jobs.append(Job(start, "decay", label=day.isoformat()))
    if "season" in settings.tables and ladder.season is not None:
        season = ladder.season
        for start, day in days:
            if day.day == 1 and season <= previous_month(month_label(start, settings.timezone)):
                jobs.append(Job(start, "season", label=season))
                season = next_month(season)
    if settings.weekly_summary:
        for start, day in days:
            if day.weekday() == 0:
                jobs.append(Job(start, "summary", label=day.isoformat()))
    jobs.sort(key=lambda j: j.key)
    return jobs


def catch_up(repo: Repo, ladder: LadderInfo, now: Timestamp) -> list[Announcement]:
    """Run every due job of one ladder up to `now`; return what to announce."""
    if now <= ladder.clock:
        return []
    announcements: list[Announcement] = []
    for job in plan(repo, ladder, now):
        session = Session(repo, Context(ladder.chat, SYSTEM, job.at), ladder)
        text = _run(session, job)
        if text:
            announcements.append(Announcement(ladder.chat, ladder.name, text, ladder.channel))
        repo.update_ladder(ladder.id, clock=job.at)
        ladder = _reload(repo, ladder)
    repo.update_ladder(ladder.id, clock=now)
    schedule(repo, ladder.chat, ladder.name)
    return announcements


def _reload(repo: Repo, ladder: LadderInfo) -> LadderInfo:
    found = repo.ladder(ladder.chat, ladder.name)
    assert found is not None
    return found


def _run(s: Session, job: Job) -> str:
    if job.kind == "confirm":
        return _auto_confirm(s, job)
    if job.kind == "forfeit":
        return _forfeit(s, job)
    if job.kind == "remind":
        return _remind(s, job)
    if job.kind == "decay":
        s.append(DecayDay(job.at, job.label))
        return ""
    if job.kind == "season":
        applied = s.append(SeasonClosed(job.at, job.label))[0]
        assert not isinstance(applied, Rederived) and applied.season is not None
        return season_text(s, applied.season)
    return _summary(s, job)


def _auto_confirm(s: Session, job: Job) -> str:
    record = s.repo.match(s.ladder.id, job.ref)
    if record is None or record.status != "pending":
        return ""
    record, text = confirm_match(s, record, job.at)
    return (f"Match #{record.id} ({s.describe_result(record.result)}) is confirmed: no answer "
            f"within {s.settings.confirm_hours:g} hours. {text}")


def _challenge(s: Session, challenge_id: int) -> ChallengeRecord | None:
    for c in s.repo.unfinished_challenges(s.ladder.id):
        if c.id == challenge_id:
            return c
    return None


def _forfeit(s: Session, job: Job) -> str:
    challenge = _challenge(s, job.ref)
    if challenge is None or challenge.status != "open":
        return ""
    result = Result(((challenge.challenger,), (challenge.challenged,)), margin=Margin.MINOR)
    record = MatchRecord(
        ladder=s.ladder.id, id=s.repo.new_match_id(s.ladder.id), status="confirmed",
        reporter=challenge.challenger, reported_at=job.at, result=result,
        challenge=challenge.id, forfeit=True, confirmed_at=job.at,
    )
    members = s.repo.players(s.ladder.id, [challenge.challenger, challenge.challenged])
    if not all(p.member for p in members.values()):
        s.repo.save_challenge(dataclasses.replace(challenge, status="cancelled"))
        return ""
    applied = s.append(MatchConfirmed(job.at, record.as_match()))[0]
    assert not isinstance(applied, Rederived) and applied.match is not None
    effect = applied.match
    s.repo.save_match(dataclasses.replace(record, rated=effect.rated, note=effect.note))
    s.repo.save_challenge(dataclasses.replace(challenge, status="forfeited", match=record.id,
                                              answered_at=job.at))
    return (f"{s.name(challenge.challenged)} did not answer {s.name(challenge.challenger)}'s "
            f"challenge #{challenge.id} within {s.settings.challenge_hours:g} hours: a forfeit "
            f"(minor defeat), match #{record.id}. "
            + effect_text(s, effect.rated, effect.note, effect.changes))


def _remind(s: Session, job: Job) -> str:
    challenge = _challenge(s, job.ref)
    if challenge is None or challenge.status != "open":
        return ""
    s.repo.save_challenge(dataclasses.replace(challenge, reminded=True))
    due = challenge.issued_at + round(s.settings.challenge_hours * HOUR)
    return (f"@{s.name(challenge.challenged)}: {s.name(challenge.challenger)}'s challenge "
            f"#{challenge.id} runs out at {s.when(due)}. /accept or /decline before then, or it "
            "counts as your minor defeat.")


def _summary(s: Session, job: Job) -> str:
    settings = s.settings
    since = job.at - round(settings.week_days * DAY)
    sums = s.repo.week_sums(s.ladder.id, since, job.at)
    movers = sorted(sums.items(), key=lambda kv: (-abs(kv[1][0]), kv[0]))[:5]
    movers = [m for m in movers if m[1][0] != 0]
    if not movers:
        return f"{s.ladder.name}: a quiet week, no rating moved."
    s.names(p for p, _ in movers)
    return f"{s.ladder.name}: top movers of the week: " + ", ".join(
        f"{s.name(p)} {signed(gain)} ({games} games)" for p, (gain, games) in movers) + "."


def next_due(repo: Repo, ladder: LadderInfo) -> Timestamp | None:
    """When this ladder next has a job due after its clock (None: nothing scheduled)."""
    settings = ladder.settings
    found: list[Timestamp] = []
    if (settings.decay and not settings.is_position) or "season" in settings.tables \
            or settings.weekly_summary:
        day = local(ladder.clock, settings.timezone).date()
        found.append(day_start(day + timedelta(days=1), settings.timezone))
    if settings.confirm:
        window = round(settings.confirm_hours * HOUR)
        found += [m.reported_at + window for m in repo.open_matches(ladder.id)
                  if m.status == "pending"]
    if settings.challenges:
        hours = round(settings.challenge_hours * HOUR)
        remind = round(settings.reminder_hours * HOUR)
        for c in repo.unfinished_challenges(ladder.id):
            if c.status != "open":
                continue
            found.append(c.issued_at + hours)
            if remind and not c.reminded and hours > remind:
                found.append(c.issued_at + hours - remind)
    return min(found) if found else None


def schedule(repo: Repo, chat: str, name: str) -> None:
    """Store when the ladder next has a job due, for the scheduler."""
    ladder = repo.ladder(chat, name)
    if ladder is not None:
        repo.update_ladder(ladder.id, next_due=next_due(repo, ladder) or 0)


def catch_up_due(repo: Repo, now: Timestamp) -> list[Announcement]:
    """Run the due jobs of every ladder that has any, up to `now` (the scheduler's tick)."""
    announcements: list[Announcement] = []
    for ladder in repo.due_ladders(now):
        announcements += catch_up(repo, ladder, now)
    return announcements
