"""The storage contract: the SQLite store, the PostgreSQL store and the in-memory twin
answer alike.

Direct repository checks run on all three (the `store` fixture); random command sequences
run on each side by side and must give the same replies and the same export; what only
the SQL stores keep (snapshots, stored history, frozen tables) is compared with the twin
on both. What only SQLite does (its bulk decay, its free pages) is in
tests/integration/test_sqlite_store.py.
"""

from __future__ import annotations

import contextlib
import json
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.domain.calendar import DAY, HOUR
from core.domain.events import MatchConfirmed, PlayerJoined, collect_corrections
from core.domain.model import Match, Result
from core.domain.records import AuditEntry, ChallengeRecord, MatchRecord, UserRef
from core.domain.settings import preset
from core.domain.state import replay
from core.i18n import decode, render, span, t
from storage.memory.store import MemoryStore
from storage.postgres.store import PgStore
from storage.sql import tuning
from storage.sql.codec import state_from_json
from storage.sqlite.store import SqliteStore
from tests.support import postgres
from tests.support.chat import T0, Chat

SQL_STORES = pytest.mark.parametrize("kind", ["sqlite", "postgres"])


async def sql_store(kind: str, path: Path, request: pytest.FixtureRequest,
                    **options: Any) -> Any:
    """A new SQL store of `kind` (not yet open): a SQLite file at `path`, or a database
    of its own on the tests' PostgreSQL server."""
    if kind == "sqlite":
        return SqliteStore(path, **options)
    server = request.getfixturevalue("postgres_server")
    return PgStore(await postgres.fresh_database(server), **options)


async def test_ladders_are_per_chat_with_a_default(store: Any) -> None:
    def work(repo: Any) -> None:
        a = repo.add_ladder("chat-a", "main", preset("duel"), T0, None)
        b = repo.add_ladder("chat-a", "second", preset("fame"), T0, "chan-1")
        c = repo.add_ladder("chat-b", "main", preset("nhwc"), T0, None)
        assert a.is_default and not b.is_default and c.is_default
        assert [lad.name for lad in repo.ladders("chat-a")] == ["main", "second"]
        assert repo.ladder("chat-a", None).id == a.id
        assert repo.ladder("chat-b", "main").settings.family == "position"
        assert repo.ladder("chat-b", "second") is None
        assert repo.ladder("chat-a", "second").channel == "chan-1"
        repo.update_ladder(b.id, is_default=True, clock=T0 + 5)
        assert repo.ladder("chat-a", "second").clock == T0 + 5

    await store.run(work)


async def test_players_events_and_projections(store: Any) -> None:
    def work(repo: Any) -> None:
        ladder = repo.add_ladder("c", "main", preset("duel"), T0, None)
        alice = repo.add_player(ladder.id, UserRef("c:alice", "alice"))
        bob = repo.add_player(ladder.id, UserRef("c:bob", "bob"))
        assert not repo.player_for(ladder.id, "c:alice").member
        repo.append(ladder.id, [PlayerJoined(T0, alice.id), PlayerJoined(T0, bob.id)])
        assert repo.player_for(ladder.id, "c:alice").member
        mid = repo.new_match_id(ladder.id)
        result = Result(((alice.id,), (bob.id,)))
        [applied] = repo.append(ladder.id, [MatchConfirmed(T0, Match(mid, T0, result))])
        repo.save_match(MatchRecord(ladder.id, mid, "confirmed", alice.id, T0, result,
                                    confirmed_at=T0, rated=applied.match.rated))
        assert repo.player_state(ladder.id, alice.id).rating == 1016
        assert [(c.player, c.before, c.after) for c in repo.match_changes(ladder.id, mid)] == \
            [(alice.id, 1000, 1016), (bob.id, 1000, 984)]
        assert repo.week_sums(ladder.id, T0 - 1, T0) == {alice.id: (16, 1), bob.id: (-16, 1)}
        assert repo.week_sums(ladder.id, T0, T0 + DAY) == {}
        rows, total = repo.standings(ladder.id, "rating", T0, 1)
        assert total == 2 and [(r.player, r.value) for r in rows] == [(alice.id, 1016)]
        assert repo.rank(ladder.id, "rating", bob.id, T0) == 2
        assert repo.rank(ladder.id, "ladder", bob.id, T0) is None  # calibrating
        assert repo.matches(ladder.id, player=bob.id)[0].id == mid
        assert repo.events(ladder.id, until=T0 - 1) == []
        assert len(repo.events(ladder.id)) == 3

    await store.run(work)


