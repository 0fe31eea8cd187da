"""core/ stays pure: no chat, database or scheduler imports, and no clock reads."""

import ast
from pathlib import Path

import pytest

CORE = Path(__file__).resolve().parent.parent / "core"
FORBIDDEN_MODULES = ("discord", "telegram", "aiosqlite", "sqlite3", "apscheduler", "bot",
                     "storage", "asyncio", "random", "time", "socket", "os")
CLOCK_CALLS = {"now", "utcnow", "today", "time", "monotonic", "perf_counter"}


def core_files() -> list[Path]:
    return sorted(CORE.glob("*.py"))


@pytest.mark.parametrize("path", core_files(), ids=lambda p: p.name)
def test_core_module_imports_nothing_impure(path: Path) -> None:
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            names = [node.module or ""]
        else:
            continue
        for name in names:
            assert name.split(".")[0] not in FORBIDDEN_MODULES, f"{path.name} imports {name}"


@pytest.mark.parametrize("path", core_files(), ids=lambda p: p.name)
def test_core_module_reads_no_clock(path: Path) -> None:
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            assert node.func.attr not in CLOCK_CALLS, f"{path.name} calls .{node.func.attr}()"


def test_the_boundary_check_sees_core() -> None:
    assert len(core_files()) >= 8
