"""The storage contract: the SQLite store, the PostgreSQL store and the in-memory twin
answer alike, checked on the repository directly (the `store` fixture runs each test on all
three). Random sessions side by side are in test_storage_side_by_side.py; what only the SQL
stores keep (snapshots, stored history, frozen tables) in test_storage_history.py; what only
SQLite does (its bulk decay, its free pages) in test_sqlite_store.py.
"""

from __future__ import annotations

import contextlib
from typing import Any

from core.domain.calendar import DAY
from core.domain.events import MatchConfirmed, PlayerJoined
from core.domain.model import Match, Result
from core.domain.records import AuditEntry, ChallengeRecord, MatchRecord, UserRef
from core.domain.settings import preset
from core.domain.tournament.model import Format, Outcome
from core.domain.tournament.record import Pairing, Status, Tournament
from core.i18n import decode, render, span, t
from tests.support.chat import T0, Chat


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


def test_a_champion_role_stored_before_tournaments_is_the_seasons() -> None:
    from storage.sql.codec import roles_from_json
    old = '{"l":0,"t":null,"c":%d,"ids":[],"p":null,"since":null}'
    assert (roles_from_json(old % 1).champion, roles_from_json(old % 0).champion) == \
        ("season", "")


async def test_what_follows_the_standings_is_kept_per_ladder(store: Any) -> None:
    from core.domain.records import PinRecord, RoleConfig, RoleHolding

    def work(repo: Any) -> None:
        a = repo.add_ladder("discord:1", "main", preset("duel"), T0, None)
        b = repo.add_ladder("discord:1", "cup", preset("duel"), T0, None)
        c = repo.add_ladder("discord:2", "main", preset("duel"), T0, None)
        assert repo.roles(a.id) == RoleConfig() and repo.followed() == []
        config = RoleConfig(leagues=True, top=10, champion="tournament",
                            ids=(("league:Yard Terror", "77"),),
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


async def test_tournaments_are_kept_whole_per_ladder_and_go_with_it(store: Any) -> None:
    def work(repo: Any) -> None:
        one = repo.add_ladder("c", "main", preset("duel"), T0, None)
        two = repo.add_ladder("c", "other", preset("duel"), T0, None)
        cup = Tournament(one.id, 1, "Кубок", Format.DOUBLE, T0, bestof=3, round_hours=24,
                         reset=False, status=Status.RUNNING, players=(3, 1, 2), round=2,
                         deadline=T0 + DAY, reminded=True,
                         pairings=(Pairing(1, 1, 1, None), Pairing(1, 2, 3, 2, 7),
                                   Pairing(2, 4, 1, 3, None, Outcome.A_FORFEIT, (1,))))
        swiss = Tournament(one.id, 2, "open", Format.SWISS, T0 + 1, rounds=5, rated=False)
        assert not repo.ladder("c", "main").contested
        repo.save_tournament(swiss)
        repo.save_tournament(cup)
        assert repo.tournaments(one.id) == [cup, swiss]
        assert repo.ladder("c", "main").contested and not repo.ladder("c", "other").contested
        assert repo.tournaments(two.id) == []
        done = Tournament(one.id, 2, "open", Format.SWISS, T0 + 1, status=Status.CANCELLED,
                          reason="rain")
        repo.save_tournament(done)
        assert repo.tournaments(one.id) == [cup, done]
        ended = Tournament(one.id, 1, "Кубок", Format.SWISS, T0, status=Status.FINISHED,
                           finished_at=T0 + DAY)
        repo.save_tournament(ended)
        assert repo.tournaments(one.id) == [ended, done]
        assert not repo.ladder("c", "main").contested  # (finished and cancelled ones aren't)
        repo.delete_ladder(one.id)
        assert repo.tournaments(one.id) == []

    await store.run(work)
