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
from collections.abc import Iterator
from datetime import date, timedelta

from core.domain.budget import renewed
from core.domain.calendar import DAY
from core.domain.events import DecayDay, MatchConfirmed, SeasonClosed
from core.domain.ledger import Rederived
from core.domain.model import Margin, Result, Timestamp
from core.domain.records import (
    Announcement,
    ChallengeRecord,
    Context,
    LadderInfo,
    MatchRecord,
    UserRef,
)
from core.domain.standing import Applied, SeasonEffect
from core.i18n import N_, Message, joined, plural, render, span, t
from core.ports.repository import Repo
from core.service.handlers import queue, tournaments
from core.service.handlers.moderation import season_text
from core.service.handlers.reporting import confirm_match, effect_text
from core.service.planning import Job, challenge_times, plan, schedule
from core.service.queries.challenges import answers, whom
from core.service.queries.ladders import main_table
from core.service.session import Session, signed

SYSTEM = UserRef("system:scheduler", "scheduler")


def catch_up(repo: Repo, ladder: LadderInfo, now: Timestamp) -> list[Announcement]:
    """Run every due job of one ladder up to `now`; return what to announce.

    `next_due` is never later than the first due job (commands that add one move it
    earlier with `expect`), so a ladder whose `next_due` is still ahead has nothing to do:
    every command checks that without planning anything.
    """
    if now <= ladder.clock or ladder.next_due is None or now < ladder.next_due:
        return []
    texts: list[Message] = []
    # text index -> the queue match whose ready check it carries, and whom it calls
    readies: dict[int, tuple[int | None, tuple[str, ...]]] = {}
    quiet: list[tuple[Session, SeasonEffect]] = []  # seasons no one qualified in, in turn
    decays: dict[int, str] = {}  # text index -> the decay day it sums up
    for job in _planned(repo, ladder, now):
        said = len(texts)
        with renewed():  # (each job its own time budget: a long downtime is many jobs)
            ladder = _job(repo, ladder, job, texts, readies, quiet)
        if job.kind == "decay" and len(texts) > said:  # (its summary is said last)
            decays[len(texts) - 1] = job.label
    texts += _quiet_text(quiet)
    texts, readies = _decay_runs(ladder, texts, readies, decays)
    repo.update_ladder(ladder.id, clock=now)
    schedule(repo, ladder.chat, ladder.name)
    if texts and ladder.several:  # which ladder's, in a chat of several
        texts = [t("announce.on_ladder", ladder=ladder.name, text=text) for text in texts]
    return _announced(ladder, texts, readies)


def _job(repo: Repo, ladder: LadderInfo, job: Job, texts: list[Message],
         readies: dict[int, tuple[int | None, tuple[str, ...]]],
         quiet: list[tuple[Session, SeasonEffect]]) -> LadderInfo:
    """Run one due job, adding what it says to `texts` (and `readies`, `quiet`); the
    ladder as it stands after it."""
    session = Session(repo, Context(ladder.chat, SYSTEM, job.at), ladder)
    said: Message = ""
    ready: tuple[int | None, tuple[str, ...]] | None = None
    if job.kind == "season":
        effect = _close_season(session, job)
        if not effect.hall:
            quiet.append((session, effect))  # (said together with the next that speaks)
        else:
            said = season_text(session, effect)
    elif job.kind == "unready":  # a match formed again carries its Ready button
        said, formed = queue.deadline(session, job.ref)
        if formed is not None:
            ready = (formed.id, queue.called(session, formed))
    elif job.kind == "round_end":  # the next round's players are called to it
        said, calls = tournaments.deadline(session, job.ref)
        ready = (None, calls) if calls else None
    else:
        said = _run(session, job)
        if session.calls:  # (an automatic confirmation opened a tournament's round)
            ready = (None, tuple(session.calls))
    if said:
        texts += [*_quiet_text(quiet), said]
        quiet.clear()
        if ready is not None:
            readies[len(texts) - 1] = ready
    repo.update_ladder(ladder.id, clock=job.at)
    return _reload(repo, ladder)


def _decay_runs(ladder: LadderInfo, texts: list[Message],
                readies: dict[int, tuple[int | None, tuple[str, ...]]], decays: dict[int, str]
                ) -> tuple[list[Message], dict[int, tuple[int | None, tuple[str, ...]]]]:
    """Days of decay caught up in a row (downtime) said in one announcement, with the
    last day's summary, not one a day; the other texts (and their buttons) as they were."""
    kept: list[Message] = []
    moved: dict[int, tuple[int | None, tuple[str, ...]]] = {}
    run: list[int] = []

    def close_run() -> None:
        if len(run) > 1:
            kept.append(t("decay.days", ladder=ladder.name, first=decays[run[0]],
                          last=decays[run[-1]], count=len(run), summary=texts[run[-1]]))
        elif run:
            kept.append(texts[run[0]])
        run.clear()

    for n, text in enumerate(texts):
        if n in decays and (not run or run[-1] == n - 1):
            run.append(n)
            continue
        close_run()
        if n in decays:
            run.append(n)
            continue
        if n in readies:
            moved[len(kept)] = readies[n]
        kept.append(text)
    close_run()
    return kept, moved


