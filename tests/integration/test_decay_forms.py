"""Decay has one copy, `core.domain.elo.decay_amounts`; its forms elsewhere are pinned to it.

The stores apply a decay day as one statement (their `DECAY`, with `decay_args`) and
the fold to every member at once: each must leave every rating exactly where
`decay_amount` says, on ratings whole and fractional, at, below and above the floor.
"""

from __future__ import annotations

import dataclasses
import random
import sqlite3

import pytest

from core.domain import elo
from core.domain.events import DecayDay, Event, PlayerJoined, PlayerLeft, RatingAdjusted
from core.domain.settings import Settings, preset
from core.domain.state import replay
from storage.postgres.session import numbered
from storage.sql.dialect import POSTGRESQL, SQLITE
from storage.sql.history import decay_args
from tests.support import postgres
from tests.support.chat import T0

LADDERS = [
    preset("dutch"),  # floor 0, the rules' own numbers
    dataclasses.replace(preset("warlight"), decay=True, floor=800.0, decay_min=3,
                        decay_divisor=90_000),
    dataclasses.replace(preset("warlight"), decay=True, floor=None),
]


def _ratings(seed: int) -> list[float]:
    rng = random.Random(seed)
    return ([float(r) for r in range(0, 3200, 7)] + [799.0, 800.0, 800.5, 801.0]
            + [rng.uniform(-200, 6000) for _ in range(1500)]
            + [round(rng.uniform(0, 3000), 1) for _ in range(500)])


def _expected(settings: Settings, ratings: list[float]) -> list[float]:
    return [r - elo.decay_amount(settings, r) for r in ratings]


@pytest.mark.parametrize("settings", LADDERS, ids=["dutch", "floor", "no-floor"])
def test_sqlites_statement_is_the_rule(settings: Settings) -> None:
    ratings = _ratings(1)
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE TABLE players (n INTEGER, ladder INTEGER, member INTEGER, "
                 "rating REAL)")
    conn.executemany("INSERT INTO players VALUES (?, 1, 1, ?)", enumerate(ratings))
    conn.execute(SQLITE.decay, decay_args(1, settings))
    after = [r for (r,) in conn.execute("SELECT rating FROM players ORDER BY n")]
    conn.close()
    assert after == _expected(settings, ratings)


@pytest.mark.parametrize("settings", LADDERS, ids=["dutch", "floor", "no-floor"])
async def test_postgres_statement_is_the_rule(settings: Settings,
                                              request: pytest.FixtureRequest) -> None:
    import psycopg

    ratings = _ratings(2)
    url = await postgres.fresh_database(request.getfixturevalue("postgres_server"))
    async with await psycopg.AsyncConnection.connect(url, autocommit=True) as conn:
        await conn.execute("CREATE TABLE players (n INTEGER, ladder BIGINT, member INTEGER, "
                           "rating DOUBLE PRECISION)")
        async with conn.cursor() as cursor:
            await cursor.executemany("INSERT INTO players VALUES (%s, 1, 1, %s)",
                                     list(enumerate(ratings)))
        async with psycopg.AsyncRawCursor(conn) as raw:  # the store's $1 placeholders
            await raw.execute(numbered(POSTGRESQL.decay), decay_args(1, settings))
        after = [r[0] for r in await (await conn.execute(
            "SELECT rating FROM players ORDER BY n")).fetchall()]
    assert after == _expected(settings, ratings)


@pytest.mark.parametrize("settings", LADDERS, ids=["dutch", "floor", "no-floor"])
def test_the_folds_decay_day_is_the_rule(settings: Settings) -> None:
    """Members only: a player who left keeps their rating."""
    ratings = _ratings(3)[:400]
    events: list[Event] = [PlayerJoined(T0, p) for p in range(len(ratings))]
    start = settings.start
    events += [RatingAdjusted(T0, p, r - start, "mod", "x") for p, r in enumerate(ratings)]
    events += [PlayerLeft(T0, p) for p in range(0, len(ratings), 9)]
    before = replay(settings, events)
    got = replay(settings, [*events, DecayDay(T0 + 86_400, "2026-01-06")])
    members = {p: s.rating for p, s in before.players.items() if s.member}
    assert [got.players[p].rating for p in members] == \
        _expected(settings, list(members.values()))
    assert all(got.players[p].rating == s.rating for p, s in before.players.items()
               if not s.member)
