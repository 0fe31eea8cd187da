"""Challenges on a position ladder (RULES.md section 4): issue, accept, decline, availability."""

from __future__ import annotations

import dataclasses

from core.commands.challenges import (
    AcceptChallenge,
    DeclineChallenge,
    IssueChallenge,
    WithdrawChallenge,
)
from core.commands.membership import SetAvailability
from core.commands.moderation import CancelChallenge
from core.domain.errors import Duplicate, RuleViolation, UsageError
from core.domain.events import ChallengeAccepted
from core.domain.model import PlayerId
from core.domain.records import ChallengeRecord, Reply
from core.i18n import N_, Message, either, encode, t
from core.service.planning import challenge_times, expect
from core.service.queries.challenges import answers, deadline
from core.service.session import Session, rating_text

# An unfinished challenge's status, in words.
_STATUS = {"open": N_("challenge.status.open"), "accepted": N_("challenge.status.accepted")}


def _require_challenges(s: Session) -> None:
    if not s.settings.challenges:
        raise RuleViolation(t("challenge.none_here", ladder=s.ladder.name))


def standing(s: Session, player: PlayerId, placed: bool = False) -> Message:
    """A member's rung (`rung 3`; `on rung 3` when `placed`), or rating (`1016`, `at
    1016`) on a rating ladder with challenges."""
    if s.settings.is_position:
        rung = s.repo.rank(s.ladder.id, "rung", player, s.now) or 0
        return t("challenge.on_rung" if placed else "challenge.rung", rung=rung)
    state = s.repo.player_state(s.ladder.id, player)
    rating = rating_text(state.rating if state is not None else s.settings.start)
    return t("challenge.at_rating", rating=rating) if placed else rating


def issue(s: Session, cmd: IssueChallenge) -> Reply:
    """Challenge another member, or anyone (an open challenge)."""
    _require_challenges(s)
    me = s.me()
    if cmd.opponent is None:
        return _issue_open(s, me.id, me.name)
    them = s.member(cmd.opponent)
    if them.id == me.id:
        raise RuleViolation(t("challenge.yourself"))
    for challenge in s.repo.unfinished_challenges(s.ladder.id):
        if {challenge.challenger, challenge.challenged} == {me.id, them.id}:
            raise Duplicate(t("challenge.already", name=them.name, id=challenge.id,
                              status=t(_STATUS[challenge.status])))
    record = ChallengeRecord(s.ladder.id, s.repo.new_challenge_id(s.ladder.id), me.id, them.id,
                             "open", s.now)
    s.repo.save_challenge(record)
    _expect_jobs(s, record)
    accept, decline = answers(s)
    return Reply(t("challenge.issued", challenger=me.name, challenged=them.name,
                   mine=standing(s, me.id), theirs=standing(s, them.id),
                   due=s.when(deadline(s, record)), accept=accept, decline=decline))


def _issue_open(s: Session, me: PlayerId, name: str) -> Reply:
    """A challenge to anyone: the first member to `/accept @challenger` takes it; unanswered
    by the challenge deadline, it lapses with no forfeit (RULES.md, "Accepted
    challenges"). One open challenge at a time."""
    for challenge in s.repo.unfinished_challenges(s.ladder.id):
        if challenge.challenger == me and challenge.challenged is None:
            raise Duplicate(t("challenge.open_already", id=challenge.id))
    record = ChallengeRecord(s.ladder.id, s.repo.new_challenge_id(s.ladder.id), me, None,
                             "open", s.now)
    s.repo.save_challenge(record)
    _expect_jobs(s, record)
    return Reply(t("challenge.issued_open", challenger=name, id=record.id,
                   mine=standing(s, me), ladder=s.ladder.name,
                   due=s.when(deadline(s, record)), accept=s.said(f"/accept @{name}", named=True)))


def _incoming(s: Session, me: PlayerId, challenger: PlayerId | None,
              verb: str = "") -> ChallengeRecord:
    """The open challenge to `me` (from `challenger`; with `challenger` named, their open
    challenge to anyone too, when none is to `me`). With `verb` (`decline`), several
    waiting and none named is refused with the ones to choose from, as /confirm does."""
    unfinished = s.repo.unfinished_challenges(s.ladder.id)
    waiting = [c for c in unfinished
               if c.status == "open" and c.challenged == me
               and (challenger is None or c.challenger == challenger)]
    if not waiting and challenger is not None and not verb:
        waiting = [c for c in unfinished if c.status == "open" and c.challenged is None
                   and c.challenger == challenger]
    if not waiting:
        if challenger is None and not verb and any(c.challenged is None and c.challenger != me
                                                   for c in unfinished):
            raise RuleViolation(t("challenge.open_named"))
        raise RuleViolation(t("challenge.none_from", name=s.name(challenger))
                            if challenger is not None else t("challenge.none_open"))
    if verb and challenger is None and len(waiting) > 1:
        s.names(c.challenger for c in waiting)
        raise UsageError(t("challenge.which", count=len(waiting), choices=either(
            [f"/{verb} @{s.name(c.challenger)}" for c in waiting])))
    return waiting[0]


def accept(s: Session, cmd: AcceptChallenge) -> Reply:
    """Accept a challenge: both rungs are logged now."""
    _require_challenges(s)
    me = s.me()
    challenger = s.member(cmd.challenger).id if cmd.challenger is not None else None
    challenge = _incoming(s, me.id, challenger)
    if challenge.challenged is None:  # an open challenge: the first to answer takes it
        challenge = _take(s, challenge, me.id)
    s.append(ChallengeAccepted(s.now, challenge.id, challenge.challenger, me.id))
    accepted = dataclasses.replace(challenge, status="accepted", answered_at=s.now,
                                   reminded=False)  # a reminder to play comes too
    s.repo.save_challenge(accepted)
    _expect_jobs(s, accepted)
    report = "/report win|loss|draw @user" + (
        " minor|major|overwhelming" if s.settings.is_position else "")
    return Reply(t("challenge.accepted", name=me.name, challenger=s.name(challenge.challenger),
                   id=challenge.id, theirs=standing(s, challenge.challenger, True),
                   mine=standing(s, me.id, True), due=s.when(deadline(s, accepted)),
                   report=report))


