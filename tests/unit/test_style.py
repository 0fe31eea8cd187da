"""The project's own checks run with the suite: mypy --strict on core/, bot/, storage/,
bench/ and the tests (pyproject.toml's list), ruff everywhere."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=ROOT, capture_output=True, text=True, timeout=300)


def test_mypy_strict_on_the_code_and_its_tests() -> None:
    done = run(sys.executable, "-m", "mypy", "--strict")  # (the packages pyproject.toml names)
    assert done.returncode == 0, done.stdout + done.stderr


def test_ruff_is_clean() -> None:
    done = run(sys.executable, "-m", "ruff", "check", ".")
    assert done.returncode == 0, done.stdout + done.stderr
