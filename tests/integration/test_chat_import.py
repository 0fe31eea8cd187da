"""/ladder import from a moderator's chat (issue 54), with the match CSV sent with the
command: the dry run first (nothing changed), then, confirmed, the import, as
`ladderbot import` gives it. On the in-memory twin; the platforms' files and buttons are
tests/e2e/test_chat_import_platforms.py."""

from __future__ import annotations

from core.commands.ladders import ImportFile
from core.service.chat_import import CHAT_FILE
from storage.memory.store import MemoryStore
from tests.support.chat import Chat

FILE = (b"played_at,players,result\n"
        b"2026-01-01T10:00:00+00:00,alice vs bob,1\n"
        b"2026-01-02T10:00:00+00:00,bob vs carol,2\n"
        b"2026-01-03T10:00:00+00:00,carol vs alice,draw\n")


async def test_a_dry_run_then_the_confirmed_import() -> None:
    """The dry run tells what it would do and changes nothing; confirmed, the same file
    makes the ladder as reporting the games would (RULES.md's duel: alice beats bob
    1000-1000, +16; carol beats bob 1000-984, +15; carol 1015 draws alice 1016, 0)."""
    chat = Chat(MemoryStore())
    said = await chat.say("mod", "/ladder import old preset=duel", attachment=FILE)
    assert said is not None and not said.error and said.previewed and not said.announce
    assert said.said.splitlines() == [
        "A dry run, nothing changed yet: this would import 3 matches "
        "(2026-01-01T10:00:00+00:00 to 2026-01-03T10:00:00+00:00) into old.",
        "3 new players, nobody's until claimed (/claim NAME): alice, bob and carol.",
        "1. alice 1016", "2. carol 1015", "3. bob 969",
        "A moderator imports it with the Confirm import button below."]
    assert "no ladder" in (await chat.refused("mod", "/standings ladder=old")).lower()
    done = await chat.press("mod", ImportFile("old", "duel", confirmed=True), attachment=FILE)
    assert not done.error and done.announce and not done.previewed
    assert done.said.splitlines()[0] == ("Imported 3 matches (2026-01-01T10:00:00+00:00 to "
                                         "2026-01-03T10:00:00+00:00) into old.")
    assert done.said.splitlines()[-1] == ("This is import 1 of old: a moderator takes it all "
                                          "out with /mod undo-import 1 REASON.")
    assert await chat.ratings("old") == {"alice": 1016, "carol": 1015, "bob": 969}
    assert "imported" in await chat.ok("mod", "/history ladder=old")


async def test_a_ladder_made_that_nobody_joined_takes_an_older_history() -> None:
    chat = Chat(MemoryStore())
    await chat.ladder("duel", "confirm=false")
    await chat.press("mod", ImportFile("main", confirmed=True), attachment=FILE)
    assert await chat.ratings() == {"alice": 1016, "carol": 1015, "bob": 969}
    # Once it has a history, only later games go in.
    refused = await chat.say("mod", "/ladder import main", attachment=FILE)
    assert refused is not None and refused.error
    assert refused.said.startswith("main has run until 2026-01-03T10:00:00+00:00, and line 2 ")
    assert refused.said.endswith("into a new ladder: /ladder import NEW preset=PRESET.")


async def test_what_a_chat_import_refuses() -> None:
    chat = Chat(MemoryStore())
    assert "Send the match CSV with the command" in await chat.refused(
        "mod", "/ladder import old preset=duel")
    big = FILE + b"x" * CHAT_FILE
    said = await chat.say("mod", "/ladder import old preset=duel", attachment=big)
    assert said is not None and "larger than a chat import takes (1,024 KB)" in said.said
    bad = FILE.replace(b"2026-01-02T10", b"2026-13-02T10")
    said = await chat.say("mod", "/ladder import old preset=duel", attachment=bad)
    assert said is not None and said.error and said.said.startswith("Line 3: ")
    said = await chat.say("alice", "/ladder import old preset=duel", attachment=FILE)
    assert said is not None and said.error and "moderator" in said.said
    assert "Name the ladder" in await chat.refused("mod", "/ladder import")
    assert "preset= only" in await chat.refused("mod", "/ladder import old k=20")
    # A confirmation is checked again: not a moderator, nothing imported.
    said = await chat.press("alice", ImportFile("old", "duel", confirmed=True),
                            attachment=FILE)
    assert said.error
    assert "no ladder" in (await chat.refused("mod", "/standings ladder=old")).lower()
