"""`openskill` (RULES.md §7): Weng-Lin ratings through the `openskill` library's
Plackett-Luce model, for duels, free-for-alls in finishing order, team games and draws.

Each player keeps the model's mu and sigma (`extra`); the rating tables sort by is the
library's ordinal mu - 3 sigma, scaled: `display_scale * (mu - 3 sigma) + display_base`.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any

from openskill.models import PlackettLuce

from core.domain.elo import round_half_away
from core.domain.model import Match, PlayerId, Result, Timestamp
from core.domain.rulebooks import rated
from core.domain.settings import Settings, fmt_number
from core.domain.standing import Applied, MatchEffect, PlayerState
from core.domain.summary import described
from core.i18n import Message, Number, t

if TYPE_CHECKING:
    from core.domain.batch import RateRun
    from core.domain.state import LadderState


@lru_cache(maxsize=16)
def model(mu: float, sigma: float, beta: float, tau: float) -> PlackettLuce:
    """The library's model with a ladder's parameters (built once per set of them)."""
    return PlackettLuce(mu=mu, sigma=sigma, beta=beta, tau=tau)


def displayed(settings: Settings, mu: float, sigma: float) -> float:
    """The rating shown and ranked by: the scaled ordinal."""
    return settings.display_scale * (mu - 3.0 * sigma) + settings.display_base


def skill(player: PlayerState, settings: Settings) -> tuple[float, float]:
    """A player's (mu, sigma); a new player's from the settings."""
    if player.extra:
        return player.extra[0], player.extra[1]
    return settings.mu, settings.sigma


# The library's rating objects by model and (mu, sigma): the one a game returned is the
# next game's input (building one costs a uuid, a third of our share of a replay). `rate`
# copies its input, so one object serves every ladder with the same model and values; the
# dict is emptied when it grows (bounded memory, the same results).
_KEPT: dict[tuple[int, float, float], Any] = {}
KEEP_AT_MOST = 100_000


def _rating(used: PlackettLuce, values: tuple[float, float], taken: set[int]) -> Any:
    """A rating object of these values, none `taken` by the same game already (two new
    players have the same values, and one object twice in a game is rated as one)."""
    key = (id(used), *values)
    found = _KEPT.get(key)
    if found is None or id(found) in taken:
        if len(_KEPT) >= KEEP_AT_MOST:
            _KEPT.clear()
        found = _KEPT[key] = used.rating(*values)
    taken.add(id(found))
    return found


def ranks(result: Result) -> list[float]:
    """Finishing places of the sides: 1, 2, 3... in order; equal for a draw."""
    places = len(result.sides)
    return [1.0] * places if result.draw else [float(n) for n in range(1, places + 1)]


class OpenSkill(rated.Rated):
    """Plackett-Luce over the sides of a game, in finishing order."""

    name = "openskill"

    @staticmethod
    def rate(state: LadderState, match: Match, note: str) -> Applied:
        """Every side rated together by the library's `rate(teams, ranks=...)`."""
        if note:
            return state.unrated_effect(match, note)
        settings, result = state.settings, match.result
        players = state.players
        used = model(settings.mu, settings.sigma, settings.beta, settings.skill_tau)
        taken: set[int] = set()
        teams = [[_rating(used, skill(players[p], settings), taken) for p in side]
                 for side in result.sides]
        rated = used.rate(teams, ranks=ranks(result))
        before = {p: players[p].rating for p in result.players}
        for side, new in zip(result.sides, rated, strict=True):
            for p, value in zip(side, new, strict=True):
                players[p].extra = (value.mu, value.sigma)
                players[p].rating = displayed(settings, value.mu, value.sigma)
                _KEPT[(id(used), value.mu, value.sigma)] = value
        changes = state.record_rated(match, before)
        return Applied("match", players=result.players, changes=changes,
                       match=MatchEffect(match.id, True, "", changes))

    lean = staticmethod(rated.never_lean)  # (`apply_duel` knows only Elo)

    @staticmethod
    def rate_run(state: LadderState) -> RateRun | None:
        """A run of plain duels: the library's `rate` game by game, everything else (the
        counts, anti-farming) at once by `core.domain.batch.fold_plain`."""
        return _rate_run

    @staticmethod
    def new_player(settings: Settings, member: bool = True) -> PlayerState:
        """At the model's starting mu and sigma."""
        return PlayerState(rating=displayed(settings, settings.mu, settings.sigma),
                           member=member, extra=(settings.mu, settings.sigma))

    @staticmethod
    def moved(settings: Settings, player: PlayerState, amount: float) -> None:
        """The shown rating moved by `amount`: mu by amount / display_scale."""
        mu, sigma = skill(player, settings)
        mu += amount / settings.display_scale
        player.extra = (mu, sigma)
        player.rating = displayed(settings, mu, sigma)

    @staticmethod
    def refusal(settings: Settings, result: Result) -> Message | None:
        """Any game the ladder's limits allow."""
        return None

    @staticmethod
    def provisional(settings: Settings, player: PlayerState) -> bool:
        """While the first `calibration` rated games are being played (none by default:
        the ordinal is already cautious)."""
        return player.rated_games < settings.calibration

    @staticmethod
    def shown(settings: Settings, player: PlayerState) -> str:
        """The scaled ordinal, rounded."""
        return str(round_half_away(player.rating))

    @staticmethod
    def exported(player: PlayerState) -> dict[str, float]:
        """mu and sigma, unrounded (CONSOLE.md)."""
        return {"mu": player.extra[0], "sigma": player.extra[1]} if player.extra else {}

    @staticmethod
    def journals(settings: Settings) -> bool:
        """Always: a game moves its players only."""
        return True

    @staticmethod
    def waits(settings: Settings) -> bool:
        """Never: each game is rated when it counts."""
        return False

    @staticmethod
    def day_over(state: LadderState, day: str) -> Applied:
        """Nothing closes: each game is rated at once."""
        return Applied("decay")

    @staticmethod
    def summary(settings: Settings) -> Message:
        """`OpenSkill (Plackett-Luce, mu 25, sigma 8.33), shown as 40·(mu − 3σ) + 1000`."""
        return described(t("summary.openskill", mu=fmt_number(settings.mu),
                           sigma=Number(round(settings.sigma, 2)),
                           scale=fmt_number(settings.display_scale),
                           base=fmt_number(settings.display_base)), settings, [])


