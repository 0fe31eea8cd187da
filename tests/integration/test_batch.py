"""Folding runs of plain one-on-one matches at once (`core.domain.batch`) gives exactly what
folding them one by one gives: ratings, counts, anti-farming's record and its prunes."""

from __future__ import annotations

import dataclasses
import random
from collections import deque
from pathlib import Path
from typing import Any

import pytest

from core.domain import batch
from core.domain.batch import SHORTEST_RUN, fold_duels
from core.domain.calendar import DAY
from core.domain.events import (
    Event,
    MatchConfirmed,
    PlayerJoined,
    PlayerLeft,
    RatingAdjusted,
    collect_corrections,
)
from core.domain.model import Match, Result
from core.domain.pairs import FARM_PRUNE_EVERY
from core.domain.records import UserRef
from core.domain.settings import Settings, preset
from core.domain.state import LadderState, replay
from storage.postgres.store import PgStore
from storage.sql import tuning
from storage.sqlite.store import SqliteStore
from tests.support import postgres
from tests.support.chat import T0
from tests.support.sql_stores import as_killed

Row = tuple[int, int, int, bool, bool, int | None, int]


def _rows(rng: random.Random, players: int, count: int, start: int) -> list[Row]:
    """Plain matches as (at, winner, loser, draw, rated, moves, played): draws, games
    reported unrated or too short, pairs playing often, games confirmed days late."""
    rows, at = [], start
    for _ in range(count):
        a = rng.randrange(1, players + 1)
        b = rng.randrange(1, players)
        b = b + 1 if b >= a else b
        at += rng.choice([1, 60, 3600, 6 * 3600])
        late = rng.choice([0] * 8 + [DAY, 40 * DAY]) if rng.random() < 0.2 else 0
        rows.append((at, a, b, rng.random() < 0.15, rng.random() > 0.05,
                     rng.choice([None] * 5 + [1, 3, 40]), at - late))
    return rows


def _settings(rng: random.Random) -> Settings:
    duel = preset("duel")
    return rng.choice([
        duel,
        dataclasses.replace(duel, floor=None, farm_limit=rng.choice([1, 4])),
        dataclasses.replace(duel, farm_limit=None, min_moves=None),
        dataclasses.replace(preset("warlight"), whole=True, floor=rng.choice([None, 1000.0]),
                            farm_limit=rng.choice([None, 2])),
    ])


def _one_by_one(state: LadderState, rows: list[Row]) -> None:
    for row in rows:
        state.apply_duel(*row)


def _joined(settings: Settings, players: int, rows: list[Row]) -> LadderState:
    # Player 2 never joined: the fold keeps them as a non-member, as one by one.
    state = replay(settings, [PlayerJoined(T0, p) for p in range(1, players + 1) if p != 2])
    _one_by_one(state, rows)
    return state


@pytest.mark.parametrize("seed", range(40))
def test_a_run_folds_as_one_by_one(seed: int) -> None:
    rng = random.Random(seed)
    settings = _settings(rng)
    players = rng.choice([2, 3, 6, 30, 400])
    # Some games first, so the run starts anywhere between two prunes of anti-farming.
    earlier = _rows(rng, players, rng.randrange(0, 2 * FARM_PRUNE_EVERY), T0)
    run = _rows(rng, players, rng.randrange(SHORTEST_RUN, 3000), T0 + 400 * DAY)
    single, batched = _joined(settings, players, earlier), _joined(settings, players, earlier)
    _one_by_one(single, run)
    done = fold_duels(batched, *zip(*run, strict=True))
    # A small ladder's long run goes in pieces: at most a short tail is left over.
    assert len(run) - done < SHORTEST_RUN
    _one_by_one(batched, run[done:])
    assert batched.fingerprint() == single.fingerprint()
    assert (batched.seq, batched.at) == (single.seq, single.at)


def test_the_worked_pair_of_the_rules() -> None:
    """RULES.md: A (1000) beats B (1100): +20, then B beats A: +13 -> A 1007, B 1093;
    around them others play, so that the pair's games go in one run."""
    state = replay(preset("duel"), [PlayerJoined(T0, p) for p in range(1, 11)]
                   + [RatingAdjusted(T0, 2, 100, "mod", "x")])
    others = [(T0 + i, 3 + i % 8, 3 + (i + 1) % 8, False, True, None, T0 + i)
              for i in range(2, SHORTEST_RUN + 2)]
    run = [(T0, 1, 2, False, True, None, T0), (T0 + 1, 2, 1, False, True, None, T0 + 1)]
    assert fold_duels(state, *zip(*(run + others), strict=True)) == SHORTEST_RUN + 2
    a, b = state.players[1], state.players[2]
    assert (a.rating, b.rating, a.season_gain) == (1007, 1093, 7)
    assert (a.rated_games, a.rated_wins, a.wins, a.losses) == (2, 1, 1, 1)