async def test_a_rederivation_rewrites_stored_match_records(store: Any) -> None:
    chat = Chat(store)
    await chat.ladder("duel", "confirm=false")
    await chat.join("a", "b")
    for _ in range(5):
        await chat.ok("a", "/report win @b")
    fifth = await store.run(lambda repo: repo.match(1, 5))
    # The note is stored as its code and parameters, never as words (core.i18n).
    assert fifth.rated is False
    assert decode(fifth.note) == t("note.farmed", count=4, within=span(7, "day"))
    assert render(decode(fifth.note), "ru").endswith("без рейтинга (защита от фарма)")
    await chat.ok("mod", "/mod void 1 test")
    fifth = await store.run(lambda repo: repo.match(1, 5))
    assert fifth.rated is True and fifth.note == ""


async def test_challenges_audit_and_seen_messages(store: Any) -> None:
    def work(repo: Any) -> None:
        ladder = repo.add_ladder("c", "main", preset("nhwc"), T0, None)
        cid = repo.new_challenge_id(ladder.id)
        repo.save_challenge(ChallengeRecord(ladder.id, cid, 1, 2, "open", T0))
        repo.save_challenge(ChallengeRecord(ladder.id, repo.new_challenge_id(ladder.id), 3, 4,
                                            "declined", T0))
        assert [c.id for c in repo.unfinished_challenges(ladder.id)] == [cid]
        repo.add_audit(AuditEntry(ladder.id, T0, "mod", "adjust", "why", player=2))
        repo.add_audit(AuditEntry(ladder.id, T0 + 1, "mod", "void", "why2", match=7))
        assert [a.reason for a in repo.audit(ladder.id)] == ["why2", "why"]
        assert [a.reason for a in repo.audit(ladder.id, player=2)] == ["why"]
        assert repo.seen("c", "m1") is None
        repo.remember("c", "m1", "hello", T0)
        assert repo.seen("c", "m1") == "hello"

    await store.run(work)


async def test_a_failed_unit_of_work_leaves_nothing(store: Any) -> None:
    class Boom(Exception):
        pass

    def work(repo: Any) -> None:
        repo.add_ladder("c", "main", preset("duel"), T0, None)
        raise Boom

    with contextlib.suppress(Boom):
        await store.run(work)
    assert await store.run(lambda repo: repo.ladders("c")) == []


async def test_a_savepoint_rolls_back_only_its_part(store: Any) -> None:
    def work(repo: Any) -> None:
        ladder = repo.add_ladder("c", "main", preset("duel"), T0, None)
        alice = repo.add_player(ladder.id, UserRef("c:alice", "alice"))
        try:
            with repo.savepoint():
                repo.append(ladder.id, [PlayerJoined(T0, alice.id)])
                raise ValueError
        except ValueError:
            pass
        assert not repo.player_for(ladder.id, "c:alice").member
        assert repo.events(ladder.id) == []
        repo.append(ladder.id, [PlayerJoined(T0, alice.id)])
        assert repo.state(ladder.id).players[alice.id].member

    await store.run(work)


async def test_chats_never_see_each_others_ladders(store: Any) -> None:
    a = Chat(store, chat="telegram:-100")
    b = Chat(store, chat="telegram:-200")
    await a.ladder("duel", "confirm=false")
    await a.join("alice", "bob")
    await a.ok("alice", "/report win @bob")
    assert "There is no ladder here yet" in await b.refused("alice", "/standings")
    assert "no ladder called main" in await b.refused("alice", "/standings ladder=main")
    await b.ladder("duel", "confirm=false")
    await b.join("carol")
    assert "alice" not in await b.ok("carol", "/standings rating ladder=main".replace(
        " rating", ""))
    assert await b.ratings() == {"carol": 1000}
    assert "bob has not joined main" in await b.refused("carol", "/report win @bob")


# ------------------------------------------------------------ both stores, side by side

NAMES = ["ann", "ben", "cat", "dan"]
PRESET_OPTIONS = {
    "duel": "calibration=1", "dutch": "", "fame": "", "warlight": "ffa=placement", "nhwc": "",
}