def _announced(ladder: LadderInfo, texts: list[Message],
               readies: dict[int, tuple[int | None, tuple[str, ...]]]) -> list[Announcement]:
    """Announcements leave the core here, in words: the ladder's language."""
    language = ladder.settings.language
    announcements = []
    for n, text in enumerate(texts):
        ready, notify = readies.get(n, (None, ()))
        announcements.append(Announcement(ladder.chat, ladder.name, render(text, language),
                                          ladder.channel, ready, language, notify))
    return announcements


def _planned(repo: Repo, ladder: LadderInfo, now: Timestamp) -> Iterator[Job]:
    """The due jobs in order, planned again after a round that ran a queue's (a failed
    ready check gives places back, whose own lapse may fall due before `now` too), and at
    once after a tournament's round ends (the next one's deadline and reminder)."""
    while True:
        again = False
        for job in plan(repo, ladder, now):
            again = again or job.kind in ("unready", "unqueue")
            yield job
            if job.kind == "round_end":  # (the rest of this plan may be the old round's)
                again = True
                break
        if not again:
            return
        ladder = _reload(repo, ladder)  # (its clock moved with the jobs)


def _reload(repo: Repo, ladder: LadderInfo) -> LadderInfo:
    found = repo.ladder(ladder.chat, ladder.name)
    assert found is not None
    return found


def _run(s: Session, job: Job) -> Message:
    if job.kind == "confirm":
        return _auto_confirm(s, job)
    if job.kind == "forfeit":
        return _forfeit(s, job)
    if job.kind == "remind":
        return _remind(s, job)
    if job.kind == "round_remind":
        return tournaments.remind(s, job.ref)
    if job.kind == "lapse":
        return _lapse(s, job)
    if job.kind == "expire":
        return _expire(s, job)
    if job.kind == "decay":
        return _period_text(s, job.label, s.append(DecayDay(job.at, job.label))[0])
    if job.kind == "unqueue":
        return queue.lapse(s, job.at)
    if job.kind == "ranks":
        s.repo.keep_day_ranks(s.ladder.id, main_table(s.settings), job.at)
        return ""
    return _summary(s, job)


def _period_text(s: Session, day: str, applied: Applied | Rederived) -> Message:
    """A rating period's close at the start of `day`, where its games moved ratings; a
    decay day's summary, where it moved someone."""
    if isinstance(applied, Applied) and applied.kind == "decay" and applied.decayed:
        more = applied.decayed - len(applied.most)
        return t("decay.summary", ladder=s.ladder.name, day=day,
                 moved=plural(applied.decayed, "player"),
                 changes=joined(s.describe_changes(applied.most),
                                t("changes.more", count=more) if more else "", sep=", "))
    if isinstance(applied, Rederived) or applied.kind != "period" or not applied.changes:
        return ""
    last = (date.fromisoformat(day) - timedelta(days=1)).isoformat()
    which = N_("period.closed_day") if s.settings.period == "day" else N_("period.closed_week")
    return t(which, ladder=s.ladder.name, day=last,
             moved=plural(len(applied.changes), "player"),
             changes=s.describe_changes(applied.changes, limit=10))


def _close_season(s: Session, job: Job) -> SeasonEffect:
    applied = s.append(SeasonClosed(job.at, job.label))[0]
    assert not isinstance(applied, Rederived) and applied.season is not None
    return applied.season


def _quiet_text(quiet: list[tuple[Session, SeasonEffect]]) -> list[Message]:
    """Seasons closed in a row with no one in the Hall of Fame (months of downtime caught
    up): one announcement for them all, not one a month."""
    if len(quiet) < 2:
        return [season_text(s, effect) for s, effect in quiet]
    s, first, last = quiet[-1][0], quiet[0][1], quiet[-1][1]
    return [t("season.quiet_many", first=first.season, last=last.season,
              ladder=s.ladder.name, count=len(quiet), games=s.settings.season_min_games,
              next=last.following)]


def _auto_confirm(s: Session, job: Job) -> Message:
    record = s.repo.match(s.ladder.id, job.ref)
    if record is None or record.status != "pending":
        return ""
    record, text = confirm_match(s, record, job.at)
    return joined(t("confirm.automatic", id=record.id, result=s.describe_result(record.result),
                    within=span(s.settings.confirm_hours, "hour")), text)


