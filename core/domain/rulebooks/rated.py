"""What the Elo rulebooks share: a match rated by the formula's changes, a dutch-style
series of one pair's games rated as one, and the fast one-on-one path."""

from __future__ import annotations

from typing import TYPE_CHECKING

from core.domain import elo, summary
from core.domain.bestof import by_games, games_won
from core.domain.calendar import HOUR
from core.domain.model import Match, PlayerId, Result, pair_key
from core.domain.settings import Settings, fmt_number
from core.domain.standing import Applied, Change, MatchEffect, PlayerState, SeriesState
from core.domain.tables import calibrating
from core.i18n import N_, Message, encode, t

if TYPE_CHECKING:
    from core.domain.batch import RateRun
    from core.domain.state import LadderState


class Rated:
    """What every rulebook of ratings does alike with its members: a moderator moves a
    rating (by the rulebook's `moved`), joining and leaving move nobody else."""

    table = "rating"

    @staticmethod
    def needs_margin(settings: Settings, result: Result) -> bool:
        """Never: a rating moves by the result alone."""
        return False

    @staticmethod
    def moved(settings: Settings, player: PlayerState, amount: float) -> None:
        """The rating moved by `amount` points."""
        raise NotImplementedError

    @classmethod
    def adjust(cls, state: LadderState, player: PlayerId, amount: float) -> Applied:
        """The rating moved by `amount` (`moved`)."""
        mine = state.players[player]
        before = mine.rating
        cls.moved(state.settings, mine, amount)
        rd = cls.deviation(state.settings, mine)
        return Applied("adjust", players=(player,),
                       changes=(Change(player, before, mine.rating, rd),))

    @staticmethod
    def deviation(settings: Settings, player: PlayerState) -> float | None:
        """None: the rating alone."""
        return None

    @staticmethod
    def seat(state: LadderState, player: PlayerId) -> Applied:
        """Nothing moves: a rating stands where it stood."""
        return Applied("join", players=(player,))

    @staticmethod
    def unseat(state: LadderState, player: PlayerId) -> Applied:
        """Nothing moves (the record stays for a return)."""
        return Applied("leave", players=(player,))


class EloBook(Rated):
    """What every Elo-family rulebook (and the position ladder) does alike: a rating and
    nothing beside it, calibration by rated games."""

    @staticmethod
    def moved(settings: Settings, player: PlayerState, amount: float) -> None:
        """The rating moved by `amount` points, the floor applied."""
        player.rating = elo.apply_floor(settings, player.rating + amount, player.rating)

    @staticmethod
    def new_player(settings: Settings, member: bool = True) -> PlayerState:
        """A new player at the start rating."""
        return PlayerState(rating=settings.start, member=member)

    @staticmethod
    def refusal(settings: Settings, result: Result) -> Message | None:
        """Nothing beyond the ladder's own limits (sides, teams)."""
        return None

    @staticmethod
    def provisional(settings: Settings, player: PlayerState) -> bool:
        """While the first `calibration` rated games are being played."""
        return calibrating(settings, player.rated_games)

    @staticmethod
    def shown(settings: Settings, player: PlayerState) -> str:
        """The rating, rounded as replies show it."""
        return str(elo.round_half_away(player.rating))

    @staticmethod
    def exported(player: PlayerState) -> dict[str, float]:
        """Nothing beside the rating."""
        return {}

    @staticmethod
    def waits(settings: Settings) -> bool:
        """Never: each game is rated when it counts."""
        return False

    @staticmethod
    def journals(settings: Settings) -> bool:
        """Unless games form series (a game's change depends on its series' others)."""
        return settings.series_hours is None

    @staticmethod
    def rate_run(state: LadderState) -> RateRun | None:
        """None: runs of lean one-on-one matches are `core.domain.batch.fold_duels`', by
        their rating gap."""
        return None

    @staticmethod
    def day_over(state: LadderState, day: str) -> Applied:
        """Nothing closes (decay is the fold's own: `LadderState._decay`)."""
        return Applied("decay")

    title = N_("summary.elo")  # the formula's name in its description

    @staticmethod
    def whole_points(settings: Settings) -> bool:
        """Whether one-on-one ratings move by whole points (so a rating gap says what a
        game does, and `core.domain.batch.fold_duels` may fold runs by it)."""
        return False

    @staticmethod
    def k_text(settings: Settings) -> Message:
        """How much a game moves: `K 32`."""
        return summary.k_text(settings)

    @classmethod
    def summary(cls, settings: Settings) -> Message:
        """`zero-sum Elo from 1000 with K 32, minimum gain 1, floor 800, ...`."""
        head = t("summary.head", title=t(cls.title), start=fmt_number(settings.start),
                 k=cls.k_text(settings))
        return summary.described(head, settings, summary.elo_traits(settings))


def duel_or_elo(state: LadderState, match: Match, note: str) -> Applied:
    """A classic or zero-sum match: a one-on-one game by the fast path (in a series when
    the ladder has them, by the full formula when a rating gap can stop it), any other
    by the formula over its sides."""
    settings = state.settings
    if match.result.is_duel:
        if settings.series_hours is not None or by_games(settings, match.result):
            return series_match(state, match, note)
        if settings.no_change_gap is None:
            return state.rate_duel(match, note)
    return elo_match(state, match, note)


