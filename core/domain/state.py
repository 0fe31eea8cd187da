"""Standings and the fold that derives them from the event log.

`replay(settings, events)` gives the standings of a whole log; `LadderState.apply`
folds one more event into existing standings, with the same result. A correction
(void, changed result) is honoured wherever its match occurs: the fold takes the map of
final corrections, so replaying a corrected log gives the standings of the history in
which the corrected result had been reported in the first place.

The fold owns a mutable accumulator for speed (a million events must replay in about a
second); everything it consumes and returns is frozen.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from types import MappingProxyType

import numpy as np

from core.domain import elo, pairs
from core.domain.budget import tick
from core.domain.calendar import month_label, season_after
from core.domain.collector import paused
from core.domain.duels import RatedGames
from core.domain.errors import RatingGapTooLarge
from core.domain.events import (
    CORRECTIONS,
    ChallengeAccepted,
    DecayDay,
    Event,
    MatchConfirmed,
    PlayerJoined,
    PlayerLeft,
    RatingAdjusted,
    RulesSwitched,
    SeasonClosed,
    SettingsChanged,
    collect_corrections,
)
from core.domain.model import Correction, Match, PlayerId, Result, Timestamp, pair_key
from core.domain.pairs import unrated_note
from core.domain.settings import Settings
from core.domain.standing import (
    DECAY_SHOWN,
    NOTHING,
    Applied,
    Change,
    MatchEffect,
    PlayerState,
    SeasonEffect,
)
from core.domain.tables import gain_table, hall_entries
from core.i18n import encode, t

NO_CORRECTIONS: Mapping[int, Correction] = MappingProxyType({})


class LadderState(RatedGames):
    """The standings of one ladder after `seq` events, and the fold of one more."""

    __slots__ = ()

    # ------------------------------------------------------------------ folding

    def apply(
        self, event: Event, corrections: Mapping[int, Correction] = NO_CORRECTIONS
    ) -> Applied:
        """Fold one event into the standings and say what changed."""
        tick()  # (a long fold is the one thing that may hold a unit of work for long)
        if self.undo is not None:
            entry = self._journal(event, corrections)
            if entry is None:
                self.undo.clear()
            else:
                self.undo.append(entry)
        if self.season is None:
            self.season = month_label(event.at, self.settings.timezone)
        self.seq += 1
        self.at = max(self.at, event.at)
        if self.seq % pairs.FARM_PRUNE_EVERY == 0:
            self._prune()
        if isinstance(event, MatchConfirmed):
            return self._match(event.match, corrections)
        if isinstance(event, PlayerJoined):
            return self._join(event.player)
        if isinstance(event, PlayerLeft):
            return self._leave(event.player)
        if isinstance(event, DecayDay):
            return self._decay(event.day)
        if isinstance(event, RatingAdjusted):
            return self._adjust(event.player, event.amount)
        if isinstance(event, SeasonClosed):
            return self._close_season(event.season, event.at)
        if isinstance(event, ChallengeAccepted):
            challenger, challenged = self.rung(event.challenger), self.rung(event.challenged)
            if challenger is not None and challenged is not None:
                self.logged[event.challenge] = (
                    event.challenger, challenger, event.challenged, challenged,
                )
            return NOTHING
        if isinstance(event, SettingsChanged):
            return self._change_settings(event)
        if isinstance(event, CORRECTIONS):
            # Corrections act where their match stands, through `corrections`.
            return NOTHING
        if isinstance(event, RulesSwitched):
            # The store re-derived the whole history under its settings before this.
            return NOTHING
        raise TypeError(f"not an event: {event!r}")

    def _change_settings(self, event: SettingsChanged) -> Applied:
        """New settings from here on; who turns provisional or stops being so (a new
        `calibration`, `provisional_rd`) is rewritten: the tables' SQL reads it stored."""
        before, book = self.settings, self.rulebook
        self.settings = before.with_changes(dict(event.changes))
        after, now = self.settings, self.rulebook
        flipped = tuple(p for p, s in self.players.items()
                        if book.provisional(before, s) != now.provisional(after, s))
        return Applied("settings", players=flipped) if flipped else NOTHING

    def _join(self, player: PlayerId) -> Applied:
        state = self.players.get(player)
        if state is None:
            self.players[player] = self.rulebook.new_player(self.settings)
        else:
            state.member = True
        return self.rulebook.seat(self, player)

    def _leave(self, player: PlayerId) -> Applied:
        state = self.players.get(player)
        if state is None or not state.member:
            return NOTHING
        state.member = False
        return self.rulebook.unseat(self, player)

    def _adjust(self, player: PlayerId, amount: float) -> Applied:
        return self.rulebook.adjust(self, player, amount) if player in self.players \
            else NOTHING

    def _decay(self, day: str) -> Applied:
        """One decay day over every member at once (`elo.decay_amounts`).

        It names no players and no changes: a decay day touches everyone by one formula of
        their own rating, which storage applies as one statement and a chart recomputes.
        """
        self.last_decay = day
        settings = self.settings
        if not settings.decays:  # the rulebook's own end of a day (a rating period's close)
            return self.rulebook.day_over(self, day)
        ids = [p for p, s in self.players.items() if s.member]
        members = [self.players[p] for p in ids]
        ratings = np.fromiter((s.rating for s in members), np.float64, len(members))
        amounts = elo.decay_amounts(settings, ratings)
        after = ratings - amounts
        for state, rating in zip(members, after.tolist(), strict=True):
            state.rating = rating
        moved = np.flatnonzero(amounts > 0)
        if not moved.size:
            return Applied("decay")
        # the largest moves, in a time that grows with the members, not with their sort
        top = moved[np.argpartition(-amounts[moved], DECAY_SHOWN - 1)[:DECAY_SHOWN]] \
            if moved.size > DECAY_SHOWN else moved
        top = top[np.argsort(-amounts[top], kind="stable")]
        return Applied("decay", decayed=int(moved.size), most=tuple(
            Change(ids[i], float(ratings[i]), float(after[i])) for i in top.tolist()))

    def _close_season(self, label: str, at: Timestamp) -> Applied:
        settings = self.settings
        book = self.rulebook
        rows = (
            (p, s.season_gain, s.season_games, s.rated_games)
            for p, s in self.players.items()
            if s.member and not book.provisional(settings, s)
        )
        table = tuple(gain_table(settings, rows, settings.season_min_games))
        hall = tuple(hall_entries(settings, label, list(table)))
        self.frozen[label] = table
        self.hall.extend(hall)
        touched = []
        for player, state in self.players.items():
            if state.season_gain or state.season_games:
                touched.append(player)
                state.season_gain = 0.0
                state.season_games = 0
        self.season = season_after(label, at, settings.timezone)
        effect = SeasonEffect(label, table, hall, self.season)
        return Applied("season", players=tuple(touched), season=effect)

    def reorder(self, kind: str, new_order: list[PlayerId]) -> Applied:
        old = {p: i for i, p in enumerate(self.order)}
        moved = tuple(
            Change(p, old[p] + 1, i + 1) for i, p in enumerate(new_order) if old[p] != i
        )
        self.order = new_order
        return Applied(kind, players=tuple(c.player for c in moved), changes=moved)

    # ------------------------------------------------------------------ matches

    def _match(self, match: Match, corrections: Mapping[int, Correction]) -> Applied:
        correction = corrections.get(match.id)
        if correction is not None:
            if correction.voided:
                voided = MatchEffect(match.id, False, "voided", (), voided=True)
                return Applied("match", match=voided)
            assert correction.result is not None
            match = Match(match.id, match.played_at, correction.result, match.challenge_id,
                          match.forfeit)
        result = match.result
        players = self.players
        for p in result.players:
            if p not in players:  # a replayed log names only joined players; be safe
                players[p] = self.rulebook.new_player(self.settings, member=False)
        self._count_game(result, match.played_at)
        return self.rulebook.rate(self, match, self._unrated_reason(match))

    def _count_game(self, result: Result, played_at: Timestamp) -> None:
        winners = result.winners()
        for p in result.players:
            s = self.players[p]
            s.games += 1
            if result.draw:
                s.draws += 1
            elif p in winners:
                s.wins += 1
            else:
                s.losses += 1
            if s.last_played is None or played_at > s.last_played:
                s.last_played = played_at

    def _unrated_reason(self, match: Match) -> str:
        """Why a match moves nothing, or '' when it is rated."""
        result, settings = match.result, self.settings
        note = unrated_note(settings, result.rated, result.moves)
        if note:
            return note
        if result.is_duel:
            farmed = self.farmed(pair_key(result.sides[0][0], result.sides[1][0]),
                                 match.played_at)
            if farmed:
                return farmed
        if settings.max_gap is not None and not settings.is_position:
            ratings = {p: self.players[p].rating for p in result.players}
            try:
                elo.check_gap(settings, result, ratings)
            except RatingGapTooLarge as error:
                return encode(t("note.gap", gap=round(error.gap)))
        return ""


