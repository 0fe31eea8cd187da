"""The standings cache keeps within its budget in bytes, and weighs standings near what
they hold (tracemalloc's count of the memory they allocated)."""

from __future__ import annotations

import gc
import tracemalloc
from collections import deque

import pytest

from core.domain.events import MatchConfirmed, PlayerJoined
from core.domain.model import Match, Result
from core.domain.settings import preset
from core.domain.state import LadderState
from storage.sql import tuning
from storage.sql.cache import LadderCache, weigh
from storage.sql.history import Cached

T0 = 1_767_607_200


def _standings(book: str, players: int, games: int) -> LadderState:
    state = LadderState(preset(book))
    for p in range(players):
        state.apply(PlayerJoined(T0, p), {})
    state.undo = deque(maxlen=tuning.UNDO_EVENTS)
    for k in range(games):
        a, b = k % players, (k * 7 + 1) % players
        b = b if b != a else (a + 1) % players
        at = T0 + 60 * (k + 1)
        state.apply(MatchConfirmed(at, Match(k + 1, at, Result(((a,), (b,)), False, None,
                                                                None, True))), {})
    return state


@pytest.mark.parametrize("book", ["duel", "glicko2", "openskill"])
@pytest.mark.parametrize("players,games", [(12, 300), (2000, 0), (500, 2000)])
def test_standings_weigh_about_what_they_hold(book: str, players: int, games: int) -> None:
    gc.collect()
    tracemalloc.start()
    try:
        state = _standings(book, players, games)
        held = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert 0.5 * held <= weigh(state) <= 2 * held, (weigh(state), held)


def _cached(players: int) -> Cached:
    return Cached(_standings("duel", players, 0), {})


def test_the_least_recently_used_go_first_and_the_newest_stays() -> None:
    one = weigh(_cached(100).state)
    cache = LadderCache(budget=3 * one)
    for ladder in (1, 2, 3):
        cache.put(ladder, _cached(100))
    assert cache.get(1) is not None  # used: now the most recent
    cache.put(4, _cached(100))
    assert cache.get(2) is None and all(cache.get(n) for n in (1, 3, 4))
    assert cache.weight == 3 * one
    cache.put(5, _cached(1000))  # bigger than the budget: served, alone
    assert len(cache) == 1 and cache.get(5) is not None


def test_a_ladder_grown_by_its_commands_is_weighed_again() -> None:
    cache = LadderCache(budget=10**9)
    cached = _cached(12)
    cache.put(1, cached)
    before = cache.weight
    for p in range(12, 112):
        cached.state.apply(PlayerJoined(T0, p), {})
    cache.reweigh({1})
    assert cache.weight - before == pytest.approx(100 * (tuning.PLAYER_BYTES
                                                          + tuning.DUEL_ENTRY_BYTES), rel=0.5)
    cache.forget({1})
    assert cache.weight == 0 and len(cache) == 0


def test_dropped_standings_wait_for_their_heads_within_another_budget() -> None:
    """What the budget drops waits for its head to be kept (storage/sql/heads.py), the
    oldest let go of for good past another budget; a store that only reads keeps none."""
    one = weigh(_standings("duel", 12, 0))
    cache = LadderCache(2 * one)
    for ladder in range(1, 8):
        cache.put(ladder, Cached(_standings("duel", 12, 0), {}))
    assert [ladder for ladder, _ in cache.dropped()] == [4, 5]  # 1-5 dropped; 1-3 let go
    assert cache.dropped() == []
    cache.forget({7})
    assert [ladder for ladder, _ in cache.dropped(everything=True)] == [6]  # all held, too
    assert len(cache) == 0 and cache.weight == 0
    reader = LadderCache(one)
    reader.keeps = False
    for ladder in range(1, 4):
        reader.put(ladder, Cached(_standings("duel", 12, 0), {}))
    assert reader.dropped() == []
