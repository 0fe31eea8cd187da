"""/ladder import from a moderator's chat (issue 54) on Discord (an attachment option)
and Telegram (a document with the command as its caption): the dry run, its Confirm
import button, and the import, with a name that would be markup, a ping or a link if it
were not shown as typed. The stand-ins serve the files as the platforms do, and refuse
what the real servers refuse."""

from __future__ import annotations

from pathlib import Path

from core.domain.names import shown_name
from core.service.chat_import import CHAT_FILE
from tests.support.adapters import discord_harness, telegram_harness
from tests.support.discord_payloads import button, command, file_option, option
from tests.support.discord_play import ALICE, MOD, text
from tests.support.telegram_fake import person as tg_person

HOSTILE = "<b>@everyone</b> [x](https://evil.example) *y*"
ON_DISCORD = "<b>@\u200beveryone</b> \\[x](https:\u200b//evil.example) \\*y\\*"
ON_TELEGRAM = "<b>@\u200beveryone</b> [x](https:\u200b//evil\u200b.example) *y*"
FILE = ("played_at,players,result\n"
        f"2026-01-01T10:00:00+00:00,{HOSTILE} vs alice,1\n"
        f"2026-01-02T10:00:00+00:00,alice vs {HOSTILE},draw\n").encode()


def custom_id(shown: dict[str, object]) -> str:
    """The custom id of the one button under an answer."""
    rows = shown["components"]
    assert isinstance(rows, list) and len(rows) == 1 and len(rows[0]["components"]) == 1
    found: str = rows[0]["components"][0]["custom_id"]
    return found


async def test_a_discord_attachment_dry_run_then_confirm(tmp_path: Path) -> None:
    async with discord_harness(tmp_path / "d.db") as dc:
        sent = dc.fake.attach("old ladder.csv", FILE)
        shown = await dc.send(command("import", option("name", "old"),
                                      file_option("file", sent), option("preset", "duel"),
                                      by=MOD, group="ladder"))
        said = text(shown)
        assert said.startswith("A dry run, nothing changed yet: this would import 2 matches")
        assert f"1. {ON_DISCORD} 10" in said
        assert said.endswith("A moderator imports it with the Confirm import button below.")
        assert dc.fake.downloads == [sent["id"]]
        pressed = custom_id(shown)
        assert pressed.startswith("lb:import:") and pressed.endswith(":old")
        # Anyone else's press is refused and spends nothing (a button is everyone's).
        refused = text(await dc.send(button(pressed, by=ALICE)))
        assert refused == "Only the moderator who sent the file confirms its import."
        done = text(await dc.send(button(pressed, by=MOD)))
        assert done.startswith("Imported 2 matches (2026-01-01T10:00:00+00:00 to "
                               "2026-01-02T10:00:00+00:00) into old.")
        assert (await dc.export("old"))["players"][0]["name"] == shown_name(HOSTILE)
        # Pressed again: the file was spent by the import.
        assert "no longer kept" in text(await dc.send(button(pressed, by=MOD)))
        big = dc.fake.attach("big.csv", FILE + b"x" * CHAT_FILE)
        refused = text(await dc.send(command("import", option("name", "new"),
                                             file_option("file", big), by=MOD,
                                             group="ladder")))
        assert "larger than a chat import takes" in refused
        assert big["id"] not in dc.fake.downloads  # (refused by its size, never read)


async def test_a_telegram_document_dry_run_then_confirm(tmp_path: Path) -> None:
    mod, alice = tg_person(101, "mod", "mod"), tg_person(102, "alice", "alice")
    async with telegram_harness(tmp_path / "t.db", [mod]) as tg:
        said = await tg.send_document(mod, "/ladder import old preset=duel", "old.csv", FILE)
        assert said[-1].startswith("A dry run, nothing changed yet: this would import 2")
        assert f"\n1. {ON_TELEGRAM} 10" in said[-1]
        data = tg.buttons()[-1]
        assert data.startswith("import:old:")
        await tg.press(alice, data)
        assert tg.alerts()[-1]["text"] == ("Only the moderator who sent the file confirms "
                                           "its import.")
        said = await tg.press(mod, data)
        assert said[-1].startswith("Imported 2 matches")
        await tg.press(mod, data)
        assert "no longer kept" in tg.alerts()[-1]["text"]
        assert (await tg.export("old"))["players"][0]["name"] == shown_name(HOSTILE)
        read = len(tg.api.downloads)
        said = await tg.send_document(mod, "/ladder import new preset=duel", "big.csv",
                                      FILE + b"x" * CHAT_FILE)
        assert "larger than a chat import takes" in said[-1]
        assert len(tg.api.downloads) == read  # (refused by its size, never read)
        said = await tg.say(mod, "/ladder import new preset=duel")
        assert "Send the match CSV with the command" in said[-1]
