"""An import's claims and undo on Discord (typed options) and Telegram (chat lines),
with names that would be markup, a ping or a link if they were not shown as typed. The
stand-ins refuse what the real servers refuse and record any link a name became."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from core.domain.calendar import iso
from core.domain.match_file import read_match_file
from core.service.importing import import_matches
from tests.support.adapters import discord_harness, telegram_harness
from tests.support.discord_payloads import command, option, user_option, with_user
from tests.support.discord_play import ALICE, DAVE, MOD, ladder, text
from tests.support.telegram_fake import person as tg_person

HOSTILE = "<b>@everyone</b> [x](https://evil.example) *y*"
# As Discord's text shows it once its markdown is read: as typed, the mention and the
# link broken by zero-width spaces.
ON_DISCORD = "<b>@\u200beveryone</b> \\[x](https:\u200b//evil.example) \\*y\\*"
# As Telegram shows it (plain text: no markdown), the link broken likewise.
ON_TELEGRAM = "<b>@\u200beveryone</b> [x](https:\u200b//evil\u200b.example) *y*"


async def _import(store: Any) -> int:
    """Two games of the hostile name against alice, at the ladder's clock (the stand-ins'
    clocks stand still); the import's number."""
    def work(repo: Any) -> int:
        lad = repo.every_ladder()[0]
        lines = ["played_at,players,result",
                 f"{iso(lad.clock)},{HOSTILE} vs alice,1", f"{iso(lad.clock)},alice vs "
                 f"{HOSTILE},draw"]
        matches = read_match_file("\n".join(lines).encode())
        return import_matches(repo, lad.chat, lad.name, None, matches, lad.clock).batch
    result: int = await store.run(work)
    return result


async def test_a_claim_and_an_undo_through_discords_typed_options(tmp_path: Path) -> None:
    async with discord_harness(tmp_path / "d.db") as dc:
        await ladder(dc, "confirm=false")
        batch = await _import(dc.store)
        asked = text(await dc.send(command("claim", option("name", HOSTILE), by=DAVE)))
        assert asked.startswith(f"dave asks for the history of {ON_DISCORD} on main (2 games).")
        done = text(await dc.send(command(
            "claim", with_user(user_option("player", DAVE["user"]), DAVE["user"]),
            option("name", HOSTILE), by=MOD, group="mod")))
        assert done == (f"mod gave dave the history of {ON_DISCORD} on main: 2 games, with "
                        "their ratings and tables, are now theirs.")
        refused = text(await dc.send(command("claim", option("name", HOSTILE), by=ALICE)))
        assert "waiting to be claimed" in refused
        whatif = text(await dc.send(command("whatif", option("preset", "glicko2"), by=MOD,
                                            group="ladder")))
        assert whatif.startswith("What if main were rated by glicko2? Its 2 games replayed")
        assert "1. dave " in whatif and " \\| " in whatif  # (a table's bar, as typed)
        switched = text(await dc.send(command("set", option("options", "preset=glicko2"),
                                              by=MOD, group="ladder")))
        assert switched.startswith("main now rates by glicko2 (it rated by duel): its whole "
                                   "history, 2 games, re-derived")
        assert switched.endswith("To go back to exactly the rules before: /ladder set "
                                 "preset=duel")
        assert "\n1. dave 1015 \\| dave " in switched  # (the claimed history; bars as typed)
        undone = text(await dc.send(command(
            "undo-import", option("batch", batch), option("reason", "wrong **file**"),
            by=MOD, group="mod")))
        assert undone.startswith("mod undid import 1: its 2 matches are voided")
        assert "wrong \\*\\*file\\*\\*" in undone


async def test_a_claim_and_an_undo_in_telegram_lines(tmp_path: Path) -> None:
    mod, alice, dave = (tg_person(101, "mod", "mod"), tg_person(102, "alice", "alice"),
                        tg_person(104, "dave", "dave"))
    async with telegram_harness(tmp_path / "t.db", [mod]) as tg:
        await tg.say(mod, "/ladder create main preset=duel confirm=false")
        await tg.say(alice, "/join")
        batch = await _import(tg.store)
        said = await tg.say(dave, f"/claim {HOSTILE}")
        assert said[-1] == (f"dave asks for the history of {ON_TELEGRAM} on main (2 games). "
                            f"A moderator approves with: /mod claim @dave {ON_TELEGRAM}")
        # The moderator copies the line as Telegram shows it, zero-width spaces and all.
        said = await tg.say(mod, f"/mod claim @dave {ON_TELEGRAM}")
        assert said[-1].startswith(f"mod gave dave the history of {ON_TELEGRAM}")
        said = await tg.say(mod, "/ladder whatif preset=openskill")
        assert said[-1].startswith("What if main were rated by openskill? Its 2 games")
        said = await tg.say(mod, "/ladder set preset=openskill")
        assert said[-1].startswith("main now rates by openskill (it rated by duel)")
        assert "\n1. dave " in said[-1] and said[-1].endswith(": /ladder set preset=duel")
        said = await tg.say(mod, f"/mod undo-import {batch} wrong file")
        assert said[-1].startswith("mod undid import 1: its 2 matches are voided")
