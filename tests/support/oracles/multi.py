"""Games of many sides (free-for-alls, teams) worked out again from RULES.md."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from tests.support.oracles.base import History, Player, expected, rounded, row_counts


@dataclass
class Play:
    """A game of any number of sides, in finishing order (a draw: two sides)."""

    id: int
    at: int
    sides: list[list[str]]
    draw: bool
    rated: bool
    moves: int | None
    voided: bool = False


class Multi(History):
    """warlight (RULES.md section 1) and fame (section 2): games of many sides."""

    def __init__(self, players: list[str], preset: str, placement: bool) -> None:
        super().__init__(players)
        self.preset, self.placement = preset, placement
        self.plays: dict[int, Play] = {}

    def play(self, game: Play) -> None:
        self.plays[game.id] = game
        self.log.append(("game", game))

    def pairs(self, sides: int, draw: bool) -> list[tuple[int, int, float]]:
        """(side, other side, score of the first): who played whom in a game."""
        if sides == 2:
            return [(0, 1, 0.5 if draw else 1.0)]
        if self.placement:  # every place beat every place below
            return [(i, j, 1.0) for i in range(sides) for j in range(i + 1, sides)]
        return [(0, j, 1.0) for j in range(1, sides)]  # the winner beat each other side

    def fame_k(self, sides: int, rating: float, wins: int, moves: int | None) -> float:
        k1 = 2 if sides == 2 else 1.5 if sides == 3 else 1
        k2 = 2 if wins <= 20 else 1.5 if rating < 2400 else 1
        k3 = 1 if moves is None else 2 if moves < 50 else 1.5 if moves < 250 else 1
        return 10 * k1 * k2 * k3

    def gap(self, ratings: dict[str, float], sides: list[list[str]]) -> float:
        means = [sum(ratings[p] for p in side) / len(side) for side in sides]
        return max(means) - min(means)

    def derive(self, now: int) -> dict[str, Any]:
        start = 1200.0 if self.preset == "warlight" else 1000.0
        players = {n: Player(0) for n in self.names}
        rating = dict.fromkeys(self.names, start)
        wins = dict.fromkeys(self.names, 0)  # rated wins, for fame's k2
        for kind, entry in self.log:
            if kind == "adjust":
                rating[entry[1]] += entry[2]
                continue
            if kind == "member":  # ratings wait for who left to come back
                continue
            game = entry
            if game.voided:
                continue
            everyone = [p for side in game.sides for p in side]
            for p in everyone:
                me = players[p]
                me.games += 1
                if game.draw:
                    me.draws += 1
                elif p in game.sides[0]:
                    me.wins += 1
                else:
                    me.losses += 1
            if not game.rated or (self.preset == "fame"
                                  and self.gap(rating, game.sides) > 1000):
                continue
            means = [sum(rating[p] for p in side) / len(side) for side in game.sides]
            change = dict.fromkeys(everyone, 0.0)
            for i, j, score in self.pairs(len(game.sides), game.draw):
                for mine, theirs, s in ((i, j, score), (j, i, 1 - score)):
                    e = expected(means[mine] - means[theirs])
                    for p in game.sides[mine]:
                        k = 32.0 if self.preset == "warlight" else \
                            self.fame_k(len(game.sides), rating[p], wins[p], game.moves)
                        change[p] += k * (s - e)
            for p in everyone:
                # warlight keeps real numbers; fame sums, then rounds to a whole number
                rating[p] += change[p] if self.preset == "warlight" else rounded(change[p])
                players[p].rated_games += 1
                if not game.draw and p in game.sides[0]:
                    wins[p] += 1
        return {"players": players, "rating": rating}

    def compare(self, export: dict[str, Any], now: int, after: str) -> None:
        want, got = self.derive(now), self.listed(export, after)
        for name in self.members:
            p = want["players"][name]
            assert row_counts(got[name]) == pytest.approx(
                (want["rating"][name], p.games, p.rated_games, p.wins, p.losses, p.draws),
                abs=1e-6), f"{name} after {after}"