def _challenge(s: Session, challenge_id: int) -> ChallengeRecord | None:
    for c in s.repo.unfinished_challenges(s.ladder.id):
        if c.id == challenge_id:
            return c
    return None


def _forfeit(s: Session, job: Job) -> Message:
    challenge = _challenge(s, job.ref)
    if challenge is None or challenge.status != "open" or challenge.challenged is None:
        return ""
    challenged = challenge.challenged
    result = Result(((challenge.challenger,), (challenged,)), margin=Margin.MINOR)
    record = MatchRecord(
        ladder=s.ladder.id, id=s.repo.new_match_id(s.ladder.id), status="confirmed",
        reporter=challenge.challenger, reported_at=job.at, result=result,
        challenge=challenge.id, forfeit=True, confirmed_at=job.at,
    )
    members = s.repo.players(s.ladder.id, [challenge.challenger, challenged])
    if not all(p.member for p in members.values()):
        s.repo.save_challenge(dataclasses.replace(challenge, status="cancelled"))
        return ""
    applied = s.append(MatchConfirmed(job.at, record.as_match()))[0]
    assert not isinstance(applied, Rederived) and applied.match is not None
    effect = applied.match
    s.repo.save_match(dataclasses.replace(record, rated=effect.rated, note=effect.note))
    s.repo.save_challenge(dataclasses.replace(challenge, status="forfeited", match=record.id,
                                              answered_at=job.at))
    return joined(t("challenge.forfeit", challenged=s.name(challenged),
                    challenger=s.name(challenge.challenger), id=challenge.id,
                    within=span(s.settings.challenge_hours, "hour"), match=record.id),
                  effect_text(s, effect.rated, effect.note, effect.changes))


def _remind(s: Session, job: Job) -> Message:
    challenge = _challenge(s, job.ref)
    times = challenge_times(s.settings, challenge) if challenge is not None else []
    if challenge is None or len(times) < 2:  # answered, played, or reminded already
        return ""
    s.repo.save_challenge(dataclasses.replace(challenge, reminded=True))
    due = s.when(times[0][0])
    if challenge.status == "accepted":
        return t("challenge.remind_play", challenger=s.name(challenge.challenger),
                 challenged=whom(s, challenge), id=challenge.id, due=due)
    accept, decline = answers(s)
    return t("challenge.remind_answer", challenger=s.name(challenge.challenger),
             challenged=whom(s, challenge), id=challenge.id, due=due, accept=accept,
             decline=decline)


def _lapse(s: Session, job: Job) -> Message:
    """An accepted challenge not played in time: no result, nobody moves, both free."""
    challenge = _challenge(s, job.ref)
    if challenge is None or challenge.status != "accepted" or challenge.match is not None:
        return ""
    s.repo.save_challenge(dataclasses.replace(challenge, status="lapsed"))
    return t("challenge.lapsed", id=challenge.id, challenger=s.name(challenge.challenger),
             challenged=whom(s, challenge), within=span(s.settings.play_hours, "hour"))


def _expire(s: Session, job: Job) -> Message:
    """An open challenge nobody took by the challenge deadline: it lapses, no forfeit."""
    challenge = _challenge(s, job.ref)
    if challenge is None or challenge.status != "open" or challenge.challenged is not None:
        return ""
    s.repo.save_challenge(dataclasses.replace(challenge, status="lapsed", answered_at=job.at))
    return t("challenge.open_lapsed", id=challenge.id, challenger=s.name(challenge.challenger),
             within=span(s.settings.challenge_hours, "hour"))


def _summary(s: Session, job: Job) -> Message:
    settings = s.settings
    since = job.at - round(settings.week_days * DAY)
    sums = s.repo.week_sums(s.ladder.id, since, job.at)
    movers = sorted(sums.items(), key=lambda kv: (-abs(kv[1][0]), kv[0]))[:5]
    movers = [m for m in movers if m[1][0] != 0]
    if not movers:
        return t("summary.quiet_rungs" if settings.is_position else "summary.quiet",
                 ladder=s.ladder.name)
    s.names(p for p, _ in movers)
    if settings.is_position:  # rungs count down to the top; the displaced played no game
        moved = [t("summary.up" if delta < 0 else "summary.down", name=s.name(p),
                   by=f"{abs(delta):g}") for p, (delta, _) in movers]
    else:
        moved = [t("summary.gain", name=s.name(p), gain=signed(gain),
                   games=plural(games, "game")) for p, (gain, games) in movers]
    return t("summary.movers", ladder=s.ladder.name, movers=joined(*moved, sep=", "))


def catch_up_due(repo: Repo, now: Timestamp) -> list[Announcement]:
    """Run the due jobs of every ladder that has any, up to `now` (the scheduler's tick)."""
    announcements: list[Announcement] = []
    for ladder in repo.due_ladders(now):
        announcements += catch_up(repo, ladder, now)
    return announcements
