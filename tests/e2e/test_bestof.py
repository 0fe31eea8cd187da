"""Best-of-N matches (issue 27; RULES.md, "Best-of-N matches"): `/report win @bob 2-1`, a
ladder's `bestof=N` refusing a score that does not decide it, and `bestof_rating=games`
rating the games as a series, `K * f(n) * (S_total / n - E)` with `f(n) = 2 - 1/2**(n-1)`,
from the ratings before the match. Between equal players with K 32 a sweep of n games
moves 16, 24, 28, 30, 31 points (RULES.md section 5); a single result 16."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from aiohttp.test_utils import TestClient, TestServer

from bot.web.pages import Web
from storage.sqlite.store import SqliteStore
from tests.support.adapters import DiscordHarness
from tests.support.chat import Chat
from tests.support.discord_payloads import command, option
from tests.support.discord_play import ALICE, BOB, MOD, ephemeral, report

ELO = ("whole=true", "start=1000", "confirm=false")  # classic Elo, K 32, from 1000


def series(k: float, own: float, other: float, won: float, games: int) -> int:
    """RULES.md's series change, rounded half away from zero."""
    expected = 1 / (1 + 10 ** ((other - own) / 400))
    change = k * (2 - 1 / 2 ** (games - 1)) * (won / games - expected)
    return int(change + (0.5 if change >= 0 else -0.5))


async def elo(chat: Chat, *options: str) -> None:
    await chat.ladder("warlight", *ELO, *options)
    await chat.join("alice", "bob")


async def test_a_score_is_shown_and_the_match_rated_as_one_result(chat: Chat) -> None:
    await elo(chat)
    said = await chat.ok("alice", "/report win @bob 2-1")
    assert said == ("Match #1: alice beat bob (2-1). alice 1000 -> 1016 (+16), "
                    "bob 1000 -> 984 (-16).")
    assert "#1 " in (history := await chat.ok("bob", "/history")) and "(2-1)" in history
    assert (await chat.export())["matches"][0]["score"] == [2, 1]


async def test_the_score_reads_in_either_order_the_result_says_who_won(chat: Chat) -> None:
    await elo(chat, "confirm=true")
    await chat.ok("alice", "/report win @bob 1-2")  # alice won: her two games
    said = await chat.ok("bob", "/report loss @alice 1\u20132")  # a phone's dash
    assert "confirms it" in said or "confirmed" in said
    assert (await chat.export())["matches"][0]["score"] == [2, 1]
    assert await chat.ratings() == {"alice": 1016, "bob": 984}


async def test_a_different_score_from_the_other_side_is_not_the_same_game(chat: Chat) -> None:
    await elo(chat, "confirm=true")
    await chat.ok("alice", "/report win @bob 2-1")
    said = await chat.refused("bob", "/report loss @alice 2-0")
    assert "#1" in said and "alice beat bob (2-1)" in said
    assert [m["status"] for m in (await chat.export())["matches"]] == ["pending"]


async def test_a_best_of_three_must_be_decided(chat: Chat) -> None:
    await elo(chat, "bestof=3")
    assert await chat.refused("alice", "/report win @bob") == (
        "This ladder plays best of 3: give the score, like /report win @bob 2-1.")
    assert await chat.refused("alice", "/report win @bob 3-0") == (
        "3-0 does not decide a best of 3: the winner takes 2 games, the other side at most 1.")
    assert (await chat.refused("alice", "/report win @bob 1-0")).startswith("1-0 does not")
    assert (await chat.refused("alice", "/report win @bob 1-1")).startswith(
        "1-1 is even: report a draw")
    assert (await chat.refused("alice", "/report draw @bob 1-1")).startswith(
        "1-1 does not decide a best of 3")
    assert (await chat.export())["matches"] == []
    await chat.ok("alice", "/report win @bob 2-0")
    await chat.ok("bob", "/report win @alice 2-1 again")
    assert [m["score"] for m in (await chat.export())["matches"]] == [[2, 0], [2, 1]]


async def test_bad_scores_are_refused_with_their_reason(chat: Chat) -> None:
    await elo(chat)
    assert (await chat.refused("alice", "/report win @bob 0-0")).startswith(
        "A score is the games each side won, like 2-1, at most 99 each.")
    assert (await chat.refused("alice", "/report win @bob 100-1")).startswith("A score is")
    assert (await chat.refused("alice", "/report draw @bob 2-1")).startswith(
        "A draw's score is even")
    await chat.join("cat")
    assert "finishing order" in await chat.refused("alice", "/report ffa @alice @bob @cat 2-1")
    await chat.ok("alice", "/report draw @bob 1-1")  # no best-of here: an even draw is fine


async def test_games_rates_a_sweep_by_the_rules_table(chat: Chat) -> None:
    await elo(chat, "bestof=5", "bestof_rating=games")
    await chat.ok("alice", "/report win @bob 3-0")
    assert await chat.ratings() == {"alice": 1028, "bob": 972}  # 28: a sweep of 3


async def test_games_rates_a_close_match_from_the_ratings_before_it(chat: Chat) -> None:
    await elo(chat, "bestof=3", "bestof_rating=games")
    await chat.ok("alice", "/report win @bob 2-0")  # a sweep of two: 24
    assert await chat.ratings() == {"alice": 1024, "bob": 976}
    await chat.ok("bob", "/report win @alice 2-1 again")
    change = series(32, 976, 1024, 2, 3)
    assert change == 13  # E = 1 / (1 + 10**(48/400)) = 0.4313; 56 * (2/3 - 0.4313) = 13.2
    assert await chat.ratings() == {"alice": 1024 - change, "bob": 976 + change}


