"""A process killed in the middle of a command leaves the database as before it."""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap
from pathlib import Path

from core.domain.calendar import parse_instant
from core.domain.state import replay
from storage.sqlite.store import SqliteStore
from tests.support.audit import integrity
from tests.support.bot_process import kill_at
from tests.support.chat import Chat

ROOT = Path(__file__).resolve().parents[2]

# The worker runs a real `/report` through the command layer and stops dead half-way
# through writing it: after the event and the match's changes are written, before the
# transaction commits. It says so on stdout, then waits to be killed.
WORKER = textwrap.dedent("""
    import asyncio, sys, time
    from core.domain.records import Context, UserRef
    from core.service.dispatch import handle
    from storage.sqlite import store as sqlite

    original = sqlite.SqlRepo._project

    def project_then_hang(self, *args):
        original(self, *args)
        print("HALF-WRITTEN", flush=True)
        time.sleep(600)

    sqlite.SqlRepo._project = project_then_hang

    async def main():
        async with sqlite.SqliteStore(sys.argv[1]) as store:
            who = UserRef("console:alice", "alice")
            ctx = Context("console", who, int(sys.argv[2]))
            resolve = lambda name: UserRef(f"console:{name}", name)
            await store.run(lambda repo: handle(repo, ctx, "/report win @bob", resolve))

    asyncio.run(main())
""")


AT = parse_instant("2026-01-05T10:00:00+00:00")


async def _one_game(db: Path) -> dict[str, object]:
    """A duel ladder with one game at AT: its export."""
    async with SqliteStore(db) as store:
        chat = Chat(store, at=AT)
        await chat.ladder("duel", "confirm=false")
        await chat.join("alice", "bob")
        await chat.ok("alice", "/report win @bob")
        return await chat.export()


async def _killed(script: str, marker: str, db: Path, *args: str) -> None:
    """Run `script` on `db` and SIGKILL it once it prints `marker`; the file is sound."""
    worker = subprocess.Popen(  # noqa: ASYNC220 (started, then only read from a thread)
        [sys.executable, "-c", script, str(db), *args],
        cwd=ROOT, stdout=subprocess.PIPE, text=True)
    await kill_at(worker, marker)
    assert worker.returncode == -signal.SIGKILL
    assert integrity(db) == "ok"


async def test_sigkill_mid_command_leaves_the_database_as_before(tmp_path: Path) -> None:
    db = tmp_path / "l.db"
    before = await _one_game(db)
    await _killed(WORKER, "HALF-WRITTEN", db, str(AT + 60))
    async with SqliteStore(db) as store:
        chat = Chat(store, at=AT)
        assert await chat.export() == before
        state = await store.run(lambda repo: repo.state(1))
        events = await store.run(lambda repo: repo.events(1))
        base = await store.run(lambda repo: repo.base_settings(1))
        assert replay(base, events).fingerprint() == state.fingerprint()
        # and the bot goes on from there
        chat.at = AT + 120
        assert "Match #2" in await chat.ok("alice", "/report win @bob")


# The worker runs `ladderbot import` of a match CSV and stops dead after its 3rd of 5
# matches is written, before the import's one transaction commits.
IMPORT_WORKER = textwrap.dedent("""
    import sys, time
    from bot.cli import main
    from core.service import importing

    # runs of two matches: killed after the second run, 4 of 5 matches in
    original, done, importing.LONGEST_RUN = importing._append_run, [], 2

    def run_then_hang(*args):
        found = original(*args)
        done.append(found)
        if len(done) == 2:
            print("HALF-IMPORTED", flush=True)
            time.sleep(600)
        return found

    importing._append_run = run_then_hang
    main(["import", "--db", sys.argv[1], "--ladder", "main", sys.argv[2]])
""")


async def test_sigkill_mid_import_leaves_the_ladder_as_before(tmp_path: Path) -> None:
    db, file = tmp_path / "l.db", tmp_path / "m.csv"
    before = await _one_game(db)
    file.write_text("played_at,players,result\n" + "".join(
        f"2026-01-05T1{h}:00:00+00:00,bob vs carol,1\n" for h in range(1, 6)))
    await _killed(IMPORT_WORKER, "HALF-IMPORTED", db, str(file))
    async with SqliteStore(db) as store:
        chat = Chat(store, at=AT)
        assert await chat.export() == before
        assert await store.run(lambda repo: repo.imports(1)) == []
