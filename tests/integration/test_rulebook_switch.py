"""/ladder set preset=... (issue 54): a ladder switched to another rulebook, its whole
history re-derived as if it had been made with it; audited, announced, and undone
exactly by the line its reply gives. On the in-memory twin, and the storage contract on
every store."""

from __future__ import annotations

import re
from typing import Any

from storage.memory.store import MemoryStore
from tests.support.chat import Chat, five_games


async def test_a_switch_gives_what_the_ladder_made_with_the_rulebook_gives() -> None:
    """A duel ladder switched to glicko2 stands as a glicko2 ladder that saw the same
    games, and as its what-if said; the reply sets the tables side by side and is
    announced; the audit says who switched what."""
    chat = await five_games(Chat(MemoryStore()), "duel", "k=20")
    said = await chat.ok("mod", "/ladder whatif preset=glicko2")
    foreseen = [re.sub(r"^\d+\. \S+ \d+ \| ", "", line) for line in said.splitlines()[1:4]]
    reply = await chat.say("mod", "/ladder set preset=glicko2")
    assert reply is not None and not reply.error and reply.announce
    lines = reply.said.splitlines()
    assert lines[0] == ("main now rates by glicko2 (it rated by duel): its whole history, 5 "
                        "games, re-derived as if it had been made so. Before on the left, "
                        "now on the right:")
    assert [re.sub(r"^\d+\. \S+ \d+ \| ", "", line) for line in lines[1:4]] == foreseen
    assert lines[4] == "To go back to exactly the rules before: /ladder set preset=duel k=20"
    twin = await five_games(Chat(MemoryStore()), "glicko2")
    assert await chat.ratings() == await twin.ratings()
    assert "mod switched the rulebook, duel -> glicko2, and re-derived the history" in \
        await chat.ok("alice", "/history")


def _settings(repo: Any) -> tuple[Any, Any]:
    """The ladder's base and current settings."""
    return repo.base_settings(1), repo.ladder("console", "main").settings


async def test_the_way_back_gives_the_ladder_as_it_was() -> None:
    """Its export (players, tables, every match) and settings are as before the switch,
    and a game after both counts as on a ladder that never switched."""
    chat = await five_games(Chat(MemoryStore()), "duel", "k=20", "floor=900")
    before, settings = await chat.export(), await chat.store.run(_settings, commit=False)
    back = (await chat.ok("mod", "/ladder set preset=openskill")).splitlines()[-1]
    line = back.split(": ", 1)[1]
    assert line == "/ladder set preset=duel k=20 floor=900"
    await chat.ok("mod", line)
    assert await chat.export() == before
    assert await chat.store.run(_settings, commit=False) == settings
    twin = await five_games(Chat(MemoryStore()), "duel", "k=20", "floor=900")
    for c in (chat, twin):
        await c.ok("carol", "/report win @alice")
    assert await chat.ratings() == await twin.ratings()


async def test_a_correction_after_a_switch_is_read_under_the_new_rulebook() -> None:
    chat = await five_games(Chat(MemoryStore()), "warlight")
    await chat.ok("mod", "/ladder set preset=glicko2")
    twin = await five_games(Chat(MemoryStore()), "glicko2")
    for c in (chat, twin):
        await c.ok("mod", "/mod void 2 a mistake")
        await c.ok("mod", "/mod set 4 @bob a correction")
    assert await chat.ratings() == await twin.ratings()


async def test_what_cannot_be_switched_is_refused_with_why() -> None:
    chat = Chat(MemoryStore())
    await chat.ladder("openskill", "confirm=false")
    await chat.join("alice", "bob", "carol")
    await chat.ok("alice", "/report ffa @alice @bob @carol")
    before = await chat.export()
    assert await chat.refused("mod", "/ladder set preset=duel") == (
        "The history cannot be read under those rules, so nothing was switched: match #1: "
        "main rates one-on-one games only.")
    assert "already rates by openskill" in await chat.refused("mod", "/ladder set preset=openskill")
    assert "rungs" in await chat.refused("mod", "/ladder set preset=nhwc")
    assert "public is a property" in await chat.refused("mod",
                                                        "/ladder set preset=fame public=true")
    assert "Give preset= once." in await chat.refused(
        "mod", "/ladder set preset=fame preset=duel")
    assert "moderator" in await chat.refused("alice", "/ladder set preset=fame")
    assert await chat.export() == before


async def test_a_switch_is_stored_alike_in_every_store(store: Any) -> None:
    """The storage contract: the switch's event read back from the log, the standings
    (snapshots every 5 events, all taken under the old rules) equal the twin's, after a
    correction of the first game and a restart too."""
    chat, twin = Chat(store), Chat(MemoryStore())
    for c in (chat, twin):
        await five_games(c, "duel")
        await c.ok("mod", "/ladder set preset=glicko2")
        await c.tick(3600)
        await c.ok("carol", "/report win @bob")
        await c.ok("mod", "/mod void 1 a mistake")
    assert await chat.ratings() == await twin.ratings()
    assert await chat.export() == await twin.export()
    if hasattr(store, "cache"):  # a new process reads it from the log
        store.cache.forget({1})
        assert await chat.ratings() == await twin.ratings()

    def switches(repo: Any) -> list[tuple[str, str]]:
        return [(e.was.preset, e.settings.preset) for e in repo.events(1)
                if type(e).__name__ == "RulesSwitched"]

    assert await store.run(switches, commit=False) == [("duel", "glicko2")]
