"""One bot process of `python -m bench --scale-out`: its share of the ladders' commands.

`python -m bench.scale_worker DB PLAN.json`: opens the store, prints `READY`, waits for a
line on stdin, then sends every command of the plan as chat messages would arrive (the
players of each ladder at once, each player's in order) and prints `DONE <seconds>
<commands> <refused> <cpu seconds> <peak memory MB>`. The plan is `{chat: [[player, text],
...]}`.
"""

from __future__ import annotations

import asyncio
import functools
import json
import os
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

from bench.machine import peak_rss_mb
from core.domain.records import Context, Reply, UserRef
from core.service.dispatch import handle
from storage.stores import store_for

T0 = 1767607200  # 2026-01-05 10:00 UTC
STEP = 15 * 60  # a ladder's commands come 15 simulated minutes apart


def user_in(chat: str) -> Any:
    """Names in a chat's commands, as its platform resolves them."""
    return lambda name: UserRef(f"{chat}:{name}", name)


class LadderClock:
    """A ladder's simulated time: 15 minutes on for every command it runs (its commands
    run one at a time, so time in its log follows their order)."""

    def __init__(self, start: int) -> None:
        self.now = start

    def tick(self) -> int:
        self.now += STEP
        return self.now


def command(repo: Any, chat: str, clock: LadderClock, who: str, text: str,
            message: str) -> Reply | None:
    """One chat message, handled as the gateway does: de-duplicated by its id."""
    ctx = Context(chat, user_in(chat)(who), clock.tick(), moderator=who == "mod",
                  message_id=message)
    return handle(repo, ctx, text, user_in(chat))


def _loaded(repo: Any, chat: str) -> None:
    """Load a chat's ladder's standings (a read such as /standings reads the stored
    tables and leaves them unloaded)."""
    ladder = repo.ladder(chat, None)
    assert ladder is not None, chat
    repo.state(ladder.id)


async def run(db: str, plan: dict[str, list[tuple[str, str]]], start: int) -> None:
    async with store_for(db) as store:
        clocks = {chat: LadderClock(start) for chat in plan}
        for chat in plan:  # warm: each ladder's standings in this process's memory
            await store.run(functools.partial(_loaded, chat=chat), commit=False)
        print("READY", flush=True)
        await asyncio.to_thread(sys.stdin.readline)
        refused = 0

        async def player(chat: str, commands: list[tuple[int, str]], who: str) -> None:
            nonlocal refused
            for n, text in commands:
                reply = await store.run(functools.partial(
                    command, chat=chat, clock=clocks[chat], who=who, text=text,
                    message=f"{start}-{n}"), key=chat)
                refused += reply is None or reply.error

        players = []
        for chat, commands in plan.items():
            by_player: dict[str, list[tuple[int, str]]] = defaultdict(list)
            for n, (who, text) in enumerate(commands):
                by_player[who].append((n, text))
            players += [player(chat, mine, who) for who, mine in by_player.items()]
        began, cpu = asyncio.get_running_loop().time(), _cpu()
        await asyncio.gather(*players)
        took = asyncio.get_running_loop().time() - began
        print(f"DONE {took:.6f} {sum(map(len, plan.values()))} {refused} {_cpu() - cpu:.6f} "
              f"{peak_rss_mb():.1f}", flush=True)


def _cpu() -> float:
    """This process's CPU time so far, its threads' and the kernel's for it included."""
    times = os.times()
    return times.user + times.system


if __name__ == "__main__":
    asyncio.run(run(sys.argv[1], json.loads(Path(sys.argv[2]).read_text()),
                    int(sys.argv[3])))
