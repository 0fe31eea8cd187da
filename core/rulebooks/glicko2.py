"""`glicko2` (RULES.md §6): Glickman's Glicko-2 ("Example of the Glicko-2 system", 2013),
a rating, its deviation (RD) and its volatility, updated once per rating period.

The arithmetic works on frozen values (`rate`, `idle`); the rulebook below makes each
game a rating period of its own (`period=game`), the RD grown first for the idle days
since a player's previous rated game.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING

from core.calendar import local
from core.elo import round_half_away
from core.model import Match, PlayerId, Result, Timestamp
from core.settings import Settings, fmt_number
from core.standing import Applied, Change, MatchEffect, PlayerState

if TYPE_CHECKING:
    from core.state import LadderState

SCALE = 173.7178  # Glicko-2's scale: 400 / ln(10)
CENTRE = 1500.0  # the rating Glicko-2's scale is centred on (not a setting: the maths')
EPSILON = 0.000001  # convergence of the volatility iteration (RULES.md §6)


@dataclass(frozen=True, slots=True)
class Glicko:
    """A player's Glicko-2 values on the Glicko scale (rating ~1500, RD ~350)."""

    rating: float
    rd: float
    volatility: float


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, g_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-g_j * (mu - mu_j)))


def rate(player: Glicko, games: Sequence[tuple[Glicko, float]], tau: float,
         max_rd: float) -> Glicko:
    """The player's values after one rating period of `games` (opponent before the
    period, score 1 / 0.5 / 0): Glickman's steps 2-8. An empty period only grows the RD
    (`idle`). The RD never exceeds `max_rd` (the start RD)."""
    if not games:
        return idle(player, 1, max_rd)
    mu, phi = (player.rating - CENTRE) / SCALE, player.rd / SCALE
    inverse_v, impact = 0.0, 0.0
    for opponent, score in games:
        g_j = _g(opponent.rd / SCALE)
        e_j = _expected(mu, (opponent.rating - CENTRE) / SCALE, g_j)
        inverse_v += g_j * g_j * e_j * (1.0 - e_j)
        impact += g_j * (score - e_j)
    v = 1.0 / inverse_v
    sigma = _volatility(phi, player.volatility, v * impact, v, tau)
    phi_star = math.sqrt(phi * phi + sigma * sigma)
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu_new = mu + phi_new * phi_new * impact
    return Glicko(SCALE * mu_new + CENTRE, min(SCALE * phi_new, max_rd), sigma)


def idle(player: Glicko, periods: int, max_rd: float) -> Glicko:
    """The player after `periods` rating periods without a game: φ' = sqrt(φ² + n·σ²),
    capped at `max_rd`."""
    if periods <= 0:
        return player
    phi = player.rd / SCALE
    grown = SCALE * math.sqrt(phi * phi + periods * player.volatility ** 2)
    return Glicko(player.rating, min(grown, max_rd), player.volatility)


