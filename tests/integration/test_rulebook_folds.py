"""The fast replay of the Glicko-2 and OpenSkill ladders (`Rulebook.fold`) gives exactly
what their rulebooks give one game at a time, to the bit: ratings, RDs, volatilities,
mu and sigma, counts, anti-farming's record, a period's waiting games, and what each
game did."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.domain.batch import (
    SHORTEST_RUN,
    Outcome,
    Row,
    duel_outcome,
    fold_at_once,
    fold_rows,
    plain_event,
)
from core.domain.calendar import DAY, local_day, local_days
from core.domain.events import Event, MatchConfirmed, MatchVoided, PlayerJoined
from core.domain.model import Match, Result
from core.domain.records import UserRef
from core.domain.rulebooks import glicko2, glicko_math
from core.domain.settings import Settings, preset
from core.domain.state import LadderState, replay
from storage.sql import tuning
from storage.sqlite.store import SqliteStore
from tests.support.chat import T0
from tests.support.sql_stores import as_killed


def _rows(rng: random.Random, players: int, count: int, first_id: int) -> list[Row]:
    """Plain games as the store streams them: draws, games reported unrated or too
    short, pairs playing often, games confirmed days late, gaps of days between."""
    rows, at = [], T0
    for i in range(count):
        a = rng.randrange(1, players + 1)
        b = rng.randrange(1, players)
        b = b + 1 if b >= a else b
        at += rng.choice([1, 60, 3600, 6 * 3600, 3 * DAY])
        late = rng.choice([0] * 8 + [DAY, 9 * DAY]) if rng.random() < 0.2 else 0
        rows.append((at, a, b, rng.random() < 0.15, rng.random() > 0.05,
                     rng.choice([None] * 5 + [1, 3, 40]), at - late, first_id + i))
    return rows


def _settings(rng: random.Random) -> Settings:
    name = rng.choice(["glicko2", "openskill"])
    changes: dict[str, object] = {
        "farm_limit": rng.choice([None, 1, 3]), "min_moves": rng.choice([None, 2]),
        "timezone": rng.choice(["UTC", "Europe/Amsterdam", "Australia/Lord_Howe"])}
    if name == "glicko2":
        changes["period"] = rng.choice(["game", "game", "day", "week"])
    return dataclasses.replace(preset(name), **changes)  # type: ignore[arg-type]


def _ladder(settings: Settings, players: int) -> LadderState:
    # Player 2 never joined: both folds keep them as a non-member.
    return replay(settings, [PlayerJoined(T0, p) for p in range(1, players + 1) if p != 2])


def _one_by_one(state: LadderState, rows: list[Row]) -> list[Outcome]:
    return [duel_outcome(state.apply(plain_event(row)), row[1], row[2]) for row in rows]


@pytest.mark.parametrize("seed", range(24))
def test_a_run_folds_as_one_by_one(seed: int) -> None:
    rng = random.Random(seed)
    settings = _settings(rng)
    players = rng.choice([2, 3, 8, 40, 300])
    earlier = _rows(rng, players, rng.randrange(0, 300), 1)
    run = _rows(rng, players, rng.randrange(SHORTEST_RUN, 1500), len(earlier) + 1)
    single, batched = _ladder(settings, players), _ladder(settings, players)
    _one_by_one(single, earlier)
    _one_by_one(batched, earlier)
    want = _one_by_one(single, run)
    told: list[Outcome] = []
    fold_rows(batched, run, told if seed % 2 else None)
    assert batched.fingerprint() == single.fingerprint()
    assert (batched.seq, batched.at) == (single.seq, single.at)
    assert batched.pending == single.pending
    if seed % 2:
        assert told == want


def test_the_fold_rates_a_run_at_once() -> None:
    """The run is not simply folded one by one behind the fold's back."""
    state = _ladder(preset("glicko2"), 50)
    run = _rows(random.Random(1), 50, 400, 1)
    assert fold_at_once(state, run, None) == len(run)
    assert state.seq == 49 + len(run)


@settings(max_examples=80, deadline=None)
@given(st.lists(st.tuples(st.floats(800, 2200), st.floats(30, 350), st.floats(0.03, 0.09),
                          st.floats(800, 2200), st.floats(30, 350), st.floats(0.03, 0.09),
                          st.sampled_from([glicko_math.NEVER, 60.0, 99.0, 100.0]),
                          st.sampled_from([glicko_math.NEVER, 0.0, 97.0]),
                          st.sampled_from([0.0, 0.5, 1.0])),
                min_size=1, max_size=40),
       st.sampled_from([0.3, 0.5, 1.2]))