def _commands(draw: st.DrawFn, preset_name: str) -> list[tuple[str, str]]:
    me, other = draw(st.permutations(NAMES))[:2]
    kind = draw(st.sampled_from(
        ["report", "report", "report", "confirm", "dispute", "void", "set", "adjust", "tick",
         "standings", "challenge", "accept", "leave", "join", "season", "history"]))
    margin = draw(st.sampled_from(["minor", "major", "overwhelming"]))
    mid = draw(st.integers(1, 6))
    if kind == "report":
        result = draw(st.sampled_from(["win", "loss", "draw"]))
        tail = f" {margin}" if preset_name == "nhwc" and result != "draw" else ""
        played = [(me, f"/report {result} @{other}{tail}")]
        if preset_name == "nhwc":  # a position ladder plays its challenges
            played = [(me, f"/challenge @{other}"), (other, "/accept"), *played]
        if draw(st.booleans()):
            played.append((other, draw(st.sampled_from(["/confirm", "/dispute no"]))))
        return played
    return [{
        "confirm": (me, "/confirm"),
        "dispute": (me, "/dispute not so"),
        "void": ("mod", f"/mod void {mid} check"),
        "set": ("mod", f"/mod set {mid} @{me} {margin} check"),
        "adjust": ("mod", f"/mod adjust @{me} +{draw(st.integers(1, 3))} check"),
        "tick": ("!", str(draw(st.sampled_from([60, 6 * HOUR, 25 * HOUR, 4 * DAY])))),
        "standings": (me, draw(st.sampled_from(["/standings", "/standings season",
                                                "/standings week", "/profile"]))),
        "challenge": (me, f"/challenge @{other}"),
        "accept": (me, "/accept"),
        "leave": (me, "/leave"),
        "join": (me, "/join"),
        "season": ("mod", "/mod season close"),
        "history": (me, f"/history @{other}"),
    }[kind]]


@st.composite
def sessions(draw: st.DrawFn) -> tuple[str, list[tuple[str, str]]]:
    preset_name = draw(st.sampled_from(sorted(PRESET_OPTIONS)))
    commands = [("mod", f"/ladder set confirm={draw(st.sampled_from(['true', 'false']))}")]
    for _ in range(draw(st.integers(5, 25))):
        commands += _commands(draw, preset_name)
    return preset_name, commands


def sqlite_export_at(data: dict[str, Any]) -> int:
    from core.domain.calendar import parse_instant

    return parse_instant(data["at"])


async def _play(store: Any, preset_name: str, commands: list[tuple[str, str]]) -> tuple[
        list[str], dict[str, Any]]:
    chat = Chat(store)
    replies = [await chat.text("mod", f"/ladder create main preset={preset_name} "
                                      f"{PRESET_OPTIONS[preset_name]}")]
    for name in NAMES:
        replies.append(await chat.text(name, "/join"))
    for name, text in commands:
        if name == "!":
            replies += [a.text for a in await chat.tick(int(text))]
        else:
            replies.append(await chat.text(name, text))
    return replies, await chat.export()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sessions())
async def test_every_store_gives_the_same_replies_and_export(
    postgres_server: str, session: tuple[str, list[tuple[str, str]]]
) -> None:
    preset_name, commands = session
    memory_replies, memory_export = await _play(MemoryStore(snapshot_every=3), preset_name,
                                                commands)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "l.db"
        async with SqliteStore(path, snapshot_every=3, snapshot_per_player=0) as sqlite:
            sqlite_replies, sqlite_export = await _play(sqlite, preset_name, commands)
            state = await sqlite.run(lambda repo: repo.state(1))
            events = await sqlite.run(lambda repo: repo.events(1))
            base = await sqlite.run(lambda repo: repo.base_settings(1))
        assert replay(base, events).fingerprint() == state.fingerprint()
        # a cold start (snapshot + log) reads the same ladder
        async with SqliteStore(path, snapshot_every=3) as again:
            cold = await Chat(again, at=sqlite_export_at(sqlite_export)).export()
    assert sqlite_replies == memory_replies
    assert sqlite_export == memory_export
    assert cold == sqlite_export
    async with PgStore(await postgres.fresh_database(postgres_server), snapshot_every=3,
                       snapshot_per_player=0) as pg:
        assert await _play(pg, preset_name, commands) == (memory_replies, memory_export)


