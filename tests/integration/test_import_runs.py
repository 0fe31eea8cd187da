"""An import's runs of plain one-on-one matches go in at once (`Repo.append_duels`): the
storage contract that they are stored as the same matches put in one at a time, on every
store, for the rulebooks that fold runs each their own way."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.domain.batch import plain_event
from core.domain.calendar import parse_instant
from core.domain.match_file import read_match_file
from core.domain.settings import preset
from core.service import importing
from core.service.importing import import_matches
from storage.ladder_file import history
from storage.sql.codec import duel_event_json, duel_result_json, dumps, encode_event

NAMES = ("alice", "bob", "cal", "dee", "eve", "fay")


def _file() -> bytes:
    """64 matches a quarter of an hour apart across the midnight that closes January's
    season (its job splits the runs): every pair in turn, draws, unrated ones, moves,
    and in the middle a win by a margin and a player's first game (each of which goes
    in on its own)."""
    lines = ["played_at,players,result,margin,moves,unrated"]
    pairs = [(a, b) for a in NAMES[:5] for b in NAMES[:5] if a < b]
    for i in range(64):
        a, b = ("fay", "alice") if i == 40 else pairs[i % len(pairs)]
        hour = 16 + i // 4
        at = f"2026-{'01-31' if hour < 24 else '02-01'}T{hour % 24:02d}:{i % 4 * 15:02d}"
        result = "draw" if i % 5 == 0 else ("1" if i % 3 else "2")
        lines.append(f"{at}:00+00:00,{a} vs {b},{result},{'major' if i == 31 else ''},"
                     f"{i + 10 if i % 7 == 0 else ''},{'true' if i % 11 == 0 else ''}")
    return ("\n".join(lines) + "\n").encode()


@pytest.mark.parametrize("rulebook", ["duel", "glicko2", "openskill"])
async def test_runs_are_stored_as_matches_one_at_a_time(store: Any, rulebook: str,
                                                        monkeypatch: pytest.MonkeyPatch
                                                        ) -> None:
    """The same file into two chats: in runs (of at most 16 matches, so several, and
    snapshots every 5 events fall inside them), and one at a time. The same history
    (events, records, players, audit), changes, matches by player and standings, read
    again from the log too."""
    monkeypatch.setattr(importing, "LONGEST_RUN", 16)
    runs_in: list[int] = []  # each run's length

    def counted(*args: Any) -> range:
        found = append_run(*args)
        runs_in.append(len(found))
        return found

    append_run = importing._append_run
    monkeypatch.setattr(importing, "_append_run", counted)
    matches = read_match_file(_file())
    now = parse_instant("2026-02-02T00:00:00+00:00")
    settings = preset(rulebook)

    def both(repo: Any) -> None:
        import_matches(repo, "runs", "main", settings, matches, now)
        with monkeypatch.context() as each:  # no match is plain: each goes in alone
            each.setattr(importing, "_plain", lambda *_: False)
            import_matches(repo, "single", "main", settings, matches, now)

    await store.run(both)

    def stored(chat: str) -> Any:
        def read(repo: Any) -> Any:
            ladder = repo.ladder(chat, "main")
            players = sorted(repo.players(ladder.id))
            return (history(repo, ladder),
                    [repo.changes(ladder.id, p) for p in players],
                    [[m.id for m in repo.matches(ladder.id, p)] for p in players],
                    repo.state(ladder.id).players)
        return read

    runs = await store.run(stored("runs"), commit=False)
    single = await store.run(stored("single"), commit=False)
    assert runs == single
    assert len(runs_in) >= 4 and max(runs_in) == 16 and sum(runs_in) > 50
    kinds = [kind for kind, _, _ in runs[0]["events"]]
    assert kinds.count("match") == 64
    assert kinds.count("season") == ("season" in settings.tables)
    if hasattr(store, "cache"):  # the standings as a new process reads them
        store.cache.forget({1, 2})
        assert (await store.run(stored("runs"), commit=False))[3] == single[3]


@given(st.integers(1, 10**6), st.integers(1, 10**6), st.booleans(), st.booleans(),
       st.none() | st.integers(0, 10**4), st.integers(0, 2**40), st.integers(1, 10**6))
def test_a_run_writes_an_events_body_as_one_at_a_time_writes_it(
        a: int, b: int, draw: bool, rated: bool, moves: int | None, played: int,
        match: int) -> None:
    kind, body, _ = encode_event(plain_event((played, a, b, draw, rated, moves, played, match)))
    result = duel_result_json(a, b, draw, rated, moves)
    assert kind == "match" and result == dumps(body["r"])
    assert duel_event_json(match, played, result) == dumps(body)
