"""The house's floors (pyproject.toml, [tool.importlinter]): each layer imports only the
layers below it, core imports nothing impure, and no modules import each other in a loop,
checked by import-linter over core/, bot/ and storage/."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_import_contracts_are_kept() -> None:
    linter = Path(sys.executable).parent / "lint-imports"
    done = subprocess.run([str(linter), "--no-cache"], cwd=ROOT, capture_output=True,
                          text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.count(" KEPT") == 4, done.stdout  # (every contract was read)


def test_the_command_line_starts_without_what_only_some_commands_need() -> None:
    # (discord.py and networkx took 0.35 of the console's 0.8 s start: the console, export
    # and import load them only when a Discord platform or a Swiss round wants them)
    heavy = "{'discord', 'networkx', 'telegram', 'matplotlib'}"
    done = subprocess.run([sys.executable, "-c", "import sys, bot.cli; print(sorted("
                           f"{heavy} & set(sys.modules)))"],
                          cwd=ROOT, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