async def test_ranks_are_competition_ranks(store: Any) -> None:
    chat = Chat(store)
    await chat.ladder("warlight", "confirm=false")
    await chat.join("a", "b", "c", "d")
    await chat.ok("mod", "/mod adjust @c +50 up")
    await chat.ok("mod", "/mod adjust @d +50.5 up")  # real ratings: 1250.5 and 1250 in one bucket

    def ranks(repo: Any) -> list[int | None]:
        return [repo.rank(1, "rating", p, T0) for p in (1, 2, 3, 4)]

    assert await store.run(ranks) == [3, 3, 2, 1]
    await chat.ok("a", "/leave")
    assert await store.run(ranks) == [None, 3, 2, 1]
    rows, total = await store.run(lambda repo: repo.standings(1, "rating", T0, 2))
    assert total == 3 and [r.player for r in rows] == [4, 3]


@SQL_STORES
async def test_history_of_an_old_correction_is_restated_after(
    tmp_path: Path, monkeypatch: Any, kind: str, request: pytest.FixtureRequest
) -> None:
    """Far back, a correction rewrites standings at once and history in chunks after."""

    monkeypatch.setattr(tuning, "SYNC_RESTATE", 4)
    script = [("a", "/report win @b"), ("b", "/report win @c"), ("c", "/report draw @a"),
              ("a", "/report win @c"), ("b", "/report win @a"), ("c", "/report win @b")]

    async def play(store: Any) -> Chat:
        chat = Chat(store)
        await chat.ladder("duel", "confirm=false", "calibration=0")
        await chat.join("a", "b", "c")
        for _ in range(3):
            for name, text in script:
                await chat.ok(name, text)
                await chat.tick(DAY)
        await chat.ok("mod", "/mod void 2 never played")
        return chat

    twin = await play(MemoryStore())
    async with await sql_store(kind, tmp_path / "l.db", request, snapshot_every=4,
                               snapshot_per_player=0) as store:
        chat = await play(store)
        assert await store.run(lambda repo: repo.stale_ladders()) == [1]
        # the standings are right at once
        assert await chat.export() == await twin.export()

        def history(repo: Any) -> list[Any]:
            return [(p, repo.changes(1, p)) for p in (1, 2, 3)] + \
                [repo.match(1, m) for m in range(1, 19)]

        assert await store.run(history) != await twin.store.run(history)

        def snapshots(repo: Any) -> dict[int, str]:
            return dict(repo.conn.execute("SELECT seq, body FROM snapshots WHERE ladder=1"))

        # the stale part's snapshots wait for the restate too; the recent ones are there
        start, end = await store.run(lambda repo: repo.conn.execute(
            "SELECT restate_from, restate_to FROM ladders WHERE id=1").fetchone())
        deferred = [seq for seq in range(start, end) if seq % 4 == 0]
        assert deferred and not set(deferred) & set(await store.run(snapshots))
        assert any(seq >= end for seq in await store.run(snapshots))
        await store.restate_pending()
        assert await store.run(lambda repo: repo.stale_ladders()) == []
        assert await store.run(history) == await twin.store.run(history)
        stored = await store.run(snapshots)
        assert set(deferred) <= set(stored)
        events = await store.run(lambda repo: repo.events(1))
        base = await store.run(lambda repo: repo.base_settings(1))
        corrections = collect_corrections(events)
        loaded = await store.run(lambda repo: {
            seq: state_from_json(body, lambda labels: repo._frozen(1, labels))
            for seq, body in stored.items()})
        for seq, state in loaded.items():  # each the standings after its first seq events
            assert state.fingerprint() == replay(base, events[:seq], corrections).fingerprint()


@SQL_STORES
async def test_corrections_replayed_from_a_snapshot_match_the_twin(
    tmp_path: Path, monkeypatch: Any, kind: str, request: pytest.FixtureRequest
) -> None:
    """A correction beyond the journal replays from a snapshot, then rewrites the players
    who can stand differently: those of the replayed events when they are few against the
    ladder, else every player compared. Both ways give the twin's standings and history."""

    monkeypatch.setattr(tuning, "UNDO_EVENTS", 1)  # never roll back in place
    names = [f"p{i}" for i in range(40)]

    async def play(store: Any, voids: list[int]) -> Chat:
        chat = Chat(store)
        await chat.ladder("duel", "confirm=false", "calibration=0")
        await chat.join(*names)
        for k in range(30):
            await chat.ok(names[k % 7], f"/report win @{names[(3 * k + 1) % 40]}")
        for a, b in (("p0", "p1"), ("p1", "p2"), ("p2", "p0")):  # each game moves the next
            await chat.ok(a, f"/report win @{b}")
        for match in voids:
            await chat.ok("mod", f"/mod void {match} test")
        return chat

    def history(repo: Any) -> list[Any]:
        return [repo.changes(1, p) for p in range(1, 41)] + \
            [repo.match(1, m) for m in range(1, 34)]

    def rows(repo: Any) -> list[Any]:  # the stored rows that standings and profiles read
        return [repo.player_state(1, p) for p in range(1, 41)]

    # voiding match 31 replays 3 events of 40 players (who played is tracked); match 3,
    # 31 events (every player is compared)
    for voids in ([31], [3], [31, 3]):
        twin = await play(MemoryStore(), voids)
        async with await sql_store(kind, tmp_path / f"{voids}.db", request, snapshot_every=4,
                                   snapshot_per_player=0) as store:
            chat = await play(store, voids)
            await store.restate_pending()
            assert await chat.export() == await twin.export()
            assert await store.run(history) == await twin.store.run(history)
            assert await store.run(rows) == await twin.store.run(rows)


