"""What follows an import (issue 54): /mod undo-import takes one import out at once and
re-derives exactly; /claim and /mod claim give an imported player's history to a user.
On the in-memory twin; the storage contract covers the other stores."""

from __future__ import annotations

from itertools import combinations
from pathlib import Path
from typing import Any

import pytest

from core.domain.calendar import parse_instant
from core.domain.match_file import read_match_file
from core.domain.settings import preset
from core.service.importing import import_matches
from storage.memory.store import MemoryStore
from tests.support.chat import Chat

FILE = """played_at,players,result
2026-01-05T12:00:00+00:00,alice vs dave,2
2026-01-05T13:00:00+00:00,dave vs erin,1
2026-01-05T14:00:00+00:00,erin vs alice,draw
"""


async def _import(chat: Chat, text: str = FILE, name: str = "main") -> Any:
    matches = read_match_file(text.encode())
    return await chat.store.run(lambda repo: import_matches(
        repo, chat.chat, name, preset("duel") if name == "new" else None, matches, chat.at))


async def _played(chat: Chat) -> None:
    """A ladder with games of its own before and after the import's."""
    await chat.ladder("duel", "confirm=false")
    await chat.join("alice", "bob")
    await chat.ok("alice", "/report win @bob")


async def test_undoing_an_import_gives_the_history_without_it() -> None:
    chat, plain = Chat(MemoryStore()), Chat(MemoryStore())
    for c in (chat, plain):
        await _played(c)
    chat.at = parse_instant("2026-01-05T15:00:00+00:00")  # (the import's now)
    done = await _import(chat)
    assert done.batch == 1 and done.new_players == ("dave", "erin")
    for c in (chat, plain):
        await c.time("2026-01-06T10:00:00+00:00")
        await c.ok("bob", "/report win @alice")
    assert (await chat.ratings()) != await plain.ratings()
    reply = await chat.ok("mod", "/mod undo-import 1 the wrong file")
    assert "undid import 1: its 3 matches are voided" in reply
    assert "2 players it made, nobody's yet, are off the ladder." in reply
    assert "alice" in reply  # what moved
    assert await chat.ratings() == await plain.ratings()
    assert sorted(await chat.ratings()) == ["alice", "bob"]  # (the export's: members)
    assert "undid import 1 (3 matches): the wrong file" in await chat.ok("mod", "/history")
    assert "was undone already" in await chat.refused("mod", "/mod undo-import 1 again")
    assert "has no import 2" in await chat.refused("mod", "/mod undo-import 2 why")
    assert "moderator" in await chat.refused("bob", "/mod undo-import 1 mine")
    assert "IMPORT_ID" in await chat.refused("mod", "/mod undo-import first why")
    # The same file again: its players come back on at their first match.
    chat.at += 2 * 86400  # (no command since: the ladder's clock is the undo's)
    again = FILE.replace("2026-01-05T1", "2026-01-07T1")
    done = await _import(chat, again)
    assert done.batch == 2 and done.new_players == ()
    assert sorted(await chat.ratings()) == ["alice", "bob", "dave", "erin"]


async def test_an_imported_history_is_claimed_once_with_a_moderators_word() -> None:
    chat = Chat(MemoryStore())
    await _played(chat)
    chat.at = parse_instant("2026-01-05T15:00:00+00:00")  # (the import's now)
    await _import(chat)
    before = await chat.ratings()
    asked = await chat.ok("dana", "/claim dave")
    assert asked == ("dana asks for the history of dave on main (2 games). A moderator "
                     "approves with: /mod claim @dana dave")
    assert "moderator" in await chat.refused("dana", "/mod claim @dana dave")
    done = await chat.ok("mod", "/mod claim @dana DAVE")
    assert done == ("mod gave dana the history of dave on main: 2 games, with their ratings "
                    "and tables, are now theirs.")
    after = await chat.ratings()
    assert after["dana"] == before["dave"] and "dave" not in after
    profile = await chat.ok("dana", "/profile")
    assert "dana" in profile and "2" in profile
    await chat.ok("dana", "/report win @bob")  # they play on as themselves
    assert "erin has not joined" in await chat.refused("bob", "/report win @erin")
    # Claimed, the history goes by its owner's name: a second claim finds none to take.
    assert "no imported player dave waiting" in await chat.refused("frank", "/claim dave")
    assert "no imported player dave waiting" in await chat.refused("mod",
                                                                  "/mod claim @frank dave")
    assert "dana on main is already someone's" in await chat.refused("frank", "/claim dana")
    assert "has no imported player nobody" in await chat.refused("frank", "/claim nobody")


