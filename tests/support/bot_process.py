"""Child processes for tests: `ladderbot run` for the end-to-end tests of each platform,
and killing a worker at a point it announces, for the crash tests."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

from tests.support.console import ladderbot

ROOT = Path(__file__).resolve().parents[2]


async def start(config: Path, *args: str) -> asyncio.subprocess.Process:
    """`ladderbot run --config CONFIG ARGS`, its output piped."""
    return await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot.cli", "run", "--config", str(config), *args, cwd=ROOT,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)


async def stop(*bots: asyncio.subprocess.Process) -> list[str]:
    """SIGTERM each bot still running and wait (at most 30 s) for it to exit; returns
    what each wrote to standard error."""
    for bot in bots:
        if bot.returncode is None:
            bot.send_signal(signal.SIGTERM)
    errors = [(await asyncio.wait_for(bot.communicate(), 30))[1].decode() for bot in bots]
    for n, err in enumerate(errors):  # pytest shows it only when the test fails
        print(f"--- standard error of bot {n} ---\n{err}")
    return errors


def ratings(db: str | Path, chat: str) -> dict[str, float]:
    """Each player's rating on the chat's ladder `main`, from `ladderbot export`."""
    done = ladderbot("export", "--db", str(db), "--chat", chat, "--ladder", "main")
    assert done.returncode == 0, done.stderr
    return {p["name"]: p["rating"] for p in json.loads(done.stdout)["players"]}


async def kill_at(worker: subprocess.Popen[str], marker: str) -> None:
    """SIGKILL `worker` once it prints the line `marker` (waiting at most 60 s for it),
    and reap it whatever happens."""
    assert worker.stdout is not None
    try:
        line = await asyncio.wait_for(asyncio.to_thread(worker.stdout.readline), 60)
        assert line.strip() == marker
        os.kill(worker.pid, signal.SIGKILL)
    finally:
        worker.kill()
        worker.wait(timeout=30)
        worker.stdout.close()
