"""Challenges on a position ladder (RULES.md section 4): issue, accept, decline, availability."""

from __future__ import annotations

import dataclasses

from core.calendar import HOUR
from core.commands import AcceptChallenge, DeclineChallenge, IssueChallenge, SetAvailability
from core.errors import Duplicate, RuleViolation
from core.events import ChallengeAccepted
from core.model import PlayerId
from core.planning import expect
from core.records import ChallengeRecord, Reply
from core.session import Session

DECLINE_RULE = ("A challenge may be declined only by a player already engaged in an unfinished "
                "challenge or marked unavailable (/unavailable).")


def _require_challenges(s: Session) -> None:
    if not s.settings.challenges:
        raise RuleViolation(f"{s.ladder.name} has no challenges: just play and /report.")


def rung(s: Session, player: PlayerId) -> int | None:
    """A member's current rung."""
    return s.repo.rank(s.ladder.id, "rung", player, s.now)


def deadline(s: Session, challenge: ChallengeRecord) -> int:
    """When an unanswered challenge becomes a forfeit."""
    return challenge.issued_at + round(s.settings.challenge_hours * HOUR)


def issue(s: Session, cmd: IssueChallenge) -> Reply:
    """Challenge another member."""
    _require_challenges(s)
    me = s.me()
    them = s.member(cmd.opponent)
    if them.id == me.id:
        raise RuleViolation("You cannot challenge yourself.")
    for challenge in s.repo.unfinished_challenges(s.ladder.id):
        if {challenge.challenger, challenge.challenged} == {me.id, them.id}:
            raise Duplicate(f"You and {them.name} already have challenge #{challenge.id} "
                            f"({challenge.status}).")
    record = ChallengeRecord(s.ladder.id, s.repo.new_challenge_id(s.ladder.id), me.id, them.id,
                             "open", s.now)
    s.repo.save_challenge(record)
    reminder = round(s.settings.reminder_hours * HOUR)
    hours = round(s.settings.challenge_hours * HOUR)
    expect(s.repo, s.ladder, s.now + (hours - reminder if 0 < reminder < hours else hours))
    rungs = f" (rung {rung(s, me.id)} challenges rung {rung(s, them.id)})"
    return Reply(
        f"{me.name} challenges @{them.name}{rungs}. {them.name}: /accept or /decline by "
        f"{s.when(deadline(s, record))}; unanswered, it counts as your minor defeat."
    )


def _incoming(s: Session, me: PlayerId, challenger: PlayerId | None) -> ChallengeRecord:
    for challenge in s.repo.unfinished_challenges(s.ladder.id):
        if challenge.status == "open" and challenge.challenged == me and \
                (challenger is None or challenge.challenger == challenger):
            return challenge
    who = f" from {s.name(challenger)}" if challenger is not None else ""
    raise RuleViolation(f"You have no open challenge{who} to answer.")


def accept(s: Session, cmd: AcceptChallenge) -> Reply:
    """Accept a challenge: both rungs are logged now."""
    _require_challenges(s)
    me = s.me()
    challenger = s.member(cmd.challenger).id if cmd.challenger is not None else None
    challenge = _incoming(s, me.id, challenger)
    s.append(ChallengeAccepted(s.now, challenge.id, challenge.challenger, challenge.challenged))
    s.repo.save_challenge(dataclasses.replace(challenge, status="accepted", answered_at=s.now))
    them = s.name(challenge.challenger)
    return Reply(
        f"{me.name} accepts {them}'s challenge #{challenge.id}: {them} on rung "
        f"{rung(s, challenge.challenger)}, {me.name} on rung {rung(s, me.id)}. Play, then "
        "/report win|loss|draw @opponent minor|major|overwhelming."
    )


def decline(s: Session, cmd: DeclineChallenge) -> Reply:
    """Decline a challenge, if the rules allow it."""
    _require_challenges(s)
    me = s.me()
    challenger = s.member(cmd.challenger).id if cmd.challenger is not None else None
    challenge = _incoming(s, me.id, challenger)
    engaged = [c for c in s.repo.unfinished_challenges(s.ladder.id)
               if c.id != challenge.id and c.involves(me.id)]
    if engaged:
        why = f"already engaged in challenge #{engaged[0].id}"
    elif not me.available:
        why = "marked unavailable"
    else:
        raise RuleViolation(
            f"{DECLINE_RULE} You are neither, so /accept the challenge; unanswered, it counts as "
            f"your minor defeat at {s.when(deadline(s, challenge))}."
        )
    s.repo.save_challenge(dataclasses.replace(
        challenge, status="declined", answered_at=s.now, reason=cmd.reason,
    ))
    said = f" ({cmd.reason})" if cmd.reason else ""
    return Reply(f"{me.name} declines {s.name(challenge.challenger)}'s challenge "
                 f"#{challenge.id}{said}: {why}.")


def availability(s: Session, cmd: SetAvailability) -> Reply:
    """Mark the asker available or unavailable."""
    _require_challenges(s)
    me = s.me()
    s.repo.update_player(s.ladder.id, me.id, available=cmd.available)
    if cmd.available:
        return Reply(f"{me.name} is available for challenges.")
    return Reply(f"{me.name} is unavailable: challenges may be declined until /available.")