def test_a_run_that_does_not_suit_is_left_alone() -> None:
    rows = [(T0 + i, 1, 2, False, True, None, T0 + i) for i in range(SHORTEST_RUN)]
    columns = list(zip(*rows, strict=True))
    cases: list[LadderState] = []
    for settings in (preset("warlight"), preset("fame"), preset("nhwc"), preset("dutch")):
        cases.append(replay(settings, [PlayerJoined(T0, 1), PlayerJoined(T0, 2)]))
    half = replay(preset("duel"), [PlayerJoined(T0, 1), PlayerJoined(T0, 2),
                                   RatingAdjusted(T0, 1, 0.5, "mod", "x")])
    journaled = replay(preset("duel"), [PlayerJoined(T0, 1), PlayerJoined(T0, 2)])
    journaled.undo = deque()
    short = replay(preset("duel"), [PlayerJoined(T0, 1), PlayerJoined(T0, 2)])
    for state in [*cases, half, journaled]:
        before = state.fingerprint()
        assert fold_duels(state, *columns) == 0
        assert state.fingerprint() == before and state.seq == 2 + (state is half)
    assert fold_duels(short, *list(zip(*rows[:-1], strict=True))) == 0


def _write_log(repo: Any, rng: random.Random, events: list[Event]) -> int:
    """A duel ladder of 20 players: three runs of 300 plain matches, each followed by an
    adjustment and a player leaving. Every event is appended to `events` too."""
    ladder = repo.add_ladder("c", "main", preset("duel"), T0, None)
    ids = [repo.add_player(ladder.id, UserRef(f"c:{i}", f"p{i}")).id for i in range(20)]
    events.extend(PlayerJoined(T0, p) for p in ids)
    repo.append(ladder.id, events)
    for part in range(3):  # runs of plain matches between other events
        for at, a, b, drawn, rated, moves, played in _rows(rng, 20, 300, T0 + part * 30 * DAY):
            result = Result(((ids[a - 1],), (ids[b - 1],)), drawn, None, moves, rated)
            mid = repo.new_match_id(ladder.id)
            events.append(MatchConfirmed(at, Match(mid, played, result)))
            repo.append(ladder.id, [events[-1]])
        events.append(RatingAdjusted(T0 + (part * 30 + 29) * DAY, ids[part], 40, "mod", "x"))
        events.append(PlayerLeft(T0 + (part * 30 + 29) * DAY, ids[-1 - part]))
        repo.append(ladder.id, events[-2:])
    return int(ladder.id)


def _check_runs(repo: Any, ladder: int, events: list[Event], folded: list[int]) -> None:
    """Loaded from the log alone, and replayed visiting only its end: the whole log's state."""
    whole = replay(preset("duel"), events)
    repo.conn.execute("DELETE FROM snapshots")  # loading folds the whole log
    assert repo.state(ladder).fingerprint() == whole.fingerprint()
    assert sum(folded) > 800
    for p, player in whole.players.items():
        assert repo.player_state(ladder, p).rating == player.rating
    # A replay that visits only its last events folds the others in runs.
    seen: dict[str, list[Any]] = {"part": [], "all": []}
    states = []
    for name, start in (("part", 700), ("all", 0)):
        state = LadderState(preset("duel"))
        repo._stream(ladder, state, len(events), collect_corrections(events),
                     lambda seq, at, e, out, n=name: seen[n].append((seq, out)),
                     visit_from=start, snapshots=(lambda seq: True) if start else None)
        states.append(state.fingerprint())
    assert states == [whole.fingerprint()] * 2
    assert [row[0] for row in repo._all("SELECT seq FROM snapshots ORDER BY seq")] == [400, 800]
    assert seen["part"] == [v for v in seen["all"] if v[0] >= 700]
    for seq in (400, 800):  # the snapshots stored by the first hold their moment
        assert repo._snapshot_before(ladder, seq + 1).fingerprint() == \
            replay(preset("duel"), events[:seq]).fingerprint()


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
async def test_a_restarted_store_folds_its_log_in_runs(
        kind: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        request: pytest.FixtureRequest) -> None:
    """Stored standings loaded again (a restart after a crash), and a replay visiting only its end,
    equal the whole log folded one event at a time."""
    folded: list[int] = []

    def counted(*args: Any) -> int:
        done = fold_duels(*args)
        folded.append(done)
        return done

    monkeypatch.setattr(batch, "fold_duels", counted)
    monkeypatch.setattr(tuning, "UNDO_EVENTS", 50)  # journaled on loading: the last 50
    rng = random.Random(3)
    url = await postgres.fresh_database(request.getfixturevalue("postgres_server")) \
        if kind == "postgres" else ""

    def opened() -> Any:  # the same database, opened again as after a restart
        if kind == "postgres":
            return PgStore(url, snapshot_every=400, snapshot_per_player=0)
        return SqliteStore(tmp_path / "runs.db", snapshot_every=400, snapshot_per_player=0)

    events: list[Event] = []
    async with opened() as store:
        ladder = await store.run(lambda repo: _write_log(repo, rng, events))
        as_killed(store)
    async with opened() as store:
        await store.run(lambda repo: _check_runs(repo, ladder, events, folded))
    assert sum(folded) > 800 + 600  # the runs were folded together, not one by one
