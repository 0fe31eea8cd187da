"""The commands page's "first month on the console" example (it was README's) is what
the console prints."""

from __future__ import annotations

from pathlib import Path

from tests.support.console import console

ROOT = Path(__file__).resolve().parents[2]


def test_the_first_month_example_runs_as_shown(tmp_path: Path) -> None:
    page = (ROOT / "docs" / "players" / "commands.md").read_text()
    block = page.split("A first month on the console")[1].split("\n\n")[1]
    lines = [line.strip() for line in block.splitlines()]
    script = "".join(f"{line}\n" for line in lines if not line.startswith("bot:"))
    said = console(tmp_path / "l.db", script).splitlines()
    shown = [line for line in lines if line.startswith("bot:")]
    assert len(shown) >= 10
    found = [line for line in said if line in shown]
    assert found == shown, "\n".join(said)