def series_or_elo(state: LadderState, match: Match, note: str) -> Applied:
    """A fame or banded match: a one-on-one game in its series where the ladder has them,
    any other by the formula over its sides (no fast path: their K reads more than the
    two ratings)."""
    settings = state.settings
    if match.result.is_duel and (settings.series_hours is not None
                                 or by_games(settings, match.result)):
        return series_match(state, match, note)
    return elo_match(state, match, note)


def whole_start(settings: Settings) -> bool:
    """Whether the start and the floor are whole numbers (whole ratings stay whole)."""
    return settings.start.is_integer() and (settings.floor is None
                                            or settings.floor.is_integer())


def never_lean(settings: Settings) -> bool:
    """No fast path for this rulebook."""
    return False


def lean(settings: Settings) -> bool:
    """The fast path folds a classic or zero-sum one-on-one game with no rule looking at
    the pair's earlier games or at the rating gap."""
    return (settings.series_hours is None and settings.no_change_gap is None
            and settings.max_gap is None)


def elo_match(state: LadderState, match: Match, note: str) -> Applied:
    """A match rated by the formula's changes for each side (`elo.game_changes`)."""
    if note:
        return state.unrated_effect(match, note)
    settings, result = state.settings, match.result
    players = state.players
    before = {p: players[p].rating for p in result.players}
    wins = {p: players[p].rated_wins for p in result.players} \
        if settings.formula == "fame" else None
    deltas = elo.game_changes(settings, result, before, wins)
    for p, delta in deltas.items():
        players[p].rating = elo.apply_floor(settings, before[p] + delta, before[p])
    changes = state.record_rated(match, before)
    note = ""
    if result.is_duel and not result.draw:
        winner, loser = result.sides[0][0], result.sides[1][0]
        if elo.no_change(settings, before[winner], before[loser], 1.0):
            note = beyond_gap(settings, before[winner], before[loser])
    return Applied("match", players=result.players, changes=changes,
                   match=MatchEffect(match.id, True, note, changes))


def series_match(state: LadderState, match: Match, note: str) -> Applied:
    """A dutch game: rated with every earlier game of its series as one event. A match
    of several games rated by its games (`bestof_rating=games`) adds them all; on a
    ladder without series it is a series of its own."""
    if note:
        return state.unrated_effect(match, note)
    settings, result = state.settings, match.result
    a, b = result.sides[0][0], result.sides[1][0]
    low, high = pair_key(a, b)
    players = state.players
    if settings.series_hours is None:
        series = SeriesState(match.played_at, players[low].rating, players[high].rating)
    else:
        series = _open_series(state, match.played_at, low, high)
    games, won = games_won(result, by_games(settings, result))
    series.games += games
    series.score_low += won if low == a else games - won
    before = {p: players[p].rating for p in (a, b)}
    n = series.games
    target_low = elo.series_change(settings, series.base_low, series.base_high,
                                   series.score_low, n)
    target_high = elo.series_change(settings, series.base_high, series.base_low,
                                    n - series.score_low, n)
    # Each game replaces the series' earlier change by the new one.
    for player, target, attr in ((low, target_low, "applied_low"),
                                 (high, target_high, "applied_high")):
        s = players[player]
        applied = getattr(series, attr)
        new_rating = elo.apply_floor(settings, s.rating + (target - applied), s.rating)
        setattr(series, attr, applied + (new_rating - s.rating))
        s.rating = new_rating
    changes = state.record_rated(match, before)
    note = encode(t("note.series_game", n=n)) if n > 1 and settings.series_hours else ""
    if elo.no_change(settings, series.base_low, series.base_high, series.score_low / n):
        note = beyond_gap(settings, series.base_low, series.base_high)
    return Applied("match", players=(a, b), changes=changes,
                   match=MatchEffect(match.id, True, note, changes))


def _open_series(state: LadderState, at: int, low: PlayerId, high: PlayerId) -> SeriesState:
    """The pair's series a game at `at` belongs to: the open one, or a new one."""
    series = state.series.get((low, high))
    hours = state.settings.series_hours
    assert hours is not None
    if series is None or at >= series.first_at + hours * HOUR:
        players = state.players
        series = SeriesState(at, players[low].rating, players[high].rating)
        state.series[(low, high)] = series
        state.series_due.push(at, (low, high))
    return series


def beyond_gap(settings: Settings, a: float, b: float) -> str:
    """Why a win by the stronger player moved nothing."""
    return encode(t("note.beyond_gap", gap=f"{abs(a - b):.0f}",
                    limit=f"{settings.no_change_gap:g}"))


def duel_ratings(settings: Settings, ra: float, rb: float, draw: bool) -> tuple[float, float]:
    """New ratings of the two players of a rated one-on-one game of the classic or
    zero-sum formula (the first won unless it is a draw), floor applied."""
    if settings.formula == "zero_sum":
        if draw:
            moved = elo.zero_sum_draw(settings, ra, rb)
            da: float = -moved if ra > rb else moved if ra < rb else 0
        else:
            da = elo.zero_sum_exchange(settings, ra, rb)
    else:
        da = settings.k * ((0.5 if draw else 1.0) - elo.expected(ra, rb))
        if settings.whole:
            da = float(elo.round_half_away(da))
    return elo.apply_floor(settings, ra + da, ra), elo.apply_floor(settings, rb - da, rb)
