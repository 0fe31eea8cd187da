"""core/ reads no clock: time comes in as an argument (what core may import is
import-linter's contract, tests/unit/test_layers.py)."""

import ast
from pathlib import Path

import pytest

CORE = Path(__file__).resolve().parents[2] / "core"
CLOCK_CALLS = {"now", "utcnow", "today", "time", "monotonic", "perf_counter"}


def core_files() -> list[Path]:
    return sorted(CORE.rglob("*.py"))


@pytest.mark.parametrize("path", core_files(), ids=lambda p: str(p.relative_to(CORE)))
def test_core_module_reads_no_clock(path: Path) -> None:
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            assert node.func.attr not in CLOCK_CALLS, f"{path.name} calls .{node.func.attr}()"


def test_the_boundary_check_sees_core() -> None:
    assert len(core_files()) >= 60