async def _two_closed_seasons(store: Any) -> Chat:
    """A duel ladder of three whose first two seasons are closed, each with a table."""
    chat = Chat(store)
    await chat.ladder("duel", "confirm=false", "calibration=0", "season_min_games=1")
    await chat.join("a", "b", "c")
    await chat.ok("a", "/report win @b")
    await chat.ok("a", "/report win @c")
    await chat.ok("mod", "/mod season close first")
    await chat.ok("b", "/report win @c")
    await chat.ok("mod", "/mod season close second")
    return chat


@SQL_STORES
async def test_a_correction_rewrites_the_frozen_tables_it_reaches(
        tmp_path: Path, kind: str, request: pytest.FixtureRequest) -> None:
    """Voiding a match of a closed season rewrites the stored tables it changes and the
    Hall of Fame, as the twin has them (no other test looked at the stored tables)."""

    async def play(store: Any) -> Chat:
        chat = await _two_closed_seasons(store)
        await chat.ok("c", "/report win @b")
        return chat

    def seasons(repo: Any) -> list[Any]:
        return [repo.season_table(1, label) for label in repo.state(1).frozen] + \
            [repo.hall_of_fame(1)]

    twin = await play(MemoryStore())
    await twin.ok("mod", "/mod void 1 never played")
    async with await sql_store(kind, tmp_path / "l.db", request) as store:
        chat = await play(store)
        before = await store.run(seasons)
        assert len(before) == 3 and all(before)
        await chat.ok("mod", "/mod void 1 never played")
        after = await store.run(seasons)
        assert after != before and after[0] != before[0]
        assert after == await twin.store.run(seasons)


@SQL_STORES
async def test_snapshots_name_closed_seasons_and_read_their_tables(
    tmp_path: Path, kind: str, request: pytest.FixtureRequest
) -> None:
    """A snapshot keeps the closed seasons by label, their tables come back from
    `seasons` (after a correction rewrote one too), and a snapshot of the earlier format,
    tables inside, still loads."""
    async with await sql_store(kind, tmp_path / "l.db", request, snapshot_every=2,
                               snapshot_per_player=0) as store:
        chat = await _two_closed_seasons(store)
        await chat.ok("mod", "/mod void 1 never played")  # both tables change
        for _ in range(3):
            await chat.ok("c", "/report win @a")

        def loaded(repo: Any) -> list[tuple[int, str, Any, Any]]:
            return [(seq, body, state_from_json(body, lambda labels: repo._frozen(1, labels)),
                     {label: repo.season_table(1, label) for label in repo.state(1).frozen})
                    for seq, body in repo.conn.execute(
                        "SELECT seq, body FROM snapshots WHERE ladder=1 ORDER BY seq")]

        snapshots = await store.run(loaded)
        events = await store.run(lambda repo: repo.events(1))
        base = await store.run(lambda repo: repo.base_settings(1))

    def unread(labels: list[str]) -> dict[str, Any]:
        raise AssertionError("a snapshot with its tables inside read them again")

    corrections = collect_corrections(events)
    assert [seq for seq, _, state, _ in snapshots if len(state.frozen) == 2]
    for seq, body, state, stored in snapshots:
        data = json.loads(body)
        assert "frozen" not in data and data["seasons"] == list(state.frozen)
        expected = replay(base, events[:seq], corrections)
        assert state.frozen == expected.frozen
        assert state.fingerprint() == expected.fingerprint()
        for label, table in state.frozen.items():  # as stored, the void's rewrite too
            assert list(table) == stored[label]
        earlier = {k: v for k, v in data.items() if k != "seasons"}
        earlier["frozen"] = {label: [[r.player, r.value, r.rated_games] for r in rows]
                             for label, rows in state.frozen.items()}
        assert state_from_json(json.dumps(earlier), unread).fingerprint() == \
            state.fingerprint()


