"""The head of a ladder's standings: kept when a process lets go of them, and read instead
of a replay of the log when they are needed again.

Standings are the fold of the whole log. The stored projection holds most of them after
every commit: the players table, the ladder's row (settings, season, last decay), the
closed seasons' tables and the Hall of Fame. The rest is small but not stored as it moves
(the open series, the games waiting for a rating period, accepted challenges, a position
ladder's order, each pair's recent rated games): that is the head, written when standings
leave the cache (storage/sql/cache.py) or the store closes. It is valid while the log has
as many events as when it was written; after a crash, or another process's write, the log
is replayed from a snapshot as before.

A big ladder's standings are read in part (`Partial`): the players and pair each event
reads (`LadderState.reach`) as it comes, and everything at the first event that may read
any (a decay day, a season's close, new settings, a correction, the anti-farming prune,
any event of a position ladder) and before the standings are handed out whole.
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field

from core.domain import pairs
from core.domain.due import DueQueue
from core.domain.events import CORRECTIONS, Event
from core.domain.model import PlayerId
from core.domain.state import LadderState
from storage.sql import tuning
from storage.sql.codec import PLAYER_COLUMNS, dumps, head_to_json, state_from_head, stored_player
from storage.sql.history import Cached
from storage.sql.part import RepoPart

Pair = tuple[PlayerId, PlayerId]

_PLAYER = f"SELECT id, {PLAYER_COLUMNS} FROM players WHERE ladder=?"


@dataclass
class Partial:
    """What standings read in part hold of the stored ones."""

    players: int  # the players the head holds
    pairs: set[Pair] = field(default_factory=set)  # pairs read, found or not
    absent: set[PlayerId] = field(default_factory=set)  # players looked for, not held
    # The head's players, once one is looked for: a player's row is written before the
    # event that adds them to the standings (a join), so a row alone is not a player.
    ids: set[PlayerId] | None = None

    def held(self, state: LadderState) -> int:
        """The players the whole standings hold now (those the fold added too)."""
        return self.players + sum(p in state.players for p in self.absent)


class Heads(RepoPart):
    """Reading standings from their head, and keeping heads (the repository supplies the
    rest)."""

    def _from_head(self, ladder: int, seq: int) -> Cached | None:
        """The standings from the ladder's head, if it is of the log's `seq` events; read
        in part if the ladder is big."""
        row = self._one("SELECT seq, body FROM heads WHERE ladder=?", (ladder,))
        if row is None or row[0] != seq:
            return None
        settings = self._ladder_settings(ladder)
        state, players = state_from_head(row[1], settings, {}, {},
                                         lambda labels: self._frozen(ladder, labels))
        state.undo = deque(maxlen=tuning.UNDO_EVENTS)
        cached = Cached(state, self._corrections(ladder), Partial(players))
        if players < tuning.PARTIAL_FROM or settings.is_position:
            self._complete(ladder, cached)
        return cached

    def _ready(self, ladder: int, cached: Cached, event: Event) -> None:
        """Read what folding `event` reads into standings read in part (all of them where
        it may read any)."""
        partial, state = cached.partial, cached.state
        if partial is None:
            return
        whole = state.settings.is_position or (state.seq + 1) % pairs.FARM_PRUNE_EVERY == 0 \
            or isinstance(event, CORRECTIONS)  # (a correction re-derives from the whole)
        reach = None if whole else state.reach(event, cached.corrections)
        if reach is None:
            self._complete(ladder, cached)
            return
        wanted, pair = reach
        missing = [p for p in wanted if p not in state.players and p not in partial.absent]
        if missing:
            if partial.ids is None:
                partial.ids = set(self._head_ids(ladder))
            held = [p for p in missing if p in partial.ids]
            partial.absent.update(p for p in missing if p not in partial.ids)
            if held:
                state.players.update((row[0], stored_player(row[1:])) for row in self._all(
                    f"{_PLAYER} AND id IN ({', '.join('?' * len(held))})", (ladder, *held)))
        if pair is not None and pair not in partial.pairs:
            partial.pairs.add(pair)
            row = self._one("SELECT times FROM head_pairs WHERE ladder=? AND low=? AND high=?",
                            (ladder, *pair))
            if row is not None:
                times = state.farm[pair] = json.loads(row[0])
                state.farm_due.push(times[-1], pair)

    def _complete(self, ladder: int, cached: Cached) -> None:
        """Standings read in part, read whole: every stored player, in the standings'
        order, and every pair (what the fold changed since is kept)."""
        partial, state = cached.partial, cached.state
        if partial is None:
            return
        ids = self._head_ids(ladder)
        held = state.players
        stored = {row[0]: row for row in self._all(_PLAYER, (ladder,)) if row[0] not in held}
        whole = {p: held[p] if p in held else stored_player(stored[p][1:]) for p in ids}
        whole.update((p, s) for p, s in held.items() if p not in whole)  # (added since)
        state.players = whole
        for low, high, times in self._all(
                "SELECT low, high, times FROM head_pairs WHERE ladder=?", (ladder,)):
            if (low, high) not in partial.pairs:
                state.farm[(low, high)] = json.loads(times)
        state.farm_due = DueQueue.of((times[-1], pair) for pair, times in state.farm.items())
        cached.partial = None

    def _head_ids(self, ladder: int) -> list[PlayerId]:
        ids: list[PlayerId] = json.loads(
            self._one("SELECT ids FROM heads WHERE ladder=?", (ladder,))[0])
        return ids

    def held_players(self, cached: Cached) -> int:
        """The players of the whole standings."""
        partial = cached.partial
        return len(cached.state.players) if partial is None else partial.held(cached.state)

    def keep_heads(self, held: Iterable[tuple[int, Cached]]) -> int:
        """Write the heads of these standings where the log is still theirs and the stored
        head is not (a ladder another process holds is left alone); how many."""
        kept = 0
        for ladder, cached in held:
            seq = cached.state.seq
            if not self.store.try_lock_ladder(self, ladder) \
                    or self.store.known(self, "seq", ladder) != seq:
                continue
            row = self._one("SELECT seq FROM heads WHERE ladder=?", (ladder,))
            if row is None or row[0] != seq:
                self._keep_head(ladder, cached)
                kept += 1
        return kept

    def _keep_head(self, ladder: int, cached: Cached) -> None:
        state, partial = cached.state, cached.partial
        if partial is None:
            ids = list(state.players)
            self.conn.execute("DELETE FROM head_pairs WHERE ladder=?", (ladder,))
            played: Iterable[Pair] = state.farm
        else:  # the stored head's players, then those the fold added since
            ids = self._head_ids(ladder)
            known = set(ids)
            ids += [p for p in state.players if p not in known]
            played = [pair for pair in partial.pairs if pair in state.farm]
        self.conn.executemany(
            "INSERT INTO head_pairs (ladder, low, high, times) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (ladder, low, high) DO UPDATE SET times=excluded.times",
            [(ladder, low, high, dumps(state.farm[(low, high)])) for low, high in played])
        self.conn.execute(
            "INSERT INTO heads (ladder, seq, body, ids) VALUES (?, ?, ?, ?) ON CONFLICT "
            "(ladder) DO UPDATE SET seq=excluded.seq, body=excluded.body, ids=excluded.ids",
            (ladder, state.seq, head_to_json(state, len(ids)), dumps(ids)))
