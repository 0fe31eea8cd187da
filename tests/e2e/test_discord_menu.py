"""Discord's command menu as the bot registers it: every slash command derived from the specs,
within Discord's limits, localized; and autocomplete within its time."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.support import platform_limits
from tests.support.adapters import DiscordHarness as Harness
from tests.support.discord_payloads import command, member, person
from tests.support.discord_play import ALICE, BOB, MOD, ladder, report

ROOT = Path(__file__).resolve().parents[2]


async def test_match_ids_autocomplete_in_mod(dc: Harness) -> None:
    await ladder(dc, "confirm=false")
    await dc.send(report(ALICE, "win", BOB))
    payload = command("void", {"name": "match", "type": 4, "value": "", "focused": True},
                      by=MOD, group="mod")
    payload["type"] = 4
    choices = (await dc.send(payload))["choices"]
    assert choices == [{"name": "#1 alice vs bob (confirmed)", "value": 1}]


async def test_an_autocomplete_the_database_cannot_answer_in_time_offers_nothing(
    dc: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An autocomplete cannot be deferred: waiting behind a long correction, it was
    answered after Discord's 3 seconds (404). It offers no choices instead, in time."""
    await ladder(dc, "confirm=false")
    await dc.send(report(ALICE, "win", BOB))

    async def stuck(work: Any, **kwargs: Any) -> Any:
        await asyncio.Event().wait()  # the database thread is busy for as long as it takes

    monkeypatch.setattr(dc.store, "run", stuck)
    dc.platform.autocomplete_wait = 0  # (gives up at once: no real time passes)
    payload = command("void", {"name": "match", "type": 4, "value": "", "focused": True},
                      by=MOD, group="mod")
    payload["type"] = 4
    assert (await dc.send(payload))["choices"] == []


async def test_long_names_in_autocomplete_are_cut_at_a_space(dc: Harness) -> None:
    long = [member(person(1300000000000000400 + n, f"{'w' * 20} {'v' * 20} {n}"))
            for n in range(2)]
    await ladder(dc, "confirm=false")
    for who in long:
        await dc.send(command("join", by=who))
    await dc.send(report(long[0], "win", long[1]))
    payload = command("void", {"name": "match", "type": 4, "value": "", "focused": True},
                      by=MOD, group="mod")
    payload["type"] = 4
    [choice] = (await dc.send(payload))["choices"]
    full = "#1 " + " vs ".join(f"{'w' * 20} {'v' * 20} {n}" for n in range(2)) + " (confirmed)"
    shown = choice["name"].removesuffix("…")
    assert len(choice["name"]) <= 100 and shown != choice["name"]
    assert full.startswith(shown) and full[len(shown)] == " "  # cut between words


