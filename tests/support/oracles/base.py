"""The oracles' common ground: a game, a player, a history re-derived from scratch, and the
counts and tables every rulebook keeps (RULES.md)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

DAY = 86_400


START, FLOOR, K, MIN_GAIN = 1000, 800, 32, 1  # duel


CALIBRATION = 5


LEAGUES = [(1300, "Grandmaster"), (1200, "Duel Master"), (1100, "Yard Terror"),
           (1000, "Fighter"), (float("-inf"), "Challenge Accepted")]


def rounded(x: float) -> int:
    """RULES' round, half away from zero."""
    whole = int(abs(x) + 0.5)
    return whole if x >= 0 else -whole


def floored(rating: int, before: int, floor: int) -> int:
    """No rating falls below the floor; one below it already (the floor was raised)
    falls no further, nor rises by losing."""
    return max(rating, min(before, floor))


def expected(gap: float) -> float:
    """The expectation of the player `gap` points above the other."""
    return 1 / (1 + 10 ** (-gap / 400))


def month(at: int) -> str:
    return datetime.fromtimestamp(at, UTC).strftime("%Y-%m")


@dataclass
class Game:
    id: int
    at: int
    winner: str  # the first side: the winner, or either player of a draw
    loser: str
    draw: bool
    rated: bool
    moves: int | None
    voided: bool = False
    margin: str | None = None  # nhwc: minor, major or overwhelming
    challenge: int | None = None  # nhwc: the challenge it was played for
    score: tuple[int, int] | None = None  # a match of several games: the winner's first


@dataclass
class Player:
    rating: int
    games: int = 0
    rated_games: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0
    last_played: int | None = None
    changes: list[tuple[int, int, str | None]] = field(default_factory=list)  # rated


class History:
    """The history as the chat wrote it, worked out from scratch on demand."""

    def __init__(self, players: list[str], games_mode: bool = False) -> None:
        self.names = players
        self.games_mode = games_mode  # bestof_rating=games: a match's games in the series
        # ("game", Game) | ("adjust", (at, name, n)) | ("member", (at, name, joined))
        # | ("set", (at, key, value)) | ("accept", (at, challenge, a, b))
        self.log: list[tuple[str, Any]] = []
        self.games: dict[int, Game] = {}
        self.members = set(players)  # who is on the ladder now
        self.banned: set[str] = set()  # off the ladder until a moderator lifts the ban

    def member(self, at: int, name: str, joined: bool) -> None:
        """`/join` (again) or `/leave`: the record stays; who leaves is in no table."""
        (self.members.add if joined else self.members.discard)(name)
        self.log.append(("member", (at, name, joined)))

    def listed(self, export: dict[str, Any], after: str) -> dict[str, dict[str, Any]]:
        """The export's players by name, who must be exactly the members now."""
        got = {p["name"]: p for p in export["players"]}
        assert set(got) == self.members, f"members after {after}"
        return got

    def report(self, game: Game) -> None:
        self.games[game.id] = game
        self.log.append(("game", game))

    def adjust(self, at: int, name: str, amount: int) -> None:
        self.log.append(("adjust", (at, name, amount)))

    def floor(self) -> int | None:
        """The ladder's floor as the log stands, or None."""
        return None

    def derive(self, now: int) -> dict[str, Any]:
        """The standings the rules give at `now` (each rulebook's oracle works them out)."""
        raise NotImplementedError

    def compare(self, export: dict[str, Any], now: int, after: str) -> None:
        """Assert the bot's export equals what the rules give at `now`."""
        raise NotImplementedError

    def change(self, at: int, key: str, value: int) -> None:
        """A moderator's `/ladder set key=value`: it holds from here on in the log."""
        self.log.append(("set", (at, key, value)))

    def close(self, at: int) -> None:
        """A moderator's `/mod season close`: the season ends now."""
        self.log.append(("close", (at,)))


def count_game(winner: Player, loser: Player, game: Game) -> None:
    """A confirmed game, rated or not, in its players' counts."""
    for p in (winner, loser):
        p.games += 1
        p.last_played = max(p.last_played or game.at, game.at)
    if game.draw:
        winner.draws += 1
        loser.draws += 1
    else:
        winner.wins += 1
        loser.losses += 1


def row_counts(row: dict[str, Any]) -> tuple[Any, ...]:
    return (row["rating"], row["games"], row["rated_games"], row["wins"], row["losses"],
            row["draws"])


def counts_of(p: Player) -> tuple[Any, ...]:
    return (p.rating, p.games, p.rated_games, p.wins, p.losses, p.draws)


def league(p: Player) -> str:
    if p.rated_games < CALIBRATION:
        return "Calibration"
    return next(name for low, name in LEAGUES if p.rating >= low)


def by_gain(rows: list[tuple[Any, ...]]) -> list[tuple[Any, frozenset[Any]]]:
    """A table's rows grouped by their number, in order; ties in any order."""
    groups: dict[Any, set[Any]] = {}
    for row in rows:
        groups.setdefault(row[1], set()).add((row[0], *row[2:]))
    return [(gain, frozenset(names)) for gain, names in groups.items()]
