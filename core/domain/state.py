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

import bisect
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

import numpy as np

from core.domain import elo
from core.domain.budget import tick
from core.domain.calendar import DAY, HOUR, month_label, season_after
from core.domain.collector import paused
from core.domain.due import DueQueue
from core.domain.errors import RatingGapTooLarge
from core.domain.events import (
    ChallengeAccepted,
    DecayDay,
    Event,
    MatchConfirmed,
    MatchVoided,
    PlayerJoined,
    PlayerLeft,
    RatingAdjusted,
    ResultChanged,
    SeasonClosed,
    SettingsChanged,
    collect_corrections,
)
from core.domain.model import Correction, Match, PlayerId, Result, Timestamp, pair_key
from core.domain.rulebooks import Rulebook, choose
from core.domain.rulebooks.rated import duel_ratings
from core.domain.settings import LATEST_CONFIRMATION_DAYS, Settings
from core.domain.standing import (
    NOTHING,
    UNRATED_NOTE,
    Applied,
    Change,
    MatchEffect,
    PlayerState,
    SeasonEffect,
    SeriesState,
    Undo,
)
from core.domain.tables import HallEntry, TableRow, gain_table, hall_entries
from core.i18n import N_, encode, span, t

# (The value types live in core.domain.standing; these names are read from here too.)
__all__ = [
    "PAIR_RULES",
    "UNRATED_NOTE",
    "Applied",
    "Change",
    "LadderState",
    "MatchEffect",
    "PlayerState",
    "SeasonEffect",
    "SeriesState",
    "duel_ratings",
    "pair_rule",
    "replay",
    "resume",
    "standing_changes",
    "too_short",
]

NO_CORRECTIONS: Mapping[int, Correction] = MappingProxyType({})

# Anti-farming looks back `farm_days`, a dutch series lasts `series_hours`. Game times
# and series are kept this much longer, so that a match confirmed up to 30 days after it
# was played is still counted right (`confirm_hours` goes no further)...
FARM_SLACK = LATEST_CONFIRMATION_DAYS * DAY
# ...and every this many events, pairs with no game that recent and series that old are
# forgotten: without it, every pair that ever played would be kept for good. A prune
# costs what it forgets (see `DueQueue`), so it runs often: a recent correction that
# rolls back across one restores, then forgets again, a thousand events' worth of pairs.
FARM_PRUNE_EVERY = 1_000


