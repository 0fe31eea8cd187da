"""A bot process for the crash tests, killed with SIGKILL by them at random moments.

DB is a SQLite file or a PostgreSQL URL.
`python -m tests.support.crash_worker load DB PLAN.json`: send the plan's commands (a queue per
user, the users concurrently), printing `ACK <message id> <reply as JSON>` once each is
committed. `python -m tests.support.crash_worker jobs DB NOW [hang]`: start the scheduler as
`ladderbot run` does at NOW, printing `POSTED <text as JSON>` for each announcement;
with `hang`, stop dead inside the catch-up transaction (after the jobs are applied,
before it commits) and say `MID-JOB`. `python -m tests.support.crash_worker touch DB NOW N`:
N players ask for /standings at NOW at once (each command first catches its ladder up),
printing `POSTED` for the announcements their replies carry.
"""

from __future__ import annotations

import asyncio
import json
import random
import sys
import time
from functools import partial
from pathlib import Path

from bot.scheduler import Scheduler
from core.domain.records import Announcement
from storage.sql import tuning
from storage.sql.repo import SqlRepo
from storage.stores import store_for
from tests.support.load import CHAT, T0, Clock, run_command


async def load(db: str, plan: dict[str, list[tuple[str, str]]], cache_mb: float) -> None:
    async with store_for(db, cache_mb=cache_mb) as store:
        last = await store.run(lambda repo: repo.conn.execute(
            "SELECT max(at) FROM events").fetchone()[0], commit=False)
        clock = Clock(max(last or 0, T0 + 3600))  # time never runs back across restarts

        async def player(who: str, commands: list[tuple[str, str]]) -> None:
            for message_id, text in commands:
                reply = await store.run(  # (keyed by chat, as the gateway runs them)
                    partial(run_command, clock=clock.tick, who=who, text=text,
                            message_id=message_id),
                    key=who.rpartition("|")[0] or CHAT)
                answer = "" if reply is None else reply.said
                # Sending the reply takes a moment, as over a network: a kill can fall
                # between the commit and the answer, and the user then sends it again.
                await asyncio.sleep(random.uniform(0, 0.01))
                print(f"ACK {message_id} {json.dumps(answer)}", flush=True)

        await asyncio.gather(*(player(who, cmds) for who, cmds in plan.items()))


async def jobs(db: str, now: int, hang: bool) -> None:
    if hang:
        def enqueue_then_hang(self: SqlRepo, *args: object) -> None:
            print("MID-JOB", flush=True)
            time.sleep(600)

        SqlRepo.enqueue = enqueue_then_hang  # type: ignore[method-assign,assignment]

    async def post(announcement: Announcement) -> None:
        print(f"POSTED {json.dumps(announcement.text)}", flush=True)

    async with store_for(db) as store:
        scheduler = Scheduler(store, post, clock=lambda: float(now))
        await scheduler.start()
        scheduler.stop()


async def touch(db: str, now: int, players: int) -> None:
    async with store_for(db) as store:
        async def standings(who: str) -> None:
            reply = await store.run(lambda repo: run_command(repo, lambda: now, who,
                                                             "/standings"))
            for announcement in reply.announcements if reply is not None else ():
                print(f"POSTED {json.dumps(announcement.text)}", flush=True)

        await asyncio.gather(*(standings(f"u{i:02d}") for i in range(players)))


if __name__ == "__main__":
    mode, path = sys.argv[1], sys.argv[2]
    if mode == "load":
        cache_mb = float(sys.argv[4]) if len(sys.argv) > 4 else tuning.CACHE_MB
        asyncio.run(load(path, json.loads(Path(sys.argv[3]).read_text()), cache_mb))
    elif mode == "touch":
        asyncio.run(touch(path, int(sys.argv[3]), int(sys.argv[4])))
    else:
        asyncio.run(jobs(path, int(sys.argv[3]), sys.argv[4:] == ["hang"]))
