"""Challenges on a position ladder (RULES.md section 4): issue, accept, decline, availability."""

from __future__ import annotations

import dataclasses

from core.calendar import HOUR
from core.commands import (
    AcceptChallenge,
    CancelChallenge,
    DeclineChallenge,
    IssueChallenge,
    SetAvailability,
    WithdrawChallenge,
)
from core.errors import Duplicate, RuleViolation, UsageError
from core.events import ChallengeAccepted
from core.i18n import plural
from core.model import PlayerId
from core.planning import challenge_times, expect
from core.records import ChallengeRecord, Reply
from core.session import Session, rating_text

DECLINE_RULE = ("A challenge may be declined only by a player already engaged in an unfinished "
                "challenge or marked unavailable (/unavailable).")


def _require_challenges(s: Session) -> None:
    if not s.settings.challenges:
        raise RuleViolation(f"{s.ladder.name} has no challenges: just play and /report.")


def standing(s: Session, player: PlayerId, placed: bool = False) -> str:
    """A member's rung (`rung 3`; `on rung 3` when `placed`), or rating (`1016`, `at
    1016`) on a rating ladder with challenges."""
    if s.settings.is_position:
        return ("on " if placed else "") + \
            f"rung {s.repo.rank(s.ladder.id, 'rung', player, s.now)}"
    state = s.repo.player_state(s.ladder.id, player)
    rating = rating_text(state.rating if state is not None else s.settings.start)
    return ("at " if placed else "") + rating


def deadline(s: Session, challenge: ChallengeRecord) -> int:
    """When an unanswered challenge becomes a forfeit, or an accepted one lapses."""
    times = challenge_times(s.settings, challenge)
    if not times:  # accepted, with a report of it waiting: it lapses no more
        return challenge.issued_at + round(s.settings.challenge_hours * HOUR)
    return times[0][0]


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
    _expect_jobs(s, record)
    rungs = f" ({standing(s, me.id)} challenges {standing(s, them.id)})"
    return Reply(
        f"{me.name} challenges @{them.name}{rungs}. {them.name}: /accept or /decline by "
        f"{s.when(deadline(s, record))}; unanswered, it counts as your minor defeat."
    )


def _incoming(s: Session, me: PlayerId, challenger: PlayerId | None,
              verb: str = "") -> ChallengeRecord:
    """The open challenge to `me` (from `challenger`). With `verb` (`decline`), several
    waiting and none named is refused with the ones to choose from, as /confirm does."""
    waiting = [c for c in s.repo.unfinished_challenges(s.ladder.id)
               if c.status == "open" and c.challenged == me
               and (challenger is None or c.challenger == challenger)]
    if not waiting:
        who = f" from {s.name(challenger)}" if challenger is not None else ""
        raise RuleViolation(f"You have no open challenge{who} to answer.")
    if verb and challenger is None and len(waiting) > 1:
        s.names(c.challenger for c in waiting)
        raise UsageError(f"{plural(len(waiting), 'challenge')} wait for you: say which, "
                         + " or ".join(f"/{verb} @{s.name(c.challenger)}" for c in waiting)
                         + ".")
    return waiting[0]


def accept(s: Session, cmd: AcceptChallenge) -> Reply:
    """Accept a challenge: both rungs are logged now."""
    _require_challenges(s)
    me = s.me()
    challenger = s.member(cmd.challenger).id if cmd.challenger is not None else None
    challenge = _incoming(s, me.id, challenger)
    s.append(ChallengeAccepted(s.now, challenge.id, challenge.challenger, challenge.challenged))
    accepted = dataclasses.replace(challenge, status="accepted", answered_at=s.now,
                                   reminded=False)  # a reminder to play comes too
    s.repo.save_challenge(accepted)
    _expect_jobs(s, accepted)
    them = s.name(challenge.challenger)
    return Reply(
        f"{me.name} accepts {them}'s challenge #{challenge.id}: {them} "
        f"{standing(s, challenge.challenger, True)}, {me.name} {standing(s, me.id, True)}. "
        "Play by "
        f"{s.when(deadline(s, accepted))}, then /report win|loss|draw @opponent"
        + (" minor|major|overwhelming" if s.settings.is_position else "")
        + "; unplayed by then, the challenge lapses."
    )


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
            raise RuleViolation(f"Challenge #{mine[0].id} is accepted already: play it, or ask "
                                "a moderator to /mod cancel it.")
        raise RuleViolation("You have no unanswered challenge to cancel.")
    if len(waiting) > 1:
        s.names(c.challenged for c in waiting)
        raise UsageError("Say which challenge to cancel: " + " or ".join(
            f"/challenge cancel @{s.name(c.challenged)}" for c in waiting) + ".")
    challenge = waiting[0]
    s.repo.save_challenge(dataclasses.replace(challenge, status="cancelled", answered_at=s.now,
                                              reason="cancelled by the challenger"))
    return Reply(f"{me.name} cancelled challenge #{challenge.id} to "
                 f"{s.name(challenge.challenged)}: nobody moves.")


def cancel(s: Session, cmd: CancelChallenge) -> Reply:
    """A moderator cancels any unfinished challenge (RULES.md, "Accepted challenges")."""
    found = [c for c in s.repo.unfinished_challenges(s.ladder.id) if c.id == cmd.challenge_id]
    if not found:
        raise RuleViolation(f"{s.ladder.name} has no unfinished challenge #{cmd.challenge_id} "
                            "(/profile @player lists a player's challenges).")
    challenge = found[0]
    if challenge.match is not None:
        raise RuleViolation(f"Challenge #{challenge.id} was played: report #{challenge.match} "
                            f"waits for an answer. Void it first (/mod void {challenge.match} "
                            "reason), or let it be confirmed.")
    s.repo.save_challenge(dataclasses.replace(challenge, status="cancelled", answered_at=s.now,
                                              reason=cmd.reason))
    s.audit("cancel", cmd.reason, player=challenge.challenger,
            detail=f"#{challenge.id} between {s.name(challenge.challenger)} and "
                   f"{s.name(challenge.challenged)}")
    return Reply(f"{s.ctx.user.name} cancelled challenge #{challenge.id} between "
                 f"{s.name(challenge.challenger)} and {s.name(challenge.challenged)}: "
                 f"{cmd.reason}. No result, nobody moves; both are free.")


def availability(s: Session, cmd: SetAvailability) -> Reply:
    """Mark the asker available or unavailable."""
    _require_challenges(s)
    me = s.me()
    s.repo.update_player(s.ladder.id, me.id, available=cmd.available)
    if cmd.available:
        return Reply(f"{me.name} is available for challenges.")
    return Reply(f"{me.name} is unavailable: challenges may be declined until /available.")
