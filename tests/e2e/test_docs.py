"""Issue 50: the documentation a newcomer reads. README is short; the site in docs/ builds
strictly with every page in its navigation; the command and settings references are
made from the registry and the settings and are current; and every worked example of the
rulebooks is what the console says, run as written."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from bot import reference
from bot.text import APOLOGY
from core.commands.registry import SPECS
from core.domain.setting_keys import PROPERTIES, SETTING_SPECS
from core.i18n import render
from tests.support.console import console

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
SESSION = re.compile(r"```text\n(.*?)```", re.DOTALL)


def test_the_readme_is_short_and_keeps_its_two_commands() -> None:
    readme = (ROOT / "README.md").read_text()
    assert len(readme.encode()) <= 10 * 1024
    ci = (ROOT / ".ci" / "run").read_text().strip().splitlines()[-1]
    assert ci in readme  # (.ci/run runs exactly README's test command)
    assert ".venv/bin/ladderbot console --admin mod" in readme


def test_the_site_builds_strictly_with_every_page_in_its_navigation(tmp_path: Path) -> None:
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text())
    listed: set[str] = set()

    def walk(node: object) -> None:
        if isinstance(node, str):
            listed.add(node)
        elif isinstance(node, dict):
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(config["nav"])
    pages = {str(p.relative_to(DOCS)) for p in DOCS.rglob("*.md")}
    assert pages == listed, (pages - listed, listed - pages)
    built = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q",
                            "-d", str(tmp_path / "site")], cwd=ROOT, capture_output=True,
                           text=True, timeout=120,
                           env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    assert built.returncode == 0, built.stderr
    assert (tmp_path / "site" / "players" / "rulebooks" / "index.html").exists()


@pytest.mark.parametrize("page", sorted(reference.PAGES))
def test_the_reference_pages_are_made_from_the_code_and_current(page: str) -> None:
    written = (reference.DOCS / page).read_text()
    assert written == reference.PAGES[page](), "stale: run python -m bot.reference"


def test_every_command_and_every_setting_is_in_the_references() -> None:
    commands = (reference.DOCS / "commands.md").read_text()
    for spec in SPECS:
        assert f"## /{spec.word}\n" in commands, spec.word
        assert all(line in commands for line in spec.usage), spec.word
    settings = (reference.DOCS / "settings.md").read_text()
    for key in [*SETTING_SPECS, *PROPERTIES]:
        assert f"| `{key}` |" in settings, key


def sessions(page: Path) -> list[str]:
    """The console sessions a page shows (text blocks that start a ladder)."""
    return [block for block in SESSION.findall(page.read_text())
            if "/ladder create" in block]


@pytest.mark.parametrize("preset", ["warlight", "fame", "duel", "nhwc", "dutch", "glicko2",
                                    "openskill"])
def test_each_rulebooks_worked_example_is_what_the_console_says(
        tmp_path: Path, preset: str) -> None:
    [block] = [b for b in sessions(DOCS / "players" / "rulebooks.md")
               if f"preset={preset}" in b.split("\n", 2)[1]]
    lines = block.strip().splitlines()
    script = "".join(f"{line}\n" for line in lines if not line.startswith("bot:"))
    said = console(tmp_path / "l.db", script, "mod").splitlines()
    shown = [line for line in lines if line.startswith("bot:")]
    assert shown and [line for line in said if line in shown] == shown, "\n".join(said)


def test_the_readmes_first_ladder_runs(tmp_path: Path) -> None:
    readme = (ROOT / "README.md").read_text()
    block = readme.split("## A first ladder on the console")[1].split("\n\n")[2]
    script = "".join(f"{line.strip()}\n" for line in block.splitlines() if line.strip())
    assert script.count("@") >= 10
    said = console(tmp_path / "l.db", "!time 2026-01-05T10:00:00+00:00\n" + script, "mod")
    assert render(APOLOGY, "en") not in said and said.count("bot: ") >= 10, said


def test_every_link_of_the_readme_is_there() -> None:
    readme = (ROOT / "README.md").read_text()
    links = re.findall(r"\]\(((?:docs|bench)/[^)#]+)", readme)
    assert len(links) >= 20
    assert [link for link in links if not (ROOT / link).exists()] == []