async def test_what_follows_the_standings_is_kept_per_ladder(store: Any) -> None:
    from core.domain.records import PinRecord, RoleConfig, RoleHolding

    def work(repo: Any) -> None:
        a = repo.add_ladder("discord:1", "main", preset("duel"), T0, None)
        b = repo.add_ladder("discord:1", "cup", preset("duel"), T0, None)
        c = repo.add_ladder("discord:2", "main", preset("duel"), T0, None)
        assert repo.roles(a.id) == RoleConfig() and repo.followed() == []
        config = RoleConfig(leagues=True, top=10, ids=(("league:Yard Terror", "77"),),
                            problem="roles.problem.permission", since=T0)
        repo.save_roles(a.id, config)
        assert repo.roles(a.id) == config
        held = RoleHolding(frozenset({"league:Yard Terror", "top:10"}), frozenset({"77"}))
        repo.save_holding(a.id, "discord:9", held)
        repo.save_holding(b.id, "discord:9", RoleHolding(frozenset({"x"}), frozenset({"78"})))
        repo.save_holding(c.id, "discord:9", RoleHolding(frozenset({"y"}), frozenset({"79"})))
        assert repo.role_holdings(a.id) == {"discord:9": held}
        # another ladder of the same server, never one of another server
        assert repo.granted_elsewhere(a.id, "discord:9") == frozenset({"78"})
        pin = PinRecord("555", "666", "abc", T0, "ru")
        repo.save_pin(c.id, pin)
        assert repo.pin(c.id) == pin and repo.pin(a.id) is None
        assert [lad.id for lad in repo.followed()] == [a.id, b.id, c.id]
        repo.save_holding(b.id, "discord:9", None)
        repo.save_pin(c.id, None)
        repo.save_holding(c.id, "discord:9", RoleHolding())  # holds nothing: forgotten
        assert [lad.id for lad in repo.followed()] == [a.id]
        repo.save_roles(a.id, RoleConfig(ids=config.ids))  # off, but the ids are kept
        assert repo.roles(a.id).ids == config.ids
        repo.delete_ladder(a.id)
        assert repo.followed() == []

    await store.run(work)


async def test_the_platforms_own_data_is_kept_alike(store: Any) -> None:
    from core.domain.events import PlayerJoined
    from core.domain.records import Announcement

    def work(repo: Any) -> None:
        a = repo.add_ladder("telegram:1", "main", preset("duel"), T0, None)
        b = repo.add_ladder("telegram:2", "cup", preset("duel"), T0, None)
        alice = UserRef("telegram:7", "alice")
        for ladder in (a, b):
            repo.append(ladder.id, [PlayerJoined(T0, repo.add_player(ladder.id, alice).id)])
        repo.learn_handle("telegram", "Alice", alice, T0)
        assert repo.find_handle("telegram", "alice") == alice
        assert repo.find_handle("telegram", "bob") is None
        assert [lad.name for lad in repo.user_ladders("telegram:7")] == ["main", "cup"]
        first = Announcement("telegram:1", "main", "one", None, 3, "ru", ("telegram:7",))
        repo.enqueue([first, Announcement("telegram:2", "cup", "two")], T0)
        due = repo.outbox_due(T0)
        assert [(attempts, a) for _, attempts, a in due] == [
            (0, first), (0, Announcement("telegram:2", "cup", "two"))]
        repo.outbox_retry(due[0][0], T0 + 60, "timeout")
        repo.outbox_done(due[1][0])
        assert repo.outbox_due(T0) == []
        assert [(attempts, a) for _, attempts, a in repo.outbox_due(T0 + 60)] == [(1, first)]

    await store.run(work)


async def test_a_nul_character_is_kept_alike_by_every_store(store: Any) -> None:
    """PostgreSQL cannot store NUL (it was an apology there, stored on SQLite): every
    store keeps the replacement character in its place."""
    chat = Chat(store)
    await chat.ladder("duel", "confirm=false")
    await chat.join("ann", "ben")
    await chat.ok("ann", "/report win @ben")
    reply = await chat.ok("mod", "/mod void 1 typo\x00here")
    assert "typo\ufffdhere" in reply and "\x00" not in reply
    assert "typo\ufffdhere" in await chat.text("ben", "/profile")
