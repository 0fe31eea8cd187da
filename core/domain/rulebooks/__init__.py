"""The rating systems, one module per family behind one protocol, chosen once from the
settings: the fold (`core.domain.state`) asks its ladder's rulebook to rate each match.

A new rating system is a module here and a preset, not a flag tested across the core.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from core.domain.model import Match, PlayerId, Result
from core.domain.settings import Settings
from core.domain.standing import Applied, PlayerState
from core.i18n import Message

if TYPE_CHECKING:
    from core.domain.batch import RateRun
    from core.domain.state import LadderState


class Rulebook(Protocol):
    """How one family of rules rates a confirmed match."""

    name: str
    table: str  # the table that lists every member: "rung", or "rating"

    def rate(self, state: LadderState, match: Match, note: str) -> Applied:
        """Fold a counted match into `state`: rated, or unrated for `note` ('' if not)."""
        ...

    def lean(self, settings: Settings) -> bool:
        """Whether plain one-on-one matches may be folded by `LadderState.apply_duel`
        (the fast replay of long logs) under these settings."""
        ...

    def rate_run(self, state: LadderState) -> RateRun | None:
        """What rates a run of plain one-on-one games at once, the rest of their fold
        being `core.domain.batch.fold_plain`'s (the fast replay of long logs); None: they
        are folded one by one (the Elo books' runs are `core.domain.batch.fold_duels`')."""
        ...

    def new_player(self, settings: Settings, member: bool = True) -> PlayerState:
        """A player who has not played yet."""
        ...

    def adjust(self, state: LadderState, player: PlayerId, amount: float) -> Applied:
        """A moderator's adjustment of a known player by `amount` points (rungs)."""
        ...

    def seat(self, state: LadderState, player: PlayerId) -> Applied:
        """A player (back) among the members: where the standings place them."""
        ...

    def unseat(self, state: LadderState, player: PlayerId) -> Applied:
        """A member who left: what it moves of the standings."""
        ...

    def refusal(self, settings: Settings, result: Result) -> Message | None:
        """Why a report of this kind of game is refused (None when it may be reported)."""
        ...

    def needs_margin(self, settings: Settings, result: Result) -> bool:
        """Whether this result, as reported or set, still lacks the margin it needs."""
        ...

    def provisional(self, settings: Settings, player: PlayerState) -> bool:
        """Whether the player is still provisional (calibrating): in no table yet."""
        ...

    def shown(self, settings: Settings, player: PlayerState) -> str:
        """The player's rating as a reply shows it (`1464`, or `1464 ±303`)."""
        ...

    def exported(self, player: PlayerState) -> dict[str, float]:
        """What the export carries of the player beside `rating` (CONSOLE.md)."""
        ...

    def deviation(self, settings: Settings, player: PlayerState) -> float | None:
        """The rating's deviation, where the rulebook keeps one (Glicko-2's RD, which a
        chart draws as a band of two either side), else None."""
        ...

    def waits(self, settings: Settings) -> bool:
        """Whether rated games wait for a rating period's close to be rated."""
        ...

    def journals(self, settings: Settings) -> bool:
        """Whether the journal can roll its folds back event by event (`LadderState.undo`);
        where not, every event is a barrier and a correction replays."""
        ...

    def day_over(self, state: LadderState, day: str) -> Applied:
        """A local day ended (`day` begins): close what the rulebook closes then."""
        ...

    def summary(self, settings: Settings) -> Message:
        """The rating system and the ladder's own limits in words, for /ladder info,
        /help presets and the web (`core.domain.summary` holds the shared words)."""
        ...


# (Below the protocol: each family's module reads it from here.)
from core.domain.rulebooks import (  # noqa: E402
    banded,
    classic,
    fame,
    glicko2,
    openskill,
    position,
    zero_sum,
)

BY_FORMULA: dict[str, Rulebook] = {
    "classic": classic.RULEBOOK, "zero_sum": zero_sum.RULEBOOK, "fame": fame.RULEBOOK,
    "banded": banded.RULEBOOK, "glicko2": glicko2.RULEBOOK, "openskill": openskill.RULEBOOK}


def choose(settings: Settings) -> Rulebook:
    """The rulebook of a ladder's settings."""
    return position.RULEBOOK if settings.is_position else BY_FORMULA[settings.formula]


def rulebook_summary(settings: Settings) -> Message:
    """`zero-sum Elo from 1000 with K 32, minimum gain 1, floor 800, ...`."""
    return choose(settings).summary(settings)