@dataclass(slots=True)
class LadderState:
    """The standings of one ladder after `seq` events."""

    settings: Settings
    players: dict[PlayerId, PlayerState] = field(default_factory=dict)
    order: list[PlayerId] = field(default_factory=list)  # position ladders, top first
    farm: dict[tuple[PlayerId, PlayerId], list[Timestamp]] = field(default_factory=dict)
    series: dict[tuple[PlayerId, PlayerId], SeriesState] = field(default_factory=dict)
    logged: dict[int, tuple[PlayerId, int, PlayerId, int]] = field(default_factory=dict)
    season: str | None = None
    frozen: dict[str, tuple[TableRow, ...]] = field(default_factory=dict)
    hall: list[HallEntry] = field(default_factory=list)
    seq: int = 0
    at: Timestamp = 0
    last_decay: str | None = None
    # Rated games waiting for their rating period's close (Glicko-2's `period=day|week`):
    # (match, first player, second player, the first's score).
    pending: list[tuple[int, PlayerId, PlayerId, float]] = field(default_factory=list)
    # When set, folded events that only touch their own players are journaled, so that a
    # recent correction rolls the standings back instead of replaying from a snapshot.
    # Any other event (decay, a season close, a settings change) clears it: a barrier.
    undo: deque[Undo] | None = None
    # Every pair in `farm` by the time of its newest game, every series by the time of
    # its first, for the prune (entries whose pair has played since are skipped).
    farm_due: DueQueue = field(default_factory=DueQueue)
    series_due: DueQueue = field(default_factory=DueQueue)

    def __post_init__(self) -> None:  # restored from a snapshot: queue what it holds
        if self.farm and not self.farm_due:
            self.farm_due = DueQueue.of((times[-1], pair) for pair, times in self.farm.items())
        if self.series and not self.series_due:
            self.series_due = DueQueue.of((v.first_at, pair) for pair, v in self.series.items())

    # ------------------------------------------------------------------ reading

    def rung(self, player: PlayerId) -> int | None:
        """1-based rung of a member of a position ladder, else None."""
        try:
            return self.order.index(player) + 1
        except ValueError:
            return None

    def members(self) -> list[PlayerId]:
        """Ids of current members, in join order."""
        return [p for p, s in self.players.items() if s.member]

    def copy(self) -> LadderState:
        """An independent copy (a snapshot)."""
        return LadderState(
            settings=self.settings,
            players={p: s.copy() for p, s in self.players.items()},
            order=list(self.order),
            farm={k: list(v) for k, v in self.farm.items()},
            series={k: v.copy() for k, v in self.series.items()},
            logged=dict(self.logged),
            season=self.season,
            frozen=dict(self.frozen),
            hall=list(self.hall),
            seq=self.seq,
            at=self.at,
            last_decay=self.last_decay,
            pending=list(self.pending),
            farm_due=self.farm_due.copy(),
            series_due=self.series_due.copy(),
        )

    def undo_to(self, seq: int) -> dict[PlayerId, PlayerState | None] | None:
        """Roll back to just before event `seq` (or before the start of the run folded at
        once that holds it: `self.seq` says where), if the journal reaches that far.

        Returns the rolled-back players' states as they were (None where the events
        created them), or None, leaving the standings untouched, when it cannot.
        """
        journal = self.undo
        if not journal or journal[0].seq > seq or self.seq != journal[-1].through:
            return None
        forward: dict[PlayerId, PlayerState | None] = {}
        players, farm = self.players, self.farm
        while journal and journal[-1].through >= seq:  # (a run's from its start)
            entry = journal.pop()
            for pid, prior in entry.players:
                forward.setdefault(pid, players.get(pid))
                if prior is None:
                    players.pop(pid, None)
                else:
                    players[pid] = prior
            if entry.farm is not None:
                pair, times = entry.farm
                if times is None:
                    farm.pop(pair, None)
                else:
                    farm[pair] = list(times)
                    self.farm_due.push(times[-1], pair)
            if entry.pruned:
                farm.update(entry.pruned)
                for pair, kept in entry.pruned.items():
                    self.farm_due.push(kept[-1], pair)
            self.seq, self.at, self.season = entry.seq - 1, entry.at, entry.season
        return forward

    def _journal(self, event: Event, corrections: Mapping[int, Correction]) -> Undo | None:
        """The undo entry of an event about to be folded; None for a barrier."""
        settings = self.settings
        if not self.rulebook.journals(settings):
            return None
        pids: tuple[PlayerId, ...]
        pair = None
        if isinstance(event, MatchConfirmed):
            correction = corrections.get(event.match.id)
            result = correction.result if correction is not None and correction.result \
                else event.match.result
            # A voided match's players too: restoring it rolls back to here, and their
            # states as they were are what tells a store who the restored match moved.
            pids = result.players
            voided = correction is not None and correction.voided
            if not voided and settings.farm_limit is not None and result.is_duel:
                pair = pair_key(result.sides[0][0], result.sides[1][0])
        elif isinstance(event, (PlayerJoined, PlayerLeft, RatingAdjusted)):
            pids = (event.player,)
        elif isinstance(event, (MatchVoided, ResultChanged)):
            pids = ()
        else:
            return None
        return self._entry(pids, pair)

    def _entry(self, pids: tuple[PlayerId, ...],
               pair: tuple[PlayerId, PlayerId] | None) -> Undo:
        players = self.players
        prior = [(p, s.copy() if (s := players.get(p)) is not None else None) for p in pids]
        farm = None
        if pair is not None:
            times = self.farm.get(pair)
            farm = (pair, tuple(times) if times is not None else None)
        return Undo(self.seq + 1, self.at, self.season, prior, farm)

    def fingerprint(self) -> tuple[Any, ...]:
        """Everything that defines the standings, for equality checks in tests."""
        return (
            self.settings,
            tuple(sorted((p, tuple(getattr(s, f) for f in PlayerState.__slots__))
                         for p, s in self.players.items())),
            tuple(self.order),
            tuple(sorted((k, tuple(v)) for k, v in self.farm.items())),
            tuple(sorted((k, (v.first_at, v.base_low, v.base_high, v.games, v.score_low,
                              v.applied_low, v.applied_high)) for k, v in self.series.items())),
            self.season,
            tuple(sorted(self.frozen.items())),
            tuple(self.hall),
            self.last_decay,
            tuple(self.pending),
        )

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
        if self.seq % FARM_PRUNE_EVERY == 0:
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
        if isinstance(event, (MatchVoided, ResultChanged)):
            # Corrections act where their match stands, through `corrections`.
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
        members = [s for s in self.players.values() if s.member]
        ratings = np.fromiter((s.rating for s in members), np.float64, len(members))
        for state, rating in zip(members, (ratings - elo.decay_amounts(settings, ratings))
                                 .tolist(), strict=True):
            state.rating = rating
        return Applied("decay")

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

    @property
    def rulebook(self) -> Rulebook:
        """The rules this ladder's settings choose (chosen again when they change)."""
        return choose(self.settings)

    @property
    def lean(self) -> bool:
        """True when plain one-on-one matches may be folded by `apply_duel`."""
        return self.rulebook.lean(self.settings)

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
        if self.seq % FARM_PRUNE_EVERY == 0:
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

    def farmed(self, pair: tuple[PlayerId, PlayerId], played_at: Timestamp) -> str:
        """Why anti-farming leaves a rated game of `pair` (`pair_key`) at `played_at`
        unrated, or '': the one copy of the rule, for every way of folding a match."""
        settings = self.settings
        times = self.farm.get(pair) if settings.farm_limit is not None else None
        if not times:  # most pairs have no recent game
            return ""
        since = played_at - settings.farm_days * DAY
        recent = bisect.bisect_right(times, played_at) - bisect.bisect_right(times, since)
        if settings.farm_limit is None or recent < settings.farm_limit:
            return ""
        return encode(t("note.farmed", count=recent, within=span(settings.farm_days, "day")))

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

    def remember_pair(self, a: PlayerId, b: PlayerId, played_at: Timestamp) -> None:
        """Keep the time of a pair's rated game for anti-farming."""
        pair = pair_key(a, b)
        times = self.farm.get(pair)
        if times is None:
            times = self.farm[pair] = [played_at]
        else:
            bisect.insort(times, played_at)
            cutoff = times[-1] - self.settings.farm_days * DAY - FARM_SLACK
            if times[0] < cutoff:
                del times[: bisect.bisect_left(times, cutoff)]
        if times[-1] == played_at:
            self.farm_due.push(played_at, pair)

    def _prune(self) -> None:
        """Forget pairs whose newest rated game, and series whose first game, is past
        the horizon (at fixed event numbers, so every way of folding the log prunes
        alike). The journal keeps the pairs forgotten, so a correction can still roll
        back across it; a ladder with series journals nothing."""
        settings = self.settings
        cutoff = self.at - settings.farm_days * DAY - FARM_SLACK
        farm = self.farm
        gone: dict[tuple[PlayerId, PlayerId], list[Timestamp]] = {}
        for pair in self.farm_due.pop_until(cutoff):
            times = farm.get(pair)
            if times is not None and times[-1] <= cutoff:
                gone[pair] = farm.pop(pair)
        if gone and self.undo and self.undo[-1].seq == self.seq:
            self.undo[-1].pruned = gone
        if self.series_due and settings.series_hours is not None:
            over = self.at - settings.series_hours * HOUR - FARM_SLACK
            series = self.series
            for pair in self.series_due.pop_until(over):
                kept = series.get(pair)
                if kept is not None and kept.first_at <= over:
                    del series[pair]

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


def unrated_note(settings: Settings, rated: bool, moves: int | None) -> str:
    """Why the report or the game's length leaves a match unrated ('' if neither)."""
    if not rated:
        return UNRATED_NOTE
    if too_short(settings, moves):
        return encode(t("note.too_short", count=settings.min_moves or 0))
    return ""


def too_short(settings: Settings, moves: int | None) -> bool:
    """Whether a game of `moves` moves (None: not given) is too short to be rated."""
    return settings.min_moves is not None and moves is not None and moves < settings.min_moves


# The rules `pair_rule` names, in words.
PAIR_RULES = {"anti-farming": N_("rule.anti_farming"), "the series": N_("rule.series")}


def pair_rule(settings: Settings, result: Result) -> str:
    """The rule that counts this rated game by its pair's earlier games ('anti-farming',
    'the series'), or '' where none does. The standings keep those games only
    `FARM_SLACK` past the rule's window, so such a game must be confirmed within
    `LATEST_CONFIRMATION_DAYS` of being played to be counted right."""
    if not result.is_duel or not result.rated or too_short(settings, result.moves):
        return ""
    if settings.farm_limit is not None:
        return "anti-farming"
    if settings.series_hours is not None and not settings.is_position:
        return "the series"
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