def test_a_game_rated_among_many_is_rated_as_alone(
        played: list[tuple[float, ...]], tau: float) -> None:
    """numpy's exp and log need not round as math's do, but they treat each element
    alike in an array of any length (the level fold's premise), and as on one float
    (`glicko2.game`, the one-by-one fold's form): all three agree to the bit."""
    ladder = dataclasses.replace(preset("glicko2"), tau=tau)
    cols = list(zip(*played, strict=True))
    count, day = len(played), 100.0
    rating, rd, vol = (np.array(cols[0] + cols[3]), np.array(cols[1] + cols[4]),
                       np.array(cols[2] + cols[5]))
    last, score = np.array(cols[6] + cols[7]), np.array(cols[8] + tuple(1 - s for s in cols[8]))
    together = glicko_math.games(rating, rd, vol, last, np.full(2 * count, day), score, ladder)
    for i, (ra, rda, va, rb, rdb, vb, la, lb, points) in enumerate(played):
        pick = [i, i + count]
        alone = glicko_math.games(rating[pick], rd[pick], vol[pick], last[pick],
                              np.full(2, day), score[pick], ladder)
        one = glicko2.game(glicko2.Glicko(ra, rda, va), la, glicko2.Glicko(rb, rdb, vb), lb,
                           day, points, ladder)
        for many, few in zip(together, alone, strict=True):
            assert many[pick].tolist() == few.tolist()
        assert [tuple(x[pick].tolist()) for x in together] == \
            [(one[0].rating, one[1].rating), (one[0].rd, one[1].rd),
             (one[0].volatility, one[1].volatility)]


@pytest.mark.parametrize("zone", ["UTC", "Europe/Amsterdam", "America/Havana",
                                  "Australia/Lord_Howe", "Asia/Kathmandu", "Pacific/Apia"])
def test_local_days_at_once_are_each_local_day(zone: str) -> None:
    """Across clock changes (Havana's at midnight, Lord Howe's half hour, Apia's skipped
    day in 2011) every instant's day is the one `local_day` gives."""
    rng = random.Random(zone)
    times = sorted(rng.randrange(1293000000, 1800000000) for _ in range(3000))
    times += [t + s for t in (1320548400, 1325239200, 1301187600) for s in range(-7200, 7200, 97)]
    got = local_days(np.asarray(times, dtype=np.int64), zone).tolist()
    assert got == [local_day(t, zone) for t in times]


@pytest.mark.parametrize("name", ["glicko2", "openskill"])
async def test_a_stored_ladder_journals_its_runs_and_corrects_through_them(
        name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Loaded again, a ladder journals its newest games in runs folded at once; a
    correction inside such a run rolls back to the run's start and folds again, one
    further back replays from a snapshot: each time the standings equal the log folded
    one event at a time."""
    monkeypatch.setattr(tuning, "UNDO_EVENTS", 700)  # the newest 700 journaled on loading
    settings = preset(name)
    rng = random.Random(5)
    events: list[Event] = []

    def opened() -> SqliteStore:
        return SqliteStore(tmp_path / "runs.db", snapshot_every=300, snapshot_per_player=0)

    async with opened() as store:
        def build(repo: Any) -> tuple[int, list[int]]:
            ladder = repo.add_ladder("c", "main", settings, T0, None)
            ids = [repo.add_player(ladder.id, UserRef(f"c:{i}", f"p{i}")).id for i in range(30)]
            events.extend(PlayerJoined(T0, p) for p in ids)
            repo.append(ladder.id, events)
            matches = []
            for at, a, b, drawn, rated, moves, played, mid in _rows(rng, 30, 1200, 1):
                result = Result(((ids[a - 1],), (ids[b - 1],)), drawn, None, moves, rated)
                events.append(MatchConfirmed(at, Match(mid, played, result)))
                repo.append(ladder.id, [events[-1]])
                matches.append(mid)
            return int(ladder.id), matches

        ladder, matches = await store.run(build)
        as_killed(store)  # (a replay on loading, not the head)
    async with opened() as store:
        def check(repo: Any) -> None:
            repo.conn.execute("DELETE FROM snapshots WHERE seq > 600")  # 630 to fold
            state = repo.state(ladder)
            assert state.fingerprint() == replay(settings, events).fingerprint()
            assert any(entry.last for entry in state.undo or ())  # runs, journaled
            at = events[-1].at
            for match in (matches[-100], matches[-600], matches[200]):  # recent to old
                at += 60
                events.append(MatchVoided(at, match, "mod", "x"))
                repo.append(ladder, [events[-1]])
                want = replay(settings, events)
                assert repo.state(ladder).fingerprint() == want.fingerprint()
                for p, player in want.players.items():
                    assert repo.player_state(ladder, p).rating == player.rating

        await store.run(check)
