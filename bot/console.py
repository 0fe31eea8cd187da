"""The console chat (CONSOLE.md): try the bot, or script it, with a simulated clock.

    @alice: /join            alice says /join in the console chat
    !time 2026-03-01T09:00:00+00:00   the clock moves there; due jobs run on the way
    # a comment              ignored, like blank lines

Every message the bot sends is printed as lines starting with `bot: `.
"""

from __future__ import annotations

import asyncio
import re
import sys
import time
from collections.abc import Iterable
from typing import TextIO

from core.calendar import parse_instant
from core.records import Announcement, ChartData, Context, Reply, UserRef
from core.service import catch_up_chat, handle
from core.settings import Policy
from storage.sqlite import SqliteStore

CHAT = "console"
LINE = re.compile(r"^@([^\s:]+):\s?(.*)$")


def user(name: str) -> UserRef:
    """The console user called `name`."""
    return UserRef(f"console:{name}", name)


class Console:
    """Feeds console lines to the command layer and prints what the bot says."""

    def __init__(self, store: SqliteStore, admins: Iterable[str], out: TextIO,
                 err: TextIO, policy: Policy | None = None) -> None:
        self.store = store
        self.admins = set(admins)
        self.out = out
        self.err = err
        self.policy = policy or Policy()
        self.clock: int | None = None  # None until the first !time: the real clock

    def now(self) -> int:
        """The console's clock: simulated after the first !time, else the real one."""
        return self.clock if self.clock is not None else int(time.time())

    def say(self, text: str) -> None:
        """Print a bot message, each line prefixed with `bot: `."""
        for line in text.splitlines() or [""]:
            self.out.write(f"bot: {line}\n")
        self.out.flush()

    def announce(self, announcements: Iterable[Announcement]) -> None:
        """Print scheduled announcements."""
        for a in announcements:
            self.say(a.text)

    async def line(self, raw: str) -> None:
        """Handle one input line."""
        text = raw.strip()
        if not text or text.startswith("#"):
            return
        if text.startswith("!time"):
            await self.move_clock(text[5:].strip())
            return
        found = LINE.match(text)
        if found is None:
            self.err.write("console: write lines as '@NAME: TEXT' or '!time ISO-TIME' "
                           f"(not understood: {text[:60]!r})\n")
            return
        name, said = found.group(1), found.group(2)
        if self.clock is None:  # the real clock moves by itself: run what fell due
            at = self.now()
            self.announce(await self.store.run(lambda repo: catch_up_chat(repo, CHAT, at)))
        ctx = Context(CHAT, user(name), self.now(), moderator=name in self.admins)
        reply: Reply | None = await self.store.run(
            lambda repo: handle(repo, ctx, said, user, self.policy))
        if reply is not None:
            self.announce(reply.announcements)
            self.say(reply.text)
            if reply.chart is not None:
                self.say(f"[chart saved to {await self.save_chart(reply.chart)}]")
            await self.store.restate_pending()  # history a far-back correction left

    async def save_chart(self, chart: ChartData) -> str:
        """Draw a chart (in a worker thread) into the charts folder beside the database."""
        from bot.charts import render

        folder = self.store.home / "charts"
        safe = "".join(c if c.isalnum() or c in "-_" else "_" for c in chart.name)[:80]
        path = folder / f"{safe or 'chart'}.png"
        picture = await asyncio.to_thread(render, chart)
        await asyncio.to_thread(folder.mkdir, exist_ok=True)
        await asyncio.to_thread(path.write_bytes, picture)
        return str(path)

    async def move_clock(self, text: str) -> None:
        """`!time ISO`: move the clock forward, running every job due on the way."""
        try:
            target = parse_instant(text)
        except ValueError:
            self.err.write(f"console: !time needs an ISO 8601 instant, not {text[:60]!r}\n")
            return
        if self.clock is not None and target < self.clock:
            self.err.write("console: the clock never moves backwards; it stays at "
                           f"{self.clock}\n")
            return
        self.clock = target
        self.announce(await self.store.run(lambda repo: catch_up_chat(repo, CHAT, target)))

    async def run(self, lines: Iterable[str]) -> None:
        """Handle every line until the input ends."""
        for raw in lines:
            await self.line(raw)


def prompt_lines(stream: TextIO) -> Iterable[str]:
    """Lines from a terminal, with a prompt."""
    while True:
        try:
            yield input("> ")
        except EOFError:
            return


def input_lines(stream: TextIO) -> Iterable[str]:
    """Lines from standard input: prompted on a terminal, read plainly from a pipe."""
    if stream.isatty():
        sys.stderr.write("Ladderbot console. Type '@alice: /help' to start; Ctrl-D to quit.\n")
        return prompt_lines(stream)
    return stream
