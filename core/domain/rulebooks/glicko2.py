"""`glicko2` (RULES.md §6): Glickman's Glicko-2 ("Example of the Glicko-2 system", 2013),
a rating, its deviation (RD) and its volatility, updated once per rating period.

The arithmetic is `core.domain.rulebooks.glicko_math`'s, over arrays (`rate` and `idle` are
one player's view of it); the rulebook below makes each game a rating period of its own
(`period=game`), the RD grown first for the idle days since a player's previous rated
game, or rates a day's or week's games together when the period closes.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING

import numpy as np

from core.domain.calendar import local_day
from core.domain.elo import round_half_away
from core.domain.model import Match, PlayerId, Result
from core.domain.rulebooks import glicko2_fold, rated
from core.domain.rulebooks.glicko_math import (
    NEVER,
    WAITING,
    Values,
    grown,
    grown_one,
    one_game,
    period,
)
from core.domain.settings import Settings, fmt_number
from core.domain.standing import Applied, Change, MatchEffect, PlayerState
from core.domain.summary import described
from core.i18n import N_, Message, Number, encode, t

if TYPE_CHECKING:
    from core.domain.batch import RateRun
    from core.domain.state import LadderState


@dataclass(frozen=True, slots=True)
class Glicko:
    """A player's Glicko-2 values on the Glicko scale (rating ~1500, RD ~350)."""

    rating: float
    rd: float
    volatility: float


def _arrays(players: list[Glicko]) -> tuple[Values, Values, Values]:
    return (np.array([p.rating for p in players]), np.array([p.rd for p in players]),
            np.array([p.volatility for p in players]))


def rate(player: Glicko, games: list[tuple[Glicko, float]], tau: float,
         max_rd: float) -> Glicko:
    """The player's values after one rating period of `games` (opponent before the
    period, score 1 / 0.5 / 0); an empty period only grows the RD (`idle`). The RD
    never exceeds `max_rd` (the start RD)."""
    if not games:
        return idle(player, 1, max_rd)
    rating, rd, volatility = _arrays([player])
    opponents = _arrays([opponent for opponent, _ in games])
    new = period(rating, rd, volatility, np.zeros(len(games), dtype=np.int64),
                 opponents[0], opponents[1], np.array([score for _, score in games]),
                 tau, max_rd)
    return Glicko(*(float(value[0]) for value in new))


def idle(player: Glicko, periods: int, max_rd: float) -> Glicko:
    """The player after `periods` rating periods without a game."""
    if periods <= 0:
        return player
    _, rd, volatility = _arrays([player])
    wider = grown(rd, volatility, np.array([float(periods)]), max_rd)
    return Glicko(player.rating, float(wider[0]), player.volatility)


def game(a: Glicko, a_last: float, b: Glicko, b_last: float, day: float, score: float,
         settings: Settings) -> tuple[Glicko, Glicko]:
    """`games` of one game (a scored `score`), on plain floats (`glicko_math.one_game`)."""
    idle_a = 0.0 if a_last == NEVER else max(day - a_last - 1.0, 0.0)
    idle_b = 0.0 if b_last == NEVER else max(day - b_last - 1.0, 0.0)
    a = Glicko(a.rating, grown_one(a.rd, a.volatility, idle_a, settings.rd), a.volatility)
    b = Glicko(b.rating, grown_one(b.rd, b.volatility, idle_b, settings.rd), b.volatility)
    after = [one_game((me.rating, me.rd, me.volatility), (other.rating, other.rd), mine,
                      settings.tau, settings.rd)
             for me, other, mine in ((a, b, score), (b, a, 1.0 - score))]
    return Glicko(*after[0]), Glicko(*after[1])


# ------------------------------------------------------------------ the rulebook
def values(player: PlayerState, settings: Settings) -> Glicko:
    """A player's Glicko-2 values (a new player's from the settings)."""
    if not player.extra:
        return Glicko(player.rating, settings.rd, settings.volatility)
    return Glicko(player.rating, player.extra[0], player.extra[1])


def last_day(player: PlayerState) -> float:
    """The local day number of the player's previous rated game (`NEVER` before it)."""
    return player.extra[2] if player.extra else NEVER


SHOWN_RDS = 2  # a rating is shown ± twice its RD (RULES.md §6), in replies and charts