async def test_a_moderators_change_keeps_the_score_for_the_new_winner(chat: Chat) -> None:
    await elo(chat, "bestof=3", "bestof_rating=games")
    await chat.ok("alice", "/report win @bob 2-1")  # 32 * 1.75 * (2/3 - 1/2) = 9.3: 9
    assert await chat.ratings() == {"alice": 1009, "bob": 991}
    said = await chat.ok("mod", "/mod set 1 @bob wrong winner")
    assert "Now: bob beat alice (2-1)" in said
    assert await chat.ratings() == {"alice": 991, "bob": 1009}
    said = await chat.ok("mod", "/mod set 1 @bob 2-0 it was a sweep")
    assert "Now: bob beat alice (2-0)" in said
    assert await chat.ratings() == {"alice": 976, "bob": 1024}
    assert (await chat.refused("mod", "/mod set 1 @bob 3-0 no")).startswith(
        "3-0 does not decide a best of 3")


async def test_dutch_adds_a_matchs_games_to_the_pairs_series(chat: Chat) -> None:
    await chat.ladder("dutch", "confirm=false", "bestof_rating=games")
    await chat.join("alice", "bob")
    await chat.ok("alice", "/report win @bob 2-0")  # two games of the series: 24
    assert await chat.ratings() == {"alice": 24, "bob": 0}  # bob at dutch's floor of 0
    await chat.ok("alice", "/report win @bob")  # the third game of that series: 28 in all
    assert (await chat.ratings())["alice"] == 28


async def test_match_rating_on_dutch_counts_a_match_as_one_game(chat: Chat) -> None:
    await chat.ladder("dutch", "confirm=false")
    await chat.join("alice", "bob")
    await chat.ok("alice", "/report win @bob 2-1")
    assert (await chat.ratings())["alice"] == 16


async def test_games_rating_is_refused_where_it_means_nothing(chat: Chat) -> None:
    for preset in ("nhwc", "glicko2", "fame"):
        said = await chat.refused("mod", f"/ladder create {preset} preset={preset} "
                                         "bestof_rating=games")
        assert said.startswith("bestof_rating=games rates a match's games as an Elo series")
    assert (await chat.refused("mod", "/ladder create x preset=duel bestof=4")).startswith(
        "bestof=4: expected an odd whole number from 3 to 99, or none.")


async def test_a_position_ladder_takes_a_score_with_its_margin(chat: Chat) -> None:
    await chat.ladder("nhwc", "confirm=false", "challenges=false", "bestof=3")
    await chat.join("alice", "bob")
    await chat.ok("bob", "/report win @alice 2-1 major")
    assert await chat.ratings() == {"alice": 2, "bob": 1}


async def test_the_score_on_the_web(tmp_path: Path) -> None:
    async with SqliteStore(tmp_path / "l.db") as store:
        chat = Chat(store)
        await elo(chat, "public=true")
        await chat.ok("alice", "/report win @bob 2-1")
        client: TestClient[Any, Any]
        async with TestClient(TestServer(Web(store, clock=lambda: chat.at).app)) as client:
            page = await (await client.get("/ladders/1/history")).text()
            data = await (await client.get("/api/ladders/1/history")).json()
    assert '<span class="tag score">2-1</span>' in page
    assert data["matches"][0]["score"] == "2-1"


async def test_discords_report_takes_a_score_option(dc: DiscordHarness) -> None:
    await dc.send(command("create", option("name", "main"), option("preset", "warlight"),
                          option("options", " ".join(ELO) + " bestof=3"), by=MOD,
                          group="ladder"))
    await dc.send(command("join", by=ALICE))
    await dc.send(command("join", by=BOB))
    for bad in ("2-1 ladder=other", "two", "1-1"):
        refused = await dc.send(report(ALICE, "loss", BOB, option("score", bad)))
        assert ephemeral(refused), bad
    assert (await dc.export())["matches"] == []
    counted = await dc.send(report(ALICE, "loss", BOB, option("score", "1-2")))
    assert counted["content"].startswith("Match #1: bob beat alice (2-1).")
    assert (await dc.export())["matches"][0]["score"] == [2, 1]


async def test_a_far_back_void_rates_later_matches_by_games_as_a_fresh_history(
        tmp_path: Path, monkeypatch: Any) -> None:
    # A correction beyond the journal follows its ripple or replays from a snapshot: the
    # matches rated by their games after it must come out as if it had never been.
    from storage.sql import tuning

    monkeypatch.setattr(tuning, "UNDO_EVENTS", 7)
    monkeypatch.setattr(tuning, "SYNC_RESTATE", 4)
    games = [("a", "b", ""), ("b", "c", " 2-1"), ("a", "c", ""), ("c", "a", " 2-0"),
             ("b", "a", ""), ("a", "b", " 1-2"), ("c", "b", ""), ("a", "c", " 2-1")] * 3

    async def play(db: Path, skip_first: bool) -> dict[str, Any]:
        async with SqliteStore(db, snapshot_every=3, snapshot_per_player=0) as store:
            chat = Chat(store)
            await chat.ladder("warlight", *ELO, "bestof_rating=games")
            await chat.join("a", "b", "c")
            for n, (w, lo, score) in enumerate(games):
                if not (skip_first and n == 0):
                    await chat.ok(w, f"/report win @{lo}{score} again")
            if not skip_first:
                await chat.ok("mod", "/mod void 1 never played")
            await store.restate_pending()
            return await chat.ratings()

    assert await play(tmp_path / "a.db", False) == await play(tmp_path / "b.db", True)