def standing_changes(before: Callable[[PlayerId], PlayerState | None],
                     old_order: list[PlayerId], state: LadderState,
                     players: Iterable[PlayerId]) -> tuple[Change, ...]:
    """What a re-derivation moved: each player of before whose rating (rung, on a position
    ladder) `state` puts elsewhere, in player (join) order, those who left included (their
    record stays for a return). `players` are those that may have moved (a position ladder
    compares every rung); `before` gives a player's prior state.
    """
    if state.settings.is_position:
        now = {p: i + 1 for i, p in enumerate(state.order)}
        return tuple(Change(p, i + 1, now[p]) for i, p in enumerate(old_order)
                     if now.get(p, i + 1) != i + 1)
    moved = []
    for p in sorted(players):
        prior, after = before(p), state.players.get(p)
        if prior is not None and after is not None and after.rating != prior.rating:
            moved.append(Change(p, prior.rating, after.rating))
    return tuple(moved)


def replay(
    settings: Settings,
    events: Iterable[Event],
    corrections: Mapping[int, Correction] | None = None,
) -> LadderState:
    """The standings after a whole event log, corrections honoured where they apply."""
    events = list(events)
    if corrections is None:
        corrections = collect_corrections(events)
    return resume(LadderState(settings), events, corrections)


def resume(
    snapshot: LadderState,
    events: Iterable[Event],
    corrections: Mapping[int, Correction],
) -> LadderState:
    """Continue a copy of `snapshot` through `events` (the events after it)."""
    state = snapshot.copy()
    with paused():  # (core.domain.collector: a long fold builds much that stays)
        for event in events:
            state.apply(event, corrections)
    return state