def _take(s: Session, challenge: ChallengeRecord, me: PlayerId) -> ChallengeRecord:
    """`me` takes an open challenge, unless it is their own or the two already have an
    unfinished challenge between them."""
    if challenge.challenger == me:
        raise RuleViolation(t("challenge.own_open"))
    for other in s.repo.unfinished_challenges(s.ladder.id):
        if {other.challenger, other.challenged} == {me, challenge.challenger}:
            raise Duplicate(t("challenge.already", name=s.name(challenge.challenger),
                              id=other.id, status=t(_STATUS[other.status])))
    return dataclasses.replace(challenge, challenged=me)


def _expect_jobs(s: Session, challenge: ChallengeRecord) -> None:
    """Wake the ladder for the challenge's reminder and deadline."""
    times = challenge_times(s.settings, challenge)
    if times:
        expect(s.repo, s.ladder, min(due for due, _ in times))


def decline(s: Session, cmd: DeclineChallenge) -> Reply:
    """Decline a challenge, if the rules allow it."""
    _require_challenges(s)
    me = s.me()
    challenger = s.member(cmd.challenger).id if cmd.challenger is not None else None
    challenge = _incoming(s, me.id, challenger, "decline")
    engaged = [c for c in s.repo.unfinished_challenges(s.ladder.id)
               if c.id != challenge.id and c.involves(me.id)]
    if engaged:
        why = t("challenge.engaged", id=engaged[0].id)
    elif not me.available:
        why = t("challenge.unavailable")
    else:
        raise RuleViolation(t("challenge.no_decline", due=s.when(deadline(s, challenge))))
    s.repo.save_challenge(dataclasses.replace(
        challenge, status="declined", answered_at=s.now, reason=cmd.reason,
    ))
    declined = N_("challenge.declined_because") if cmd.reason else N_("challenge.declined")
    return Reply(t(declined, name=me.name, challenger=s.name(challenge.challenger),
                   id=challenge.id, reason=cmd.reason, why=why))


def withdraw(s: Session, cmd: WithdrawChallenge) -> Reply:
    """The challenger takes back an unanswered challenge (`/challenge cancel`)."""
    _require_challenges(s)
    me = s.me()
    them = s.member(cmd.opponent).id if cmd.opponent is not None else None
    mine = [c for c in s.repo.unfinished_challenges(s.ladder.id) if c.challenger == me.id
            and (them is None or c.challenged == them)]
    waiting = [c for c in mine if c.status == "open"]
    if not waiting:
        if mine:
            raise RuleViolation(t("challenge.accepted_already", id=mine[0].id))
        raise RuleViolation(t("challenge.none_to_cancel"))
    if len(waiting) > 1:
        s.names(c.challenged for c in waiting if c.challenged is not None)
        raise UsageError(t("challenge.which_cancel", choices=either(
            [f"/challenge cancel @{s.name(c.challenged)}" if c.challenged is not None
             else "/challenge cancel" for c in waiting])))
    challenge = waiting[0]
    s.repo.save_challenge(dataclasses.replace(challenge, status="cancelled", answered_at=s.now,
                                              reason=encode(t("challenge.by_challenger"))))
    if challenge.challenged is None:
        return Reply(t("challenge.withdrawn_open", name=me.name, id=challenge.id))
    return Reply(t("challenge.withdrawn", name=me.name, id=challenge.id,
                   challenged=s.name(challenge.challenged)))


def cancel(s: Session, cmd: CancelChallenge) -> Reply:
    """A moderator cancels any unfinished challenge (RULES.md, "Accepted challenges")."""
    found = [c for c in s.repo.unfinished_challenges(s.ladder.id) if c.id == cmd.challenge_id]
    if not found:
        raise RuleViolation(t("challenge.unknown", ladder=s.ladder.name, id=cmd.challenge_id))
    challenge = found[0]
    if challenge.match is not None:
        raise RuleViolation(t("challenge.played", id=challenge.id, match=challenge.match))
    s.repo.save_challenge(dataclasses.replace(challenge, status="cancelled", answered_at=s.now,
                                              reason=cmd.reason))
    challenger = s.name(challenge.challenger)
    if challenge.challenged is None:  # an open challenge nobody took
        s.audit("cancel", cmd.reason, player=challenge.challenger, detail=encode(
            t("audit.challenge_open", id=challenge.id, challenger=challenger)))
        return Reply(t("challenge.cancelled_open", mod=s.ctx.user.name, id=challenge.id,
                       challenger=challenger, reason=cmd.reason))
    s.audit("cancel", cmd.reason, player=challenge.challenger,
            detail=encode(t("audit.challenge", id=challenge.id, challenger=challenger,
                            challenged=s.name(challenge.challenged))))
    return Reply(t("challenge.cancelled", mod=s.ctx.user.name, id=challenge.id,
                   challenger=challenger, challenged=s.name(challenge.challenged),
                   reason=cmd.reason))


def availability(s: Session, cmd: SetAvailability) -> Reply:
    """Mark the asker available or unavailable."""
    _require_challenges(s)
    me = s.me()
    s.repo.update_player(s.ladder.id, me.id, available=cmd.available)
    if cmd.available:
        return Reply(t("challenge.available", name=me.name))
    return Reply(t("challenge.not_available", name=me.name))
