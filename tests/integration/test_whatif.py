"""/ladder whatif (issue 54): the history replayed under other rules beside the standings
now, with how well each predicted the games; nothing changed."""

from __future__ import annotations

import re

from core.domain.match_file import read_match_file
from core.domain.settings import preset
from core.service.importing import import_matches
from core.service.queries.match_csv import ladder_csv
from storage.memory.store import MemoryStore
from tests.support.chat import Chat, five_games


async def _five_games() -> Chat:
    return await five_games(Chat(MemoryStore()))


async def test_the_predictions_of_five_games_worked_by_hand() -> None:
    """RULES.md's duel (K 32 from 1000), E = 1 / (1 + 10^((Ry - Rx) / 400)), before each:
    1. alice 1000 beats bob 1000: E .5, a tie (1/2), loss ln 2 = .69315; 1016, 984.
    2. bob 984 beats carol 1000: E .47699, carol was higher (0), loss .74026; bob +17.
    3. carol 983 draws alice 1016: E .45264, a draw (1/2), loss .69765; carol +2.
    4. alice 1014 beats bob 1001: E .51869, right (1), loss .65646; alice +15.
    5. bob 986 beats alice 1029: E .43844, wrong (0), loss .82454; bob +18.
    The higher side won 2 of 5 (40%); the mean log-loss is 3.61206 / 5 = .722."""
    chat = await _five_games()
    before = await chat.export()
    reply = await chat.ok("mod", "/ladder whatif k=16")
    lines = reply.splitlines()
    assert lines[0] == ("What if main were rated by duel, k=16? Its 5 games replayed; duel "
                        "now on the left, the what-if on the right:")
    assert lines[1].startswith("1. alice 1011 | ") and lines[2].startswith("2. bob 1004 | ")
    assert lines[3].startswith("3. carol 985 | ")
    assert lines[4] == ("duel: the side it rated higher won 40% of 5 one-on-one games; "
                        "log-loss 0.722.")
    assert lines[-1] == "Nothing was changed: /ladder set changes a setting from now on."
    assert await chat.export() == before


async def test_whatif_glicko2_is_what_importing_the_history_into_glicko2_gives() -> None:
    chat = await _five_games()
    reply = await chat.ok("mod", "/ladder whatif preset=glicko2")
    then = [re.match(r"\d+\. .* \| (\w+) (\d+)", line) for line in reply.splitlines()[1:4]]
    history = await chat.store.run(lambda repo: ladder_csv(repo, "console", "main"))
    other = Chat(chat.store, chat="other", at=chat.at)
    await chat.store.run(lambda repo: import_matches(
        repo, "other", "main", preset("glicko2"), read_match_file(history.encode()), chat.at))
    imported = await other.ratings()
    assert [(m.group(1), int(m.group(2))) for m in then if m] == \
        sorted(((n, round(r)) for n, r in imported.items()), key=lambda x: -x[1])
    assert reply.splitlines()[5].startswith("glicko2: the side it rated higher won")


async def test_whatif_refuses_what_it_cannot_replay() -> None:
    chat = Chat(MemoryStore())
    await chat.ladder("openskill", "confirm=false")
    assert "no confirmed games yet" in await chat.refused("mod", "/ladder whatif k=16")
    assert "moderator" in await chat.refused("alice", "/ladder whatif preset=glicko2")
    assert "Say what to replay" in await chat.refused("mod", "/ladder whatif")
    await chat.join("alice", "bob", "carol")
    await chat.ok("alice", "/report ffa @alice @bob @carol")
    refused = await chat.refused("mod", "/ladder whatif preset=duel")
    assert refused == ("The history cannot be replayed that way: match #1: main rates "
                       "one-on-one games only.")


async def test_a_whatif_leaves_every_store_as_it_was(store: object) -> None:
    """The replay's ladder is rolled back: a ladder made next (which may take its number)
    starts fresh, on all three stores."""
    chat = Chat(store)
    await chat.ladder("duel", "confirm=false")
    await chat.join("alice", "bob")
    await chat.ok("alice", "/report win @bob")
    before = await chat.export()
    await chat.ok("mod", "/ladder whatif preset=glicko2")
    assert await chat.export() == before
    await chat.ok("mod", "/ladder create cup preset=duel confirm=false")
    await chat.join("alice", "bob", ladder="ladder=cup")
    await chat.ok("bob", "/report win @alice ladder=cup")
    assert await chat.ratings("cup") == {"bob": 1016, "alice": 984}