class Glicko2(rated.Rated):
    """Glicko-2 for one-on-one games and draws, each game a rating period of its own."""

    name = "glicko2"

    @staticmethod
    def rate(state: LadderState, match: Match, note: str) -> Applied:
        """Both players rated at once from their values before the game."""
        result = match.result
        if not note and not result.is_duel:
            note = encode(t("note.glicko2_duels"))
        if note:
            return state.unrated_effect(match, note)
        settings = state.settings
        a, b = result.sides[0][0], result.sides[1][0]
        pa, pb = state.players[a], state.players[b]
        if settings.period != "game":
            return _wait(state, match)
        day = float(local_day(match.played_at, settings.timezone))
        na, nb = game(values(pa, settings), last_day(pa), values(pb, settings),
                      last_day(pb), day, 0.5 if result.draw else 1.0, settings)
        before = {a: pa.rating, b: pb.rating}
        for player, new in ((pa, na), (pb, nb)):
            player.rating = new.rating
            player.extra = (new.rd, new.volatility, day)
        changes = _with_rd(state, state.record_rated(match, before))
        return Applied("match", players=(a, b), changes=changes,
                       match=MatchEffect(match.id, True, "", changes))

    lean = staticmethod(rated.never_lean)  # (`apply_duel` knows only Elo)

    @staticmethod
    def rate_run(state: LadderState) -> RateRun | None:
        """A run of plain games is rated in levels (`core.domain.rulebooks.glicko2_fold`),
        unless a rating gap can leave one unrated (`max_gap`: the one-by-one fold checks
        it game by game)."""
        return None if state.settings.max_gap is not None else glicko2_fold.rate_run

    @staticmethod
    def journals(settings: Settings) -> bool:
        """With `period=game`: a period's games wait in `pending`, which no undo holds."""
        return settings.period == "game"

    @staticmethod
    def waits(settings: Settings) -> bool:
        """With `period=day|week`: the period's games are rated together at its close."""
        return settings.period != "game"

    @staticmethod
    def day_over(state: LadderState, day: str) -> Applied:
        """A rating period closes at the start of `day` (every day; a week on Mondays)."""
        kind = state.settings.period
        if kind == "game" or (kind == "week" and date.fromisoformat(day).weekday() != 0):
            return Applied("decay")
        return close_period(state, date.fromisoformat(day).toordinal() - 1)

    @staticmethod
    def new_player(settings: Settings, member: bool = True) -> PlayerState:
        """At the start rating, RD and volatility, never rated."""
        return PlayerState(rating=settings.start, member=member,
                           extra=(settings.rd, settings.volatility, NEVER))

    @staticmethod
    def moved(settings: Settings, player: PlayerState, amount: float) -> None:
        """The rating moved; RD and volatility stay."""
        player.rating += amount

    @staticmethod
    def refusal(settings: Settings, result: Result) -> Message | None:
        """Free-for-alls and team games: Glicko-2 rates one-on-one games."""
        return None if result.is_duel else t("shape.glicko2_duels")

    @staticmethod
    def provisional(settings: Settings, player: PlayerState) -> bool:
        """While the RD is above `provisional_rd`."""
        return values(player, settings).rd > settings.provisional_rd

    @staticmethod
    def shown(settings: Settings, player: PlayerState) -> str:
        """`1464 ±303`: the rating and twice the RD, rounded."""
        mine = values(player, settings)
        return f"{round_half_away(mine.rating)} ±{round_half_away(SHOWN_RDS * mine.rd)}"

    @staticmethod
    def deviation(settings: Settings, player: PlayerState) -> float | None:
        """The RD."""
        return values(player, settings).rd

    @staticmethod
    def exported(player: PlayerState) -> dict[str, float]:
        """RD and volatility, unrounded (CONSOLE.md)."""
        return {"rd": player.extra[0], "volatility": player.extra[1]} if player.extra else {}

    @staticmethod
    def summary(settings: Settings) -> Message:
        """`Glicko-2 from 1500 (RD 350, volatility 0.06, τ 0.5), each game rated at once`."""
        periods = {"game": N_("summary.period_game"), "day": N_("summary.period_day"),
                   "week": N_("summary.period_week")}
        return described(t("summary.glicko2", start=fmt_number(settings.start),
                           rd=fmt_number(settings.rd), volatility=Number(settings.volatility),
                           tau=Number(settings.tau), period=t(periods[settings.period]),
                           provisional=fmt_number(settings.provisional_rd)), settings, [])


def _wait(state: LadderState, match: Match) -> Applied:
    """A rated game of `period=day|week`: counted now, rated when its period closes."""
    result = match.result
    a, b = result.sides[0][0], result.sides[1][0]
    state.pending.append((match.id, a, b, 0.5 if result.draw else 1.0))
    changes = _with_rd(state, state.record_rated(match, {a: state.players[a].rating,
                                                         b: state.players[b].rating}))
    return Applied("match", players=(a, b), changes=changes,
                   match=MatchEffect(match.id, True, WAITING, changes))


def _with_rd(state: LadderState, changes: tuple[Change, ...]) -> tuple[Change, ...]:
    """The changes with each player's RD after them (a chart's band)."""
    players, settings = state.players, state.settings
    return tuple(Change(c.player, c.before, c.after, values(players[c.player], settings).rd)
                 for c in changes)


def close_period(state: LadderState, closing: int) -> Applied:
    """Glickman's rating period, its last local day `closing`: every waiting game rated
    together from everyone's values at the period's start; a player who has played
    before and played no game in it has their RD grown by one period (RULES.md §6)."""
    settings, players = state.settings, state.players
    place: dict[PlayerId, int] = {}
    owner, opponent, score = [], [], []
    for _, a, b, points in state.pending:
        for me, other, mine in ((a, b, points), (b, a, 1.0 - points)):
            owner.append(place.setdefault(me, len(place)))
            opponent.append(other)
            score.append(mine)
    state.pending.clear()
    playing = list(place)
    resting = [p for p, s in players.items() if p not in place and last_day(s) != NEVER]
    rated = [values(players[p], settings) for p in playing]
    them = [values(players[p], settings) for p in opponent]
    new = period(*_arrays(rated), np.array(owner, dtype=np.int64), *_arrays(them)[:2],
                 np.array(score), settings.tau, settings.rd) if playing else None
    changes = []
    for i, p in enumerate(playing):
        s = players[p]
        assert new is not None
        after = float(new[0][i])
        s.season_gain += after - s.rating
        rd = float(new[1][i])
        changes.append(Change(p, s.rating, after, rd))
        s.rating = after
        s.extra = (rd, float(new[2][i]), float(closing))
    rest = _arrays([values(players[p], settings) for p in resting])
    wider = grown(rest[1], rest[2], np.ones(len(resting)), settings.rd).tolist()
    for p, rd in zip(resting, wider, strict=True):
        s = players[p]
        s.extra = (rd, s.extra[1], float(closing))
    moved = place.keys() | set(resting)
    touched = [p for p in players if p in moved]
    return Applied("period", players=tuple(touched), changes=tuple(changes))


RULEBOOK = Glicko2()
