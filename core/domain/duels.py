"""Rating a match once the fold has counted it: the lean path for plain one-on-one
games (replays stream millions of them), a match that moves nothing, and the tally of a
rated one.
"""

from __future__ import annotations

from collections.abc import Mapping

from core.domain import pairs
from core.domain.calendar import month_label
from core.domain.journal import Journaled
from core.domain.model import Match, PlayerId, Timestamp, pair_key
from core.domain.pairs import unrated_note
from core.domain.rulebooks.rated import duel_ratings
from core.domain.standing import (
    Applied,
    Change,
    MatchEffect,
    PlayerState,
)


class RatedGames(Journaled):
    """What rates and tallies a counted match, for the fold and the rulebooks."""

    __slots__ = ()

    def rate_duel(self, match: Match, note: str) -> Applied:
        """A one-on-one game of the classic or zero-sum formula: what the Elo rulebooks'
        `elo_match` computes, without the machinery for sides and pairs (the busiest path
        of every replay)."""
        if note:
            return self.unrated_effect(match, note)
        result = match.result
        a, b = result.sides[0][0], result.sides[1][0]
        pa, pb = self.players[a], self.players[b]
        ra, rb = pa.rating, pb.rating
        na, nb = self._rated_duel(a, pa, b, pb, result.draw, match.played_at)
        changes = (Change(a, ra, na), Change(b, rb, nb))
        return Applied("match", players=(a, b), changes=changes,
                       match=MatchEffect(match.id, True, "", changes))


    def apply_duel(self, at: Timestamp, a: PlayerId, b: PlayerId, draw: bool, rated: bool,
                   moves: int | None, played_at: Timestamp
                   ) -> tuple[bool, str, float, float, float, float]:
        """Fold a confirmed one-on-one match given as plain values, exactly as `apply` folds
        the same MatchConfirmed: long replays stream millions of these, and building the
        event objects would cost more than the rules.

        Only for `lean` settings and a match no correction names. Returns (rated, note,
        rating of a before, after, rating of b before, after).
        """
        settings = self.settings
        if self.undo is not None:
            self.undo.append(self._entry(
                (a, b), pair_key(a, b) if settings.farm_limit is not None else None))
        if self.season is None:
            self.season = month_label(at, settings.timezone)
        self.seq += 1
        if at > self.at:
            self.at = at
        if self.seq % pairs.FARM_PRUNE_EVERY == 0:
            self._prune()
        players = self.players
        pa = players.get(a)
        if pa is None:
            pa = players[a] = PlayerState(rating=settings.start, member=False)
        pb = players.get(b)
        if pb is None:
            pb = players[b] = PlayerState(rating=settings.start, member=False)
        pa.games += 1
        pb.games += 1
        if draw:
            pa.draws += 1
            pb.draws += 1
        else:
            pa.wins += 1
            pb.losses += 1
        if pa.last_played is None or played_at > pa.last_played:
            pa.last_played = played_at
        if pb.last_played is None or played_at > pb.last_played:
            pb.last_played = played_at
        ra, rb = pa.rating, pb.rating
        note = unrated_note(settings, rated, moves)
        if not note and settings.farm_limit is not None:
            note = self.farmed(pair_key(a, b), played_at)
        if note:
            return False, note, ra, ra, rb, rb
        na, nb = self._rated_duel(a, pa, b, pb, draw, played_at)
        return True, "", ra, na, rb, nb

    def _rated_duel(self, a: PlayerId, pa: PlayerState, b: PlayerId, pb: PlayerState,
                    draw: bool, played_at: Timestamp) -> tuple[float, float]:
        """Move the ratings of a rated one-on-one game (a won unless it is a draw) and
        count it; returns the new ratings of a and b. Shared by `_duel` and `apply_duel`."""
        settings = self.settings
        ra, rb = pa.rating, pb.rating
        pa.rating, pb.rating = na, nb = duel_ratings(settings, ra, rb, draw)
        pa.rated_games += 1
        pb.rated_games += 1
        if not draw:
            pa.rated_wins += 1
        pa.season_games += 1
        pb.season_games += 1
        pa.season_gain += na - ra
        pb.season_gain += nb - rb
        if settings.farm_limit is not None:
            self.remember_pair(a, b, played_at)
        return na, nb

    def unrated_effect(self, match: Match, note: str) -> Applied:
        """A match that moves nothing, and why."""
        result = match.result
        changes = tuple(
            Change(p, self.players[p].rating, self.players[p].rating) for p in result.players
        )
        return Applied("match", players=result.players, changes=changes,
                       match=MatchEffect(match.id, False, note, changes))

    def record_rated(self, match: Match, before: Mapping[PlayerId, float]
                     ) -> tuple[Change, ...]:
        """Count a rated game for every participant and return the rating changes."""
        result = match.result
        winners = result.winners()
        changes = []
        for p in result.players:
            s = self.players[p]
            s.rated_games += 1
            if p in winners:
                s.rated_wins += 1
            s.season_games += 1
            s.season_gain += s.rating - before[p]
            changes.append(Change(p, before[p], s.rating))
        if self.settings.farm_limit is not None and result.is_duel:
            self.remember_pair(result.sides[0][0], result.sides[1][0], match.played_at)
        return tuple(changes)

