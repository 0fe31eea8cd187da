"""How well a rulebook predicted the games that were played (`/ladder whatif`): before
each one-on-one game, the side its standings put higher, and its expected score.

The share is of games won by the side rated higher (a draw, or two equal sides, counts
half); the log-loss is the mean of -(s ln p + (1 - s) ln(1 - p)) over the games, `p` the
expected score of the first side and `s` its score (a draw 1/2). A position ladder ranks
by rung and gives no probability: a share, no log-loss.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from core.domain.elo import expected as elo_expected
from core.domain.model import Result
from core.domain.rulebooks.glicko2 import Glicko2
from core.domain.rulebooks.openskill import OpenSkill, model, skill
from core.domain.rulebooks.position import Position
from core.domain.standing import PlayerState
from core.domain.state import LadderState

EDGE = 1e-15  # a probability kept this far from 0 and 1 (a sure miss costs ln 10^15)
GLICKO_SCALE = 400 / math.log(10)  # 173.7178: Glicko's rating points per unit of mu


def expected(state: LadderState, a: PlayerState, b: PlayerState) -> float | None:
    """The expected score of `a` against `b` under the ladder's rulebook, or None where it
    gives none (a position ladder)."""
    book, settings = state.rulebook, state.settings
    if isinstance(book, Position):
        return None
    if isinstance(book, Glicko2):  # Glickman's E with both deviations: g(sqrt(φa² + φb²))
        phi = math.hypot(_rd(a, settings.rd), _rd(b, settings.rd)) / GLICKO_SCALE
        g = 1 / math.sqrt(1 + 3 * phi * phi / math.pi ** 2)
        return 1 / (1 + math.exp(-g * (a.rating - b.rating) / GLICKO_SCALE))
    if isinstance(book, OpenSkill):
        used = model(settings.mu, settings.sigma, settings.beta, settings.skill_tau)
        first, second = (used.rating(*skill(p, settings)) for p in (a, b))
        return float(used.predict_win([[first], [second]])[0])
    return elo_expected(a.rating, b.rating)


def _rd(player: PlayerState, start: float) -> float:
    return player.extra[0] if player.extra else start


@dataclass(slots=True)
class Forecast:
    """A rulebook's predictions of the games seen so far."""

    games: int = 0
    right: float = 0.0  # games won by the side rated higher (halves for draws and ties)
    loss: float = 0.0  # the sum of the log-losses
    scored: int = 0  # games with an expected score

    def see(self, state: LadderState, result: Result) -> None:
        """A game about to be folded into `state` (its first side won, unless a draw)."""
        if not result.is_duel:
            return
        a, b = (state.players.get(side[0]) for side in result.sides)
        if a is None or b is None:
            return
        score = 0.5 if result.draw else 1.0
        p = expected(state, a, b)
        if p is None:  # a rung: the lower number stands higher
            ahead = _rung(state, result.sides[1][0]) - _rung(state, result.sides[0][0])
            p_ahead = 0.5 if ahead == 0 else (1.0 if ahead > 0 else 0.0)
        else:
            p_ahead = p
            clamped = min(max(p, EDGE), 1 - EDGE)
            self.loss -= score * math.log(clamped) + (1 - score) * math.log(1 - clamped)
            self.scored += 1
        self.games += 1
        self.right += 0.5 if p_ahead == 0.5 else (score if p_ahead > 0.5 else 1 - score)

    @property
    def share(self) -> float | None:
        """The share of games the higher side won, or None before any game."""
        return self.right / self.games if self.games else None

    @property
    def log_loss(self) -> float | None:
        """The mean log-loss, or None without an expected score."""
        return self.loss / self.scored if self.scored else None


def _rung(state: LadderState, player: int) -> int:
    rung = state.rung(player)
    return rung if rung is not None else 1 << 30  # (off the ladder: below everyone)