async def test_a_claim_goes_to_someone_without_a_history_of_their_own() -> None:
    chat = Chat(MemoryStore())
    await _played(chat)
    chat.at = parse_instant("2026-01-05T15:00:00+00:00")  # (the import's now)
    await _import(chat)
    refused = await chat.refused("alice", "/claim dave")
    assert "alice already plays on main as alice" in refused
    assert "already plays" in await chat.refused("mod", "/mod claim @bob dave")
    assert "has no imported player zed" in await chat.refused("carol", "/claim zed")
    assert "Name the imported player" in await chat.refused("carol", "/claim")
    # Joined, but nothing played: that empty record is put aside for the history.
    await chat.join("carol")
    before = await chat.ratings()
    assert before["carol"] == 1000 and before["erin"] != 1000
    await chat.ok("mod", "/mod claim @carol erin")
    ratings = await chat.ratings()
    assert "erin" not in ratings and ratings["carol"] == before["erin"]
    assert "carol" in await chat.ok("carol", "/profile")
    assert await chat.text("carol", "/join") == "You are on main already."


@pytest.mark.parametrize("line", ["/claim " + "x" * 65, "/mod claim @carol " + "x" * 65])
async def test_a_name_longer_than_an_import_takes_is_refused(line: str) -> None:
    chat = Chat(MemoryStore())
    await chat.ladder("duel")
    assert "at most 64 characters" in await chat.refused("mod", line)


def _file(start: str, count: int, names: tuple[str, ...]) -> str:
    """`count` one-on-one matches a minute apart from `start` 09:00, every pair of `names`
    in turn."""
    lines = ["played_at,players,result"]
    pairs = list(combinations(names, 2))
    for i in range(count):
        a, b = pairs[i % len(pairs)]
        lines.append(f"{start}T{9 + i // 60:02d}:{i % 60:02d}:00+00:00,{a} vs {b},"
                         f"{'1' if i % 3 else 'draw'}")
    return "\n".join(lines) + "\n"


async def test_an_undone_import_is_stored_alike_in_every_store(store: Any) -> None:
    """The storage contract: the import kept, its matches voided by one event that a
    store reads back, the standings equal to the history without the import (snapshots
    every 5 events, so the re-derivation starts from one)."""
    chat, plain = Chat(store), Chat(MemoryStore())
    names = ("alice", "bob", "cal", "dee", "eve")
    for c in (chat, plain):
        await c.ladder("duel", "confirm=false")
        await c.join(*names[:2])
        await c.ok("alice", "/report win @bob")
    chat.at = parse_instant("2026-01-06T12:00:00+00:00")  # (the import's now)
    file = _file("2026-01-06", 40, names)
    last = 1 + 40  # the match before, then the file's
    await _import(chat, file)
    for c in (chat, plain):
        await c.time("2026-01-08T10:00:00+00:00")
        await c.ok("bob", "/report win @alice")
    await chat.ok("mod", "/mod undo-import 1 the wrong file")
    assert await chat.ratings() == await plain.ratings()

    def stored(repo: Any) -> tuple[Any, Any, list[str]]:
        ladder = repo.ladder("console", "main")
        statuses = [repo.match(ladder.id, n).status for n in (1, 2, last, last + 1)]
        return repo.imports(ladder.id), repo.events(ladder.id)[-4:], statuses

    batches, events, statuses = await store.run(stored, commit=False)
    assert [(b.id, b.first, b.last, len(b.players), b.undone_at is not None)
            for b in batches] == [(1, 2, last, 3, True)]
    # The import's one correction, then its three players off the ladder.
    assert [type(e).__name__ for e in events] == ["MatchesVoided"] + ["PlayerLeft"] * 3
    assert (events[0].first, events[0].last) == (2, last)
    assert statuses == ["confirmed", "voided", "voided", "confirmed"]