def _rate_run(state: LadderState, a: list[PlayerId], b: list[PlayerId], draw: list[bool],
              played: list[Timestamp], ids: list[int], kept: list[bool],
              tell: bool) -> list[tuple[str, float, float, float, float, None, None]] | None:
    """Rate a run's `kept` duels in order, each player's rating object carried from game
    to game; with `tell`, what each game did."""
    settings, players = state.settings, state.players
    used = model(settings.mu, settings.sigma, settings.beta, settings.skill_tau)
    rate, scale, base = used.rate, settings.display_scale, settings.display_base
    held: dict[PlayerId, Any] = {}
    shown = {p: players[p].rating for p in (*a, *b)}
    gain: dict[PlayerId, float] = {}
    told = []
    for x, y, drawn, counted in zip(a, b, draw, kept, strict=True):
        rx, ry = shown[x], shown[y]
        if counted:
            taken: set[int] = set()
            ox = held.get(x) or _rating(used, skill(players[x], settings), taken)
            taken.add(id(ox))
            oy = held.get(y) or _rating(used, skill(players[y], settings), taken)
            [[nx], [ny]] = rate([[ox], [oy]], ranks=[1.0, 1.0] if drawn else [1.0, 2.0])
            held[x], held[y] = nx, ny
            shown[x] = sx = scale * (nx.mu - 3.0 * nx.sigma) + base
            shown[y] = sy = scale * (ny.mu - 3.0 * ny.sigma) + base
            gain[x] = gain.get(x, players[x].season_gain) + (sx - rx)
            gain[y] = gain.get(y, players[y].season_gain) + (sy - ry)
        if tell:
            told.append(("", rx, shown[x], ry, shown[y], None, None))  # (no RDs)
    for p, value in held.items():
        player = players[p]
        player.extra, player.rating = (value.mu, value.sigma), shown[p]
        player.season_gain = gain[p]
        _KEPT[(id(used), value.mu, value.sigma)] = value
    return told if tell else None


RULEBOOK = OpenSkill()
