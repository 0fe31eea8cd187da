"""What is read of a challenge: when it falls due, and whom it was to."""

from __future__ import annotations

from core.domain.calendar import HOUR
from core.domain.records import ChallengeRecord
from core.i18n import Message, t
from core.service.planning import challenge_times
from core.service.session import Session


def deadline(s: Session, challenge: ChallengeRecord) -> int:
    """When an unanswered challenge becomes a forfeit, or an accepted one lapses."""
    times = challenge_times(s.settings, challenge)
    if not times:  # accepted, with a report of it waiting: it lapses no more
        return challenge.issued_at + round(s.settings.challenge_hours * HOUR)
    return times[0][0]


def whom(s: Session, challenge: ChallengeRecord) -> Message:
    """Who was challenged: a name, or `anyone` for an open challenge nobody took (the
    replies about one say so in words of their own; this is the fallback)."""
    if challenge.challenged is None:
        return t("challenge.anyone")
    return s.name(challenge.challenged)


def answers(s: Session) -> tuple[str, str]:
    """How the challenged player accepts and declines, as a prompt to answer says it
    (naming the ladder in a chat of several)."""
    return s.said("/accept", named=True), s.said("/decline", named=True)