async def test_a_restarted_process_reads_an_undone_import_back(tmp_path: Path) -> None:
    """After a restart the undo is read from the log as a correction of every match it
    voided: a later correction before them re-derives without them still."""
    from storage.sqlite.store import SqliteStore
    names = ("alice", "bob", "cal")
    plain = Chat(MemoryStore())
    async with SqliteStore(tmp_path / "l.db", snapshot_every=5) as store:
        chat = Chat(store)
        for c in (chat, plain):
            await c.ladder("duel", "confirm=false")
            await c.join(*names[:2])
            await c.ok("alice", "/report win @bob")
        chat.at = parse_instant("2026-01-06T12:00:00+00:00")  # (the import's now)
        await _import(chat, _file("2026-01-06", 12, names))
        await chat.ok("mod", "/mod undo-import 1 the wrong file")
    async with SqliteStore(tmp_path / "l.db", snapshot_every=5) as store:
        chat = Chat(store, at=chat.at)
        plain.at = chat.at
        for c in (chat, plain):
            await c.ok("mod", "/mod void 1 a mistake")
        assert await chat.ratings() == await plain.ratings()


async def test_matches_after_now_are_refused_at_their_line() -> None:
    from core.domain.match_file import FileRefused
    chat = Chat(MemoryStore())
    await chat.ladder("duel")
    chat.at = parse_instant("2026-01-05T13:00:00+00:00")
    with pytest.raises(FileRefused) as refused:
        await _import(chat)
    assert str(refused.value).startswith("Line 4: it is at 2026-01-05T14:00:00+00:00, after now")
    chat.at = parse_instant("2026-01-05T12:30:00+00:00")  # (the first line after now, not the last)
    with pytest.raises(FileRefused) as refused:
        await _import(chat)
    assert str(refused.value).startswith("Line 3: it is at 2026-01-05T13:00:00+00:00, after now")
    assert (await chat.export())["matches"] == []


async def test_a_claimed_history_is_the_linked_accounts_too() -> None:
    """Claimed on Discord, the history is the player's on a shared ladder's Telegram chat
    too, where their linked account plays it on."""
    from tests.e2e.test_sharing import link, shared
    discord, telegram = await shared(MemoryStore(), "confirm=false", t="alice")
    await discord.ok("alice", "/join")
    discord.at = telegram.at = parse_instant("2026-01-05T15:00:00+00:00")
    await _import(discord)
    await link(discord, "dana", telegram, "dana_tg")
    before = await discord.ratings()
    await discord.ok("mod", "/mod claim @dana dave")
    profile = await telegram.ok("dana_tg", "/profile")
    assert profile.splitlines()[0].startswith("dana")
    assert str(before["dave"]) in profile
    await telegram.ok("dana_tg", "/report win @alice again")  # (alice: by her name here)
    assert (await discord.ratings())["dana"] != before["dave"]


async def test_a_history_restores_alike_into_every_store(store: Any) -> None:
    """The JSON form's restore works through the Repo protocol alone: a history from the
    twin (an import, its undo, a claim, a correction) restored into each store gives the
    same history back, and the same standings."""
    from storage.ladder_file import history, restore
    chat = Chat(MemoryStore())
    await _played(chat)
    chat.at = parse_instant("2026-01-05T15:00:00+00:00")
    await _import(chat)
    await chat.ok("mod", "/mod claim @dana dave")
    await chat.ok("mod", "/mod void 1 a mistake")
    chat.at = parse_instant("2026-01-05T16:00:00+00:00")
    await _import(chat, FILE.replace("T12:00", "T15:10").replace("T13:00", "T15:20")
                  .replace("T14:00", "T15:30"))
    await chat.ok("mod", "/mod undo-import 2 twice")
    data = await chat.store.run(
        lambda repo: history(repo, repo.ladder("console", "main")), commit=False)
    await store.run(lambda repo: restore(repo, "console", "main", data))
    again = await store.run(
        lambda repo: history(repo, repo.ladder("console", "main")), commit=False)
    assert again == data
    assert await Chat(store, at=chat.at).ratings() == await chat.ratings()


async def test_a_player_is_found_by_how_their_name_looks_in_every_store(store: Any) -> None:
    """What /claim reads (one indexed row, not the ladder's every player)."""
    from core.domain.names import look
    from core.domain.records import UserRef

    def work(repo: Any) -> tuple[Any, Any, Any]:
        ladder = repo.add_ladder("c", "main", preset("duel"), 0, None)
        repo.add_player(ladder.id, UserRef("unclaimed:Dave", "Dave"))
        repo.add_player(ladder.id, UserRef("c:alice", "alice"))
        return (repo.player_by_look(ladder.id, look("DAVE")),
                repo.player_by_look(ladder.id, look("аlice")),  # (a Cyrillic а)
                repo.player_by_look(ladder.id, look("zed")))

    dave, alice, nobody = await store.run(work)
    assert (dave.id, dave.user, alice.name, nobody) == (1, "unclaimed:Dave", "alice", None)
