"""The fold's journal: what each event folded since the last barrier changed, so that
a recent correction rolls the standings back instead of replaying from a snapshot.
"""

from __future__ import annotations

from collections.abc import Mapping

from core.domain.events import (
    CORRECTIONS,
    Event,
    MatchConfirmed,
    PlayerJoined,
    PlayerLeft,
    RatingAdjusted,
)
from core.domain.model import Correction, PlayerId, pair_key
from core.domain.pairs import PairMemory
from core.domain.standing import PlayerState, Undo


class Journaled(PairMemory):
    """Standings that may journal what they fold (`undo` set) and roll it back."""

    __slots__ = ()

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
        if not self.rulebook.journals(self.settings):
            return None
        reach = self.reach(event, corrections)
        return None if reach is None else self._entry(*reach)

    def reach(self, event: Event, corrections: Mapping[int, Correction]
              ) -> tuple[tuple[PlayerId, ...], tuple[PlayerId, PlayerId] | None] | None:
        """The players, and the pair whose recent games anti-farming keeps, that folding
        `event` reads and changes of these standings; None where it may read any (a
        barrier: a decay day, a season's close, new settings, a challenge's rungs)."""
        if isinstance(event, MatchConfirmed):
            correction = corrections.get(event.match.id)
            result = correction.result if correction is not None and correction.result \
                else event.match.result
            # A voided match's players too: restoring it rolls back to here, and their
            # states as they were are what tells a store who the restored match moved.
            voided = correction is not None and correction.voided
            pair = pair_key(result.sides[0][0], result.sides[1][0]) \
                if not voided and self.settings.farm_limit is not None and result.is_duel \
                else None
            return result.players, pair
        if isinstance(event, (PlayerJoined, PlayerLeft, RatingAdjusted)):
            return (event.player,), None
        if isinstance(event, CORRECTIONS):
            return (), None
        return None

    def _entry(self, pids: tuple[PlayerId, ...],
               pair: tuple[PlayerId, PlayerId] | None) -> Undo:
        players = self.players
        prior = [(p, s.copy() if (s := players.get(p)) is not None else None) for p in pids]
        farm = None
        if pair is not None:
            times = self.farm.get(pair)
            farm = (pair, tuple(times) if times is not None else None)
        return Undo(self.seq + 1, self.at, self.season, prior, farm)