def dry_run(tmp_path: Path) -> list[dict[str, Any]]:
    """`ladderbot discord sync --dry-run`'s payloads, run as a user would, with no token."""
    done = subprocess.run([sys.executable, "-m", "bot.cli", "discord", "sync", "--dry-run"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr
    payloads: list[dict[str, Any]] = json.loads(done.stdout)
    return payloads


def test_sync_dry_run_lists_every_command_without_a_token(tmp_path: Path) -> None:
    payloads = dry_run(tmp_path)
    # As Discord would take them: names, lengths, ranges (`/ready`'s match went to 2^53,
    # one past Discord's integers, and the one bulk request failed every command), option
    # counts, the 8,000 characters of a command.
    assert platform_limits.discord_commands(payloads) == []
    texts = [each for each in _options(payloads) if each["type"] == 3]
    assert texts and all(1 <= each.get("max_length", 0) <= 2000 for each in texts), [
        each["name"] for each in texts if "max_length" not in each]
    names = {p["name"]: p for p in payloads}
    assert set(names) == {"ladder", "join", "leave", "challenge", "accept", "decline",
                          "available", "unavailable", "report", "report-ffa", "report-teams",
                          "confirm", "dispute", "withdraw", "standings", "profile",
                          "history", "halloffame", "mod", "help", "players", "suggest",
                          "challenge-cancel", "queue", "queue-leave", "ready", "link", "unlink",
                          "h2h", "tournament", "claim"}
    assert [o["name"] for o in names["tournament"]["options"]] == [
        "show", "create", "join", "leave", "start", "ready", "cancel"]
    create = names["tournament"]["options"][1]["options"]
    assert [c["value"] for c in create[1]["choices"]] == ["swiss", "roundrobin", "single",
                                                           "double"]
    assert [o["name"] for o in names["ladder"]["options"]] == [
        "create", "set", "info", "pin", "unpin", "list", "default", "rename", "delete", "share",
        "join-share", "unshare", "whatif", "import"]
    assert [o["name"] for o in names["mod"]["options"]] == [
        "void", "set", "adjust", "remove", "add", "ban", "unban", "cancel", "season-close",
        "claim", "undo-import"]
    assert [o["name"] for o in names["standings"]["options"]] == ["table", "page", "ladder"]
    assert [c["value"] for c in names["standings"]["options"][0]["choices"]] == [
        "season", "week", "ladder", "rating"]
    assert [o["name"] for o in names["report"]["options"]][:7] == [
        "result", "opponent", "opponent_name", "score", "margin", "moves", "unrated"]
    assert [c["value"] for c in names["report"]["options"][0]["choices"]] == [
        "win", "loss", "draw"]
    assert not (tmp_path / "ladder.db").exists()


def _options(nodes: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every option of these commands, their subcommands' too."""
    found: list[dict[str, Any]] = []
    for node in nodes:
        for each in node.get("options") or []:
            found += [each] if each["type"] not in (1, 2) else _options([each])
    return found


def test_the_stand_in_refuses_what_discord_refuses_in_commands() -> None:
    def ready(**given: Any) -> list[dict[str, Any]]:
        return [{"name": "ready", "description": "d", "type": 1,
                 "options": [{"name": "match", "description": "d", **given}]}]

    assert platform_limits.discord_commands(ready(type=4, max_value=2**53 - 1)) == []
    assert platform_limits.discord_commands(ready(type=4, max_value=2**53)) == [
        "0.options.0.max_value: int53 must be between -9007199254740991 and 9007199254740991"]
    assert platform_limits.discord_commands(ready(type=3, max_length=6001))
    assert platform_limits.discord_commands(ready(type=3, min_length=-1))
    many = [{"name": f"o{n}", "description": "x" * 100, "type": 3,
             "choices": [{"name": "c" * 100, "value": "v" * 100}] * 25} for n in range(2)]
    assert platform_limits.discord_commands([{"name": "big", "description": "d", "type": 1,
                                              "options": many}]) == [
        "0: Command exceeds maximum size (8000): 10208"]  # 3 + 1 + 2 x (2 + 100 + 25 x 200)


def test_discord_is_told_the_same_limits(tmp_path: Path) -> None:
    mod = next(c for c in dry_run(tmp_path) if c["name"] == "mod")
    void = next(o for o in mod["options"] if o["name"] == "void")
    reason = next(o for o in void["options"] if o["name"] == "reason")
    assert reason["max_length"] == 300
    adjust = next(o for o in mod["options"] if o["name"] == "adjust")
    amount = next(o for o in adjust["options"] if o["name"] == "amount")
    assert (amount["min_value"], amount["max_value"]) == (-10_000, 10_000)


def test_the_command_menu_speaks_russian_and_dutch_and_names_stay(tmp_path: Path) -> None:
    payloads = dry_run(tmp_path)
    assert platform_limits.discord_commands(payloads) == []  # localizations within limits
    described: list[dict[str, Any]] = []

    def walk(node: dict[str, Any]) -> None:
        described.append(node)
        for child in node.get("options") or []:
            walk(child)

    for payload in payloads:
        walk(payload)
    assert len(described) > 100
    for node in described:  # every command, subcommand and option, in both languages
        assert set(node.get("description_localizations") or {}) == {"ru", "nl"}, node["name"]
        # /report is /report in every language: its localized name is the name itself
        assert node["name_localizations"] == {"ru": node["name"], "nl": node["name"]}
    report = next(p for p in payloads if p["name"] == "report")
    assert report["description_localizations"] == {
        "ru": "Сообщить результат сыгранной игры",
        "nl": "De uitslag van een gespeelde partij doorgeven"}
    teams = next(p for p in payloads if p["name"] == "report-teams")
    result = next(o for o in teams["options"] if o["name"] == "result")
    assert [c["name_localizations"]["ru"] for c in result["choices"]] == [
        "победила team1", "победила team2", "ничья"]
    assert [c["value"] for c in result["choices"]] == ["team1", "team2", "draw"]
