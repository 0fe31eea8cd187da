"""What the standings hold of each player and series, and what folding an event says it
changed: the values the fold (`core.domain.state`) and every rulebook
(`core.domain.rulebooks`) share."""

from __future__ import annotations

from dataclasses import dataclass

from core.domain.model import PlayerId, Timestamp
from core.domain.tables import HallEntry, TableRow
from core.i18n import encode, t

# A match's note (`MatchEffect.note`) is a stored message (`core.i18n.encode`): the
# database keeps its code and parameters, and a reply or a page says it in its reader's
# language. Why a match moves nothing when its result says unrated: the reporter's word
# or a moderator's (/mod set ... unrated), which the fold cannot tell apart.
UNRATED_NOTE = encode(t("note.marked_unrated"))


@dataclass(slots=True)
class PlayerState:
    """Everything the rules need to know about one player."""

    rating: float
    games: int = 0
    rated_games: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0
    rated_wins: int = 0
    last_played: Timestamp | None = None
    season_gain: float = 0.0
    season_games: int = 0
    member: bool = True
    # What a rulebook keeps beside the rating (Glicko-2: RD, volatility, last rated game;
    # OpenSkill: mu, sigma); empty for the Elo and position rulebooks.
    extra: tuple[float, ...] = ()

    def copy(self) -> PlayerState:
        """An independent copy."""
        return PlayerState(
            self.rating, self.games, self.rated_games, self.wins, self.losses, self.draws,
            self.rated_wins, self.last_played, self.season_gain, self.season_games, self.member,
            self.extra,
        )


@dataclass(slots=True)
class SeriesState:
    """An open dutch series between a pair (`low` is the smaller player id)."""

    first_at: Timestamp
    base_low: float
    base_high: float
    games: int = 0
    score_low: float = 0.0
    applied_low: float = 0.0
    applied_high: float = 0.0

    def copy(self) -> SeriesState:
        """An independent copy."""
        return SeriesState(
            self.first_at, self.base_low, self.base_high, self.games, self.score_low,
            self.applied_low, self.applied_high,
        )


@dataclass(frozen=True, slots=True)
class Change:
    """A player's rating (or rung, on a position ladder) before and after an event, and
    where the rulebook keeps one, the rating's deviation after it (Glicko-2's RD)."""

    player: PlayerId
    before: float
    after: float
    rd: float | None = None

    @property
    def delta(self) -> float:
        """After minus before."""
        return self.after - self.before


@dataclass(frozen=True, slots=True)
class MatchEffect:
    """What a confirmed match did: rated or not (and why not), and each change."""

    match_id: int
    rated: bool
    note: str
    changes: tuple[Change, ...]
    cases: tuple[tuple[PlayerId, int], ...] = ()
    voided: bool = False


@dataclass(frozen=True, slots=True)
class SeasonEffect:
    """A season close: the frozen table, the new Hall of Fame places, the next season."""

    season: str
    table: tuple[TableRow, ...]
    hall: tuple[HallEntry, ...]
    following: str = ""


@dataclass(frozen=True, slots=True)
class Applied:
    """What one event changed: the players whose stored rows must be rewritten,
    their rating/rung changes, and the match or season effect if any."""

    kind: str
    players: tuple[PlayerId, ...] = ()
    changes: tuple[Change, ...] = ()
    match: MatchEffect | None = None
    season: SeasonEffect | None = None
    # a decay day: how many members it moved, and the largest moves (stored as one
    # statement, not as changes: this is what its summary says)
    decayed: int = 0
    most: tuple[Change, ...] = ()


NOTHING = Applied("none")
DECAY_SHOWN = 5  # the largest moves a decay day's summary names


@dataclass(slots=True)
class Undo:
    """What one folded event changed, to roll the standings back to before it; or a run
    of plain matches folded at once (`last` its last event), rolled back as one."""

    seq: int  # the event's number (a run's first)
    at: Timestamp  # the standings' time before it
    season: str | None
    players: list[tuple[PlayerId, PlayerState | None]]  # prior states (None: created by it)
    farm: tuple[tuple[PlayerId, PlayerId], tuple[Timestamp, ...] | None] | None = None
    pruned: dict[tuple[PlayerId, PlayerId], list[Timestamp]] | None = None  # by this event
    last: int = 0  # a run's last event (0: one event)

    @property
    def through(self) -> int:
        """The last event it rolls back."""
        return self.last or self.seq


