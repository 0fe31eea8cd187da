"""The command line run as a user runs it: `ladderbot console` over a script, `ladderbot export` at
an instant, any other subcommand."""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import resource
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

from core.domain.calendar import parse_instant
from core.service import dispatch
from storage.sqlite.store import SqliteStore

ROOT = Path(__file__).resolve().parents[2]


def ladderbot(*args: str, stdin: str = "", cwd: Path | None = None,
              limit: int | None = None) -> subprocess.CompletedProcess[str]:
    """Run the command line; `limit` caps the size of any file it writes (a full disk)."""
    def capped() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a failed write, not a killed process
        assert limit is not None
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return subprocess.run([sys.executable, "-m", "bot.cli", *args], input=stdin, text=True,
                          capture_output=True, timeout=120, cwd=cwd or ROOT,
                          preexec_fn=None if limit is None else capped)


def console(db: Path, script: str, *admins: str) -> str:
    """`ladderbot console` over a script: what it printed. In this process where no event
    loop runs here (a process of its own costs a second), else in one of its own."""
    args = ("console", "--db", str(db), *(f"--admin={a}" for a in admins or ("mod",)))
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return _in_process(args, script)
    done = ladderbot(*args, stdin=script)
    assert done.returncode == 0, done.stderr
    return done.stdout


def _in_process(args: tuple[str, ...], stdin: str = "") -> str:
    """`ladderbot ARGS` run by this process, as its own would run it: what it printed."""
    from bot.cli import main
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), \
            _stdin(stdin):
        code = main(list(args))
    assert code == 0, err.getvalue()
    return out.getvalue()


@contextlib.contextmanager
def _stdin(text: str) -> Any:
    """Standard input reading `text` (not a terminal, as a piped script's is not)."""
    real, sys.stdin = sys.stdin, io.TextIOWrapper(io.BytesIO(text.encode()), "utf-8")
    try:
        yield
    finally:
        sys.stdin = real


def export(db: Path | str, at: str, ladder: str = "main", chat: str = "console"
           ) -> dict[str, Any]:
    """`ladderbot export`'s JSON: in this process where no event loop runs here (a process
    of its own costs a second), else in one of its own."""
    args = ("export", "--db", str(db), "--ladder", ladder, "--at", at, "--chat", chat)
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        data: dict[str, Any] = json.loads(_in_process(args))
        return data
    done = ladderbot(*args)
    assert done.returncode == 0, done.stderr
    found: dict[str, Any] = json.loads(done.stdout)
    return found


DUEL_START = ("!time 2026-01-05T10:00:00+00:00\n@mod: /ladder create main preset=duel\n"
              "@alice: /join\n@bob: /join\n@alice: /report win @bob\n")


def read_export(db: Path, at: str, ladder: str = "main") -> dict[str, Any]:
    """What `ladderbot export` prints, read in this process (the same `dispatch.export`
    through a JSON round trip, without a process's start): for tests that compare
    ladders, not the command line."""
    async def read() -> dict[str, Any]:
        async with SqliteStore(db) as store:
            data: dict[str, Any] = await store.run(
                lambda repo: dispatch.export(repo, "console", ladder, parse_instant(at)),
                commit=False)
        return data

    found: dict[str, Any] = json.loads(json.dumps(asyncio.run(read())))
    return found
