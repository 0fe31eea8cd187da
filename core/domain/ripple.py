"""A far-back correction re-derived by following what it changed, not by replaying.

Voiding or changing an old one-on-one match moves its two players' ratings; each later
game of a moved player can move the opponent, and so on. In integer Elo the ripple soon
dies out: measured on the benchmark ladder (10,000 players), voiding match 500,000 of a
million leaves 30 players with a different rating. So instead of folding the 500,000
later events again, `ripple` folds again only the games of players whose rating differs
from what the stored history says, and takes everything else from that history: the
ratings their opponents had, their season gains and counts.

It gives up (None) wherever the history cannot say enough, and the caller replays from a
snapshot as before: a ladder that is not `lean` or decays, a settings change since, an
adjustment, a membership change or a corrected or many-sided game of a moved player, a
history that does not match the standings (and, in storage: a match whose pair played
other games, which anti-farming could then rate differently, or history still waiting
for `restate`). Nothing is changed before it has decided.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Mapping

from core.domain import pairs
from core.domain.calendar import DAY
from core.domain.events import (
    CORRECTIONS,
    ChallengeAccepted,
    DecayDay,
    Event,
    MatchConfirmed,
    PlayerJoined,
    PlayerLeft,
    RatingAdjusted,
    SeasonClosed,
)
from core.domain.model import Correction, PlayerId, pair_key
from core.domain.pairs import FARM_SLACK
from core.domain.ripple_history import (
    EventRow,
    GiveUp,
    History,
    Lean,
    Lookup,
    Original,
    Rippled,
    lean,
)
from core.domain.rulebooks.rated import duel_ratings
from core.domain.standing import PlayerState
from core.domain.state import LadderState
from core.domain.tables import HallEntry, TableRow, gain_order, gain_table, hall_entries


def ripple(state: LadderState, original: Original, prior: Correction | None,
           correction: Correction, events: Iterable[EventRow], lookup: Lookup,
           history: History, corrections: Mapping[int, Correction]) -> Rippled | None:
    """Re-derive `state` (the standings before the correction event was folded) for a new
    final word on `original`, from the events after it; None when it cannot."""
    try:
        return _Ripple(state, original, history, corrections).run(
            prior, correction, events, lookup)
    except GiveUp:
        return None


class _Ripple:
    def __init__(self, state: LadderState, original: Original, history: History,
                 corrections: Mapping[int, Correction]) -> None:
        self.state, self.c, self.history, self.corrections = state, original, history, corrections
        self.settings = state.settings
        # rating now, for every player whose rating differs from the history's
        self.cur: dict[PlayerId, float] = {}
        # per player: seq -> new (after - before) of a refolded match, None when unrated
        self.overrides: dict[PlayerId, dict[int, float | None]] = {}
        self.rated_delta: dict[PlayerId, int] = {}  # rated games gained (or lost) for good
        self.in_season: set[PlayerId] = set()  # players refolded since the last close
        # per player: (seq, rating after it, or None where it is the history's again)
        self.timeline: dict[PlayerId, list[tuple[int, float | None]]] = {}
        self.membership: set[PlayerId] = set()  # players who joined or left since
        self.frozen: dict[str, tuple[TableRow, ...]] = {}
        self._first: dict[PlayerId, list[int]] = {}  # see `_rated_by`
        self.uncounted = False  # the match counted before, and no longer does
        self.counted = False  # ...or the other way round
        self.hall: dict[str, tuple[HallEntry, ...]] = {}

    def run(self, prior: Correction | None, correction: Correction,
            events: Iterable[EventRow], lookup: Lookup) -> Rippled:
        state = self.state
        if not state.lean or state.series or state.order or self.settings.decays:
            raise GiveUp
        done = Rippled(before={})
        counts = self._correct(prior, correction, done)
        cur, corrections, refold = self.cur, self.corrections, self._refold
        # Hundreds of thousands of events, nearly all plain games of players the ripple
        # has not reached: those cost a look-up each.
        for seq, x, y in events:
            if x is None:
                event = lookup(seq)[3]
                assert event is not None
                self._event(seq, event)
            elif x in cur or y in cur:
                assert y is not None
                at, match, flags, _ = lookup(seq)
                if match in corrections:
                    raise GiveUp  # corrected too: its stored outcome is not the log's
                refold(seq, at, match, x, y, bool(flags & 1), done)
        if self.membership & (self.overrides.keys() | self.cur.keys()):
            raise GiveUp
        self._finish(counts, done)
        return done

    # ------------------------------------------------------------------ the match itself

    def _correct(self, prior: Correction | None, correction: Correction,
                 done: Rippled) -> dict[PlayerId, list[int]]:
        """Fold the corrected match anew; returns each player's count changes (games,
        wins, losses, draws, rated wins)."""
        c, state = self.c, self.state
        players = {c.a, c.b}
        new = None if correction.voided or correction.result is None else \
            lean(correction.result, players)
        if new is None and not correction.voided:
            raise GiveUp
        stored = self.history.outcome(c.seq)
        counts = {p: [0, 0, 0, 0, 0] for p in players}
        if prior is not None and prior.voided:  # it counted for nothing: no stored changes
            if stored is not None:
                raise GiveUp
            old_rated = False
            sides = {}
            for p in players:
                rating = self.history.rating_before(p, c.seq)
                rating = self.settings.start if rating is None else rating
                sides[p] = (rating, rating)
        else:
            old = (c.a, c.b, c.draw, c.rated, c.moves) if prior is None or \
                prior.result is None else lean(prior.result, players)
            if old is None or stored is None or stored[1].keys() != players:
                raise GiveUp
            old_rated, sides = stored
            self._count(counts, old, old_rated, -1)
            self.uncounted = new is None
        if new is None:
            done.voided = True
            after = {p: sides[p][0] for p in players}
            for p in players:
                self._override(p, c.seq, None)
        else:
            winner, loser, draw, rated, moves = new
            scratch = LadderState(self.settings, season=state.season)
            scratch.players = {p: PlayerState(rating=sides[p][0]) for p in players}
            now_rated, note, rw, nw, rl, nl = scratch.apply_duel(
                c.played_at, winner, loser, draw, rated, moves, c.played_at)
            self._count(counts, new, now_rated, 1)
            self.counted = prior is not None and prior.voided
            after = {winner: nw, loser: nl}
            done.outcomes[c.seq] = (c.at, (c.match, winner, loser, now_rated, note, rw, nw, rl,
                                           nl))
            done.effect = (now_rated, note)
            for p in players:
                self._override(p, c.seq, after[p] - sides[p][0] if now_rated else None)
        if old_rated != (new is not None and done.effect is not None and done.effect[0]):
            for p in players:
                self.rated_delta[p] = 1 if not old_rated else -1
        for p in players:
            self._moved(p, c.seq, after[p], sides[p][1])
        return counts

    def _moved(self, player: PlayerId, seq: int, new: float, old: float) -> None:
        """Note a player's rating after event `seq`, and whether it differs."""
        if new != old:
            self.cur[player] = new
            self.timeline.setdefault(player, []).append((seq, new))
        elif self.cur.pop(player, None) is not None:
            self.timeline[player].append((seq, None))

    @staticmethod
    def _count(counts: dict[PlayerId, list[int]], result: Lean, rated: bool,
               sign: int) -> None:
        winner, loser, draw, _, _ = result
        for p in (winner, loser):
            counts[p][0] += sign
            counts[p][3 if draw else 1 if p == winner else 2] += sign
        if rated and not draw:
            counts[winner][4] += sign

    def _override(self, player: PlayerId, seq: int, delta: float | None) -> None:
        self.overrides.setdefault(player, {})[seq] = delta
        self.in_season.add(player)

    # ------------------------------------------------------------------ the later events

    def _event(self, seq: int, event: Event) -> None:
        """Any event but a plain one-on-one match."""
        cur = self.cur
        if isinstance(event, MatchConfirmed):
            if cur.keys() & set(event.match.result.players):
                raise GiveUp  # a game of many sides (or a challenge) of a moved player
        elif isinstance(event, SeasonClosed):
            self._close(seq, event.season)
        elif isinstance(event, (PlayerJoined, PlayerLeft)):
            self.membership.add(event.player)
        elif isinstance(event, RatingAdjusted):
            if event.player in cur:
                raise GiveUp
        elif not isinstance(event, (*CORRECTIONS, ChallengeAccepted, DecayDay)):
            raise GiveUp  # a settings change

    def _refold(self, seq: int, at: int, match: int | None, x: PlayerId, y: PlayerId,
                draw: bool, done: Rippled) -> None:
        if pair_key(x, y) == pair_key(self.c.a, self.c.b):
            raise GiveUp
        stored = self.history.outcome(seq)
        if stored is None or stored[1].keys() != {x, y}:
            raise GiveUp
        rated, sides = stored
        (rx, old_x), (ry, old_y) = sides[x], sides[y]
        rx, ry = self.cur.get(x, rx), self.cur.get(y, ry)
        # Whether it is rated does not change: that hangs on the pair's games (anti-
        # farming), its moves and its report, none of which a rating moves.
        nx, ny = duel_ratings(self.settings, rx, ry, draw) if rated else (rx, ry)
        if (rx, nx, ry, ny) != (*sides[x], *sides[y]):
            done.outcomes[seq] = (at, (match, x, y, rated, "", rx, nx, ry, ny))
        # A season's gain changes only where a game's exchange does; most moved ratings
        # exchange the same points (integer Elo), and their seasons need no second look.
        if rated and nx - rx != old_x - sides[x][0]:
            self._override(x, seq, nx - rx)
        if rated and ny - ry != old_y - sides[y][0]:
            self._override(y, seq, ny - ry)
        self._moved(x, seq, nx, old_x)
        self._moved(y, seq, ny, old_y)

    # ------------------------------------------------------------------ seasons

    def _season(self, player: PlayerId, start: int, end: int) -> tuple[float, int, float, int]:
        """(old gain, old games, new gain, new games) of a player's season (start, end),
        summed in event order as the fold sums them."""
        old_gain, old_games, gain, games = 0.0, 0, 0.0, 0
        stored = self.history.rated_deltas(player, start, end)
        for _, delta in stored:
            old_gain += delta
            old_games += 1
        merged: dict[int, float | None] = dict(stored)
        merged.update((seq, d) for seq, d in self.overrides.get(player, {}).items()
                      if start < seq < end)
        for seq in sorted(merged):
            new = merged[seq]
            if new is not None:
                gain += new
                games += 1
        return old_gain, old_games, gain, games

    def _close(self, seq: int, label: str) -> None:
        settings, state = self.settings, self.state
        affected = self.in_season | {p for p, d in self.rated_delta.items() if d}
        self.in_season = set()
        if not affected:
            return
        if affected & self.membership:
            raise GiveUp
        table = state.frozen.get(label)
        if table is None:
            raise GiveUp
        listed = {row.player: row for row in table}
        start = self.history.season_start(seq)
        rows: list[tuple[PlayerId, float, int, int]] = []
        for p in affected:
            old_gain, old_games, gain, games = self._season(p, start, seq)
            row = listed.get(p)
            if row is not None and (row.value, row.rated_games) != (old_gain, old_games):
                raise GiveUp  # the history and the frozen table disagree
            if state.players[p].member:
                rows.append((p, gain, games, self._rated_by(p, seq)))
        # The rows of the others stand, in order: the affected ones are merged in.
        new = tuple(heapq.merge((row for row in table if row.player not in affected),
                                gain_table(settings, rows, settings.season_min_games),
                                key=gain_order))
        if new != table:
            self.frozen[label] = new
            self.hall[label] = tuple(hall_entries(settings, label, list(new)))

    # ------------------------------------------------------------------ the standings

    def _finish(self, counts: dict[PlayerId, list[int]], done: Rippled) -> None:
        """Check the history against the standings for every changed player, then apply:
        the players, the frozen tables, and the journal of the newest events (its prior
        states of a changed player are those of the new derivation)."""
        state = self.state
        end = state.seq + 1
        final: dict[PlayerId, PlayerState] = {}
        for p in self.overrides.keys() | self.timeline.keys():
            new = self._then(p, state.players[p], end, counts.get(p))
            if new != state.players[p]:
                final[p] = new
        journal = []
        for entry in state.undo or ():
            priors = [(p, self._then(p, prior, entry.seq, counts.get(p))
                       if prior is not None and (p in self.overrides or p in self.timeline)
                       else prior)
                      for p, prior in entry.players]
            journal.append((entry, priors))
        # The pair played no other game, so its anti-farming record, while kept, is this
        # game's alone: it goes if the game is no longer rated.
        pair = pair_key(self.c.a, self.c.b)
        kept = state.farm.get(pair)
        if kept is not None and kept != [self.c.played_at]:
            raise GiveUp
        # Rated only now: recorded until the first prune past its horizon, if any. (What
        # the journal says a prune forgot need not change: a rollback across the prune
        # replays it, and only the pair's own games, which it has none of, read it.)
        recorded = self.rated_delta.get(self.c.a, 0) > 0 and \
            self.settings.farm_limit is not None and not self._forgotten(end)
        # decided: apply
        if recorded:
            state.farm[pair] = [self.c.played_at]
            state.farm_due.push(self.c.played_at, pair)
        if self.rated_delta.get(self.c.a, 0) < 0:  # no record of the pair now
            state.farm.pop(pair, None)  # (its queued prune finds nothing, as after any)
        for entry, priors in journal:
            entry.players = priors
        for p, new in final.items():
            done.before[p] = state.players[p]
            state.players[p] = new
        for label, table in self.frozen.items():
            state.frozen[label] = table
            done.frozen.append(label)
        if self.hall:
            state.hall = [e for e in state.hall if e.season not in self.hall] + \
                [e for entries in self.hall.values() for e in entries]
            order = {label: i for i, label in enumerate(state.frozen)}
            state.hall.sort(key=lambda e: (order.get(e.season, len(order)), e.place))

    def _forgotten(self, end: int) -> bool:
        """Whether a prune before event `end` would have forgotten a record of the
        corrected game. The fold prunes at every FARM_PRUNE_EVERY-th event, by the latest
        time it has seen; the last prune forgets whatever an earlier one would have."""
        every, settings = pairs.FARM_PRUNE_EVERY, self.settings
        last = (end - 1) // every * every
        if last <= self.c.seq:
            return False

        def past(at: float) -> bool:
            return self.c.played_at <= at - settings.farm_days * DAY - FARM_SLACK

        # The latest time seen by the last prune is at least that event's own, and at
        # most the latest of all; only between the two it takes a read of them all.
        if past(self.history.at(last)):
            return True
        if not past(self.state.at):
            return False
        return past(self.history.latest(last))

    def _rated_by(self, player: PlayerId, seq: int) -> int:
        """The player's rated games before event `seq` in the new derivation, as far as
        calibration cares: exactly, up to one past the calibration count."""
        first = self._first.get(player)
        if first is None:
            first = self._first[player] = self.history.first_rated(
                player, self.settings.calibration + 1)
        return sum(1 for s in first if s < seq) + \
            (self.rated_delta.get(player, 0) if self.c.seq < seq else 0)

    def _then(self, player: PlayerId, old: PlayerState, seq: int,
              counts: list[int] | None) -> PlayerState:
        """A player's state just before event `seq` in the new derivation, from the old
        one (`old`)."""
        new = old.copy()
        start = self.history.season_start(seq)
        if any(start < s < seq for s in self.overrides.get(player, {})):
            old_gain, old_games, new.season_gain, new.season_games = \
                self._season(player, start, seq)
            if (old_gain, old_games) != (old.season_gain, old.season_games):
                raise GiveUp  # the history is not the standings'
        for s, rating in reversed(self.timeline.get(player, [])):
            if s < seq:
                if rating is not None:
                    new.rating = rating
                break
        new.rated_games += self.rated_delta.get(player, 0)
        if counts is not None:  # one of the corrected match's two players
            played = self.c.played_at
            if self.uncounted and old.last_played == played:
                raise GiveUp  # their game before it is not in the standings
            if self.counted and (old.last_played is None or old.last_played < played):
                new.last_played = played
            games, wins, losses, draws, rated_wins = counts
            new.games += games
            new.wins += wins
            new.losses += losses
            new.draws += draws
            new.rated_wins += rated_wins
        return new
