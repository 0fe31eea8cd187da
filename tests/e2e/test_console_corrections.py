"""For every preset, a console script in which moderators void and change earlier results ends in
the standings of the corrected history played from scratch (CONSOLE.md, RULES.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.support.console import console, read_export
from tests.support.corrected_scripts import DUEL, DUTCH, FAME, NHWC, WARLIGHT, scripts


@pytest.mark.parametrize("lines", [DUEL, NHWC, DUTCH, FAME, WARLIGHT],
                         ids=["duel", "nhwc", "dutch", "fame", "warlight"])
def test_corrections_equal_the_corrected_history_from_scratch(
    tmp_path: Path, lines: list[tuple[str, Any]]
) -> None:
    played, corrected = scripts(lines)
    out = console(tmp_path / "played.db", played)
    assert "Standings re-derived" in out or "It had not counted yet" in out
    console(tmp_path / "corrected.db", corrected)
    at = "2026-01-09T00:00:00+00:00"
    a, b = read_export(tmp_path / "played.db", at), read_export(tmp_path / "corrected.db", at)
    assert a["players"] == b["players"]
    assert a["tables"] == b["tables"]
    assert a["hall_of_fame"] == b["hall_of_fame"]
    confirmed = [m for m in a["matches"] if m["status"] == "confirmed"]
    assert [m["rated"] for m in confirmed] == [m["rated"] for m in b["matches"]]


def test_duel_script_numbers(tmp_path: Path) -> None:
    # Spot checks against RULES.md: the corrected duel history starts with the worked
    # pair's first game, A (1000) beats B (1100): +20.
    out = console(tmp_path / "l.db", scripts(DUEL)[1])
    assert "a 1000 -> 1020 (+20), b 1100 -> 1080 (-20)" in out
    assert "shorter than 2 moves, so unrated" in out
