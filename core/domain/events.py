"""Events of a ladder's log, in the past tense. Replaying them gives the standings.

Each event carries `at`, the instant it took effect (seconds since the epoch, UTC).
Moderator events carry who made them and why, for the audit trail.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from core.domain.model import Correction, Match, PlayerId, Result, Timestamp
from core.domain.settings import Settings


@dataclass(frozen=True, slots=True)
class PlayerJoined:
    """A player joined (or rejoined) the ladder."""

    at: Timestamp
    player: PlayerId


@dataclass(frozen=True, slots=True)
class PlayerLeft:
    """A player left the ladder; their record is kept for a return."""

    at: Timestamp
    player: PlayerId


@dataclass(frozen=True, slots=True)
class SettingsChanged:
    """A moderator changed ladder settings from this point of the history on."""

    at: Timestamp
    changes: tuple[tuple[str, Any], ...]
    by: str = ""


@dataclass(frozen=True, slots=True)
class ChallengeAccepted:
    """A challenge was accepted: both rungs are logged now (RULES.md section 4)."""

    at: Timestamp
    challenge: int
    challenger: PlayerId
    challenged: PlayerId


@dataclass(frozen=True, slots=True)
class MatchConfirmed:
    """A reported game entered the ladder (confirmed, automatically or at once)."""

    at: Timestamp
    match: Match


@dataclass(frozen=True, slots=True)
class MatchVoided:
    """A moderator voided a match: the history continues as if it never happened."""

    at: Timestamp
    match_id: int
    by: str
    reason: str


@dataclass(frozen=True, slots=True)
class MatchesVoided:
    """A moderator undid an import: its matches, numbers `first` to `last`, voided at once
    (one re-derivation, from the first of them)."""

    at: Timestamp
    first: int
    last: int
    by: str
    reason: str


@dataclass(frozen=True, slots=True)
class ResultChanged:
    """A moderator replaced a match's result."""

    at: Timestamp
    match_id: int
    result: Result
    by: str
    reason: str


@dataclass(frozen=True, slots=True)
class RatingAdjusted:
    """A moderator moved a rating by `amount` points (rungs up on a position ladder)."""

    at: Timestamp
    player: PlayerId
    amount: float
    by: str
    reason: str


@dataclass(frozen=True, slots=True)
class DecayDay:
    """One day's decay, applied at 00:00 of `day` (ISO date) in the ladder's time zone."""

    at: Timestamp
    day: str


@dataclass(frozen=True, slots=True)
class SeasonClosed:
    """The open season (`season`, YYYY-MM) closed: table frozen, Hall of Fame updated."""

    at: Timestamp
    season: str
    by: str = ""
    reason: str = ""


@dataclass(frozen=True, slots=True)
class RulesSwitched:
    """A moderator switched the ladder to other base settings (another rulebook): its
    whole history is read under `settings` from here on, as if it had been made with
    them; `was` are the base settings before, for going back."""

    at: Timestamp
    settings: Settings
    was: Settings
    by: str = ""


Event = (
    PlayerJoined
    | PlayerLeft
    | SettingsChanged
    | ChallengeAccepted
    | MatchConfirmed
    | MatchVoided
    | MatchesVoided
    | ResultChanged
    | RatingAdjusted
    | DecayDay
    | SeasonClosed
    | RulesSwitched
)

CORRECTIONS = (MatchVoided, MatchesVoided, ResultChanged)


def corrections_of(event: Event) -> dict[int, Correction]:
    """The matches a correction event targets, each with its new final word (none for
    any other event)."""
    if isinstance(event, MatchVoided):
        return {event.match_id: Correction(voided=True)}
    if isinstance(event, MatchesVoided):
        voided = Correction(voided=True)
        return dict.fromkeys(range(event.first, event.last + 1), voided)
    if isinstance(event, ResultChanged):
        return {event.match_id: Correction(voided=False, result=event.result)}
    return {}


def collect_corrections(events: Iterable[Event]) -> dict[int, Correction]:
    """The last correction of each match in a log (a later one overrides an earlier one)."""
    corrections: dict[int, Correction] = {}
    for event in events:
        corrections.update(corrections_of(event))
    return corrections