def _volatility(phi: float, sigma: float, delta: float, v: float, tau: float) -> float:
    """Step 5: the new volatility, by the Illinois algorithm Glickman gives."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return (ex * (delta * delta - phi * phi - v - ex)
                / (2.0 * (phi * phi + v + ex) ** 2) - (x - a) / (tau * tau))

    low = a
    if delta * delta > phi * phi + v:
        high = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        high = a - k * tau
    f_low, f_high = f(low), f(high)
    while abs(high - low) > EPSILON:
        c = low + (low - high) * f_low / (f_high - f_low)
        f_c = f(c)
        if f_c * f_high <= 0:
            low, f_low = high, f_high
        else:
            f_low /= 2.0
        high, f_high = c, f_c
    return math.exp(low / 2.0)


# ------------------------------------------------------------------ the rulebook
# A player's `extra`: (RD, volatility, local day number of their last rated game, or
# NEVER before their first).
NEVER = -1.0


def values(player: PlayerState, settings: Settings) -> Glicko:
    """A player's Glicko-2 values (a new player's from the settings)."""
    if not player.extra:
        return Glicko(player.rating, settings.rd, settings.volatility)
    return Glicko(player.rating, player.extra[0], player.extra[1])


def local_day(at: Timestamp, settings: Settings) -> int:
    """The local date of an instant, as a day number (the ladder's time zone)."""
    return local(at, settings.timezone).date().toordinal()


def before_game(player: PlayerState, settings: Settings, day: int) -> Glicko:
    """A player's values at a game on local day `day`: a player who has played before has
    their RD grown for the idle days between (RULES.md §6, `period=game`)."""
    current = values(player, settings)
    last = player.extra[2] if player.extra else NEVER
    if last == NEVER:
        return current
    return idle(current, max(int(day - last) - 1, 0), settings.rd)


class Glicko2:
    """Glicko-2 for one-on-one games and draws, each game a rating period of its own."""

    name = "glicko2"

    @staticmethod
    def rate(state: LadderState, match: Match, note: str) -> Applied:
        """Both players rated at once from their values before the game."""
        result = match.result
        if not note and not result.is_duel:
            note = "Glicko-2 rates one-on-one games only, so unrated"
        if note:
            return state.unrated_effect(match, note)
        settings = state.settings
        a, b = result.sides[0][0], result.sides[1][0]
        pa, pb = state.players[a], state.players[b]
        if settings.period != "game":
            return _wait(state, match)
        day = local_day(match.played_at, settings)
        ga, gb = before_game(pa, settings, day), before_game(pb, settings, day)
        score = 0.5 if result.draw else 1.0
        na = rate(ga, [(gb, score)], settings.tau, settings.rd)
        nb = rate(gb, [(ga, 1.0 - score)], settings.tau, settings.rd)
        before = {a: pa.rating, b: pb.rating}
        for player, new in ((pa, na), (pb, nb)):
            player.rating = new.rating
            player.extra = (new.rd, new.volatility, float(day))
        changes = state.record_rated(match, before)
        return Applied("match", players=(a, b), changes=changes,
                       match=MatchEffect(match.id, True, "", changes))

    @staticmethod
    def lean(settings: Settings) -> bool:
        """Never: the fast path knows only Elo."""
        return False

    @staticmethod
    def waits(settings: Settings) -> bool:
        """With `period=day|week`: the period's games are rated together at its close."""
        return settings.period != "game"

    @staticmethod
    def day_over(state: LadderState, day: str) -> Applied:
        """A rating period closes at the start of `day` (every day; a week on Mondays)."""
        period = state.settings.period
        if period == "game" or (period == "week" and date.fromisoformat(day).weekday() != 0):
            return Applied("decay")
        return close_period(state, date.fromisoformat(day).toordinal() - 1)

    @staticmethod
    def new_player(settings: Settings, member: bool = True) -> PlayerState:
        """At the start rating, RD and volatility, never rated."""
        return PlayerState(rating=settings.start, member=member,
                           extra=(settings.rd, settings.volatility, NEVER))

    @staticmethod
    def adjust(settings: Settings, player: PlayerState, amount: float) -> None:
        """The rating moved; RD and volatility stay."""
        player.rating += amount

    @staticmethod
    def refusal(settings: Settings, result: Result) -> str:
        """Free-for-alls and team games: Glicko-2 rates one-on-one games."""
        if result.is_duel:
            return ""
        return ("Glicko-2 rates one-on-one games only: a ladder with preset=openskill "
                "rates free-for-alls and teams.")

    @staticmethod
    def provisional(settings: Settings, player: PlayerState) -> bool:
        """While the RD is above `provisional_rd`."""
        return values(player, settings).rd > settings.provisional_rd

    @staticmethod
    def shown(settings: Settings, player: PlayerState) -> str:
        """`1464 ±303`: the rating and twice the RD, rounded."""
        mine = values(player, settings)
        return f"{round_half_away(mine.rating)} ±{round_half_away(2 * mine.rd)}"

    @staticmethod
    def exported(player: PlayerState) -> dict[str, float]:
        """RD and volatility, unrounded (CONSOLE.md)."""
        return {"rd": player.extra[0], "volatility": player.extra[1]} if player.extra else {}

    @staticmethod
    def summary(settings: Settings) -> str:
        """`Glicko-2 from 1500 (RD 350, volatility 0.06, τ 0.5), each game rated at once`."""
        periods = {"game": "each game rated at once",
                   "day": "the games of each day rated together at 00:00",
                   "week": "the games of each week rated together on Monday at 00:00"}
        return (f"Glicko-2 from {fmt_number(settings.start)} (RD {fmt_number(settings.rd)}, "
                f"volatility {fmt_number(settings.volatility)}, tau "
                f"{fmt_number(settings.tau)}), {periods[settings.period]}, provisional while "
                f"RD is above {fmt_number(settings.provisional_rd)}")


def _wait(state: LadderState, match: Match) -> Applied:
    """A rated game of `period=day|week`: counted now, rated when its period closes."""
    result = match.result
    a, b = result.sides[0][0], result.sides[1][0]
    state.pending.append((match.id, a, b, 0.5 if result.draw else 1.0))
    changes = state.record_rated(match, {a: state.players[a].rating,
                                         b: state.players[b].rating})
    return Applied("match", players=(a, b), changes=changes,
                   match=MatchEffect(match.id, True, WAITING, changes))


# What a game of a rating period says until the period closes.
WAITING = "rated when the rating period closes"


def close_period(state: LadderState, last_day: int) -> Applied:
    """Glickman's rating period: every waiting game rated together from everyone's values
    at the period's start; a player who has played before and played no game in it has
    their RD grown by one period (RULES.md §6)."""
    settings, players = state.settings, state.players
    games: dict[PlayerId, list[tuple[Glicko, float]]] = {}
    start = {p: values(s, settings) for p, s in players.items()}
    for _, a, b, score in state.pending:
        games.setdefault(a, []).append((start[b], score))
        games.setdefault(b, []).append((start[a], 1.0 - score))
    state.pending.clear()
    touched, changes = [], []
    for p, s in players.items():
        played = games.get(p)
        if played is None and (not s.extra or s.extra[2] == NEVER):
            continue  # never rated: nothing grows
        new = rate(start[p], played, settings.tau, settings.rd) if played else \
            idle(start[p], 1, settings.rd)
        if played:
            s.season_gain += new.rating - s.rating
            changes.append(Change(p, s.rating, new.rating))
        s.rating = new.rating
        s.extra = (new.rd, new.volatility, float(last_day))
        touched.append(p)
    return Applied("period", players=tuple(touched), changes=tuple(changes))


RULEBOOK = Glicko2()
