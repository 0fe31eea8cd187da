"""The console chat (CONSOLE.md): try the bot, or script it, with a simulated clock.

    @alice: /join            alice says /join in the console chat
    !time 2026-03-01T09:00:00+00:00   the clock moves there; due jobs run on the way
    # a comment              ignored, like blank lines

Every message the bot sends is printed as lines starting with `bot: `.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import sqlite3
import sys
import time
import traceback
import unicodedata
from collections.abc import Callable, Coroutine, Iterable
from typing import Any, TextIO

from bot.text import APOLOGY, overtime
from core.domain.budget import Overtime
from core.domain.calendar import DAY, INSTANTS, iso, parse_instant
from core.domain.chart import ChartData
from core.domain.records import Announcement, Context, Reply, UserRef
from core.domain.settings import Policy
from core.domain.tournament.chart import BracketChart
from core.i18n import render, t
from core.service.dispatch import catch_up_chat, handle
from storage.sql.units import SqlStore

CHAT = "console"
LINE = re.compile(r"^@([^\s:]+):\s?(.*)$")
NAME_LENGTH = 32  # as Discord's and Telegram's user names
# The longest step of one `!time`: every day on the way is applied (a decay day is an event
# of the log), so a jump of centuries would take minutes; ten years take about a second.
LONGEST_STEP = 3653 * DAY


def user(name: str) -> UserRef:
    """The console user called `name`."""
    return UserRef(f"console:{name}", name)


class Console:
    """Feeds console lines to the command layer and prints what the bot says."""

    def __init__(self, store: SqlStore, admins: Iterable[str], out: TextIO,
                 err: TextIO, policy: Policy | None = None) -> None:
        self.store = store
        self.admins = set(admins)
        self.out = out
        self.err = err
        self.policy = policy or Policy()
        self.clock: int | None = None  # None until the first !time: the real clock
        self.number = 0  # the input line being handled, for warnings

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

    def warn(self, text: str) -> None:
        """A warning about the input, naming its line, on standard error."""
        self.err.write(f"console: line {self.number}: {text}\n")
        self.err.flush()

    async def line(self, raw: str) -> None:
        """Handle one input line."""
        text = raw.strip()
        if not text or text.startswith("#"):
            return
        if not _is_utf8(text):
            self.warn("not valid UTF-8; skipped")
            return
        if text.startswith("!time"):
            await self.move_clock(text[5:].strip())
            return
        found = LINE.match(text)
        if found is None:
            self.warn("write lines as '@NAME: TEXT' or '!time ISO-TIME' "
                      f"(not understood: {text[:60]!r})")
            return
        name, said = found.group(1), found.group(2)
        if len(name) > NAME_LENGTH or any(unicodedata.category(c) == "Cc" for c in name):
            self.warn(f"a name is at most {NAME_LENGTH} characters, none of them control "
                      f"characters (not {name[:NAME_LENGTH + 8]!r}); skipped")
            return
        if self.clock is None:  # the real clock moves by itself: run what fell due
            at = self.now()
            self.announce(await self.store.run(lambda repo: catch_up_chat(repo, CHAT, at)))
        # (a console is read by the one who types: a code it gives stays theirs)
        ctx = Context(CHAT, user(name), self.now(), moderator=name in self.admins,
                      ephemeral=True)
        reply: Reply | None = await self.store.run(
            lambda repo: handle(repo, ctx, said, user, self.policy))
        if reply is not None:
            self.announce(reply.announcements)
            self.say(reply.said)
            if reply.chart is not None:
                path = await self.save_chart(reply.chart)
                self.say(f"[{render(t('console.chart', path=path), reply.language)}]")
            await self.store.restate_pending()  # history a far-back correction left

    async def save_chart(self, chart: ChartData | BracketChart) -> str:
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
            self.warn(f"!time needs an ISO 8601 instant {INSTANTS}, such as "
                      f"2026-03-01T09:00:00+00:00, not {text[:60]!r}")
            return
        # (before the first !time, the database's clock: the real one may have moved it on)
        floor = self.clock if self.clock is not None else await self.stands()
        if floor is not None and target < floor:
            where = "it stays at" if self.clock is not None else \
                "it stays where this database's clock stands,"
            self.warn(f"the clock never moves backwards; {where} {iso(floor)}")
            self.clock = floor  # (simulated from here: not the real time a !time meant to leave)
            return
        if floor is not None and target - floor > LONGEST_STEP:
            self.warn("!time moves the clock at most 10 years at once (every day's jobs run "
                      f"on the way); it stays at {iso(floor)}")
            return
        self.clock = target
        self.announce(await self.store.run(lambda repo: catch_up_chat(repo, CHAT, target)))

    async def stands(self) -> int | None:
        """Where the database's clock stands: the latest its ladders here have run to
        (None: it has none yet)."""
        return await self.store.run(
            lambda repo: max((ladder.clock for ladder in repo.ladders(CHAT)), default=None),
            commit=False)

    async def opened(self) -> None:
        """Say where an existing database's clock stands, as a session begins: a line
        before the first `!time` runs at the real time, and no `!time` goes back."""
        at = await self.stands()
        if at is not None:
            self.err.write(f"console: this database's clock stands at {iso(at)}; lines "
                           "before a !time run at the real time, and !time never goes back\n")
            self.err.flush()

    async def run(self, lines: Iterable[str]) -> None:
        """Handle every line until the input ends."""
        await self.opened()
        for number, raw in enumerate(lines, 1):
            await self.step(number, raw)

    async def step(self, number: int, raw: str) -> None:
        """Handle input line `number`. A line that fails unexpectedly is answered as the
        other chats answer it (an apology; the traceback on standard error), and the lines
        after it still run."""
        self.number = number
        stopped = False
        try:
            await self.line(raw)
        except Overtime:  # (rolled back: the database is as before the line)
            stopped = True
        except sqlite3.Error as error:  # a full disk, a file gone bad: not a bug of ours
            self.warn(f"the database failed: {error}; nothing of this line was stored")
            self.say(render(APOLOGY, self.policy.language))
        except Exception:
            self.warn(f"unexpected error\n{traceback.format_exc()}")
            self.say(render(APOLOGY, self.policy.language))
        if stopped:  # (said out of the except: its traceback is let go)
            self.say(render(overtime(), self.policy.language))


def _is_utf8(text: str) -> bool:
    """False for text holding bytes that were not UTF-8 (decoded as lone surrogates)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def prompt_lines() -> Iterable[str]:
    """Lines from a terminal, with a prompt that edits lines and keeps their history (the
    standard readline module, where the platform has it)."""
    with contextlib.suppress(ImportError):  # (Windows has none)
        import readline  # noqa: F401  (importing it is what gives input() line editing)
    sys.stderr.write("Ladderbot console. Type '@alice: /help' to start; Ctrl-D or Ctrl-C to "
                     "quit.\n")
    while True:
        try:
            yield input("> ")
        except EOFError:
            return
        except UnicodeDecodeError:
            yield "\udcff"  # as a pipe's undecodable line: warned about and skipped


def input_lines(stream: TextIO) -> Iterable[str]:
    """Lines from a pipe or file (bytes that are not UTF-8 kept as lone surrogates, so
    that only their line is skipped)."""
    return (line.decode("utf-8", "surrogateescape") for line in stream.buffer)


def interactive(start: Callable[[], Coroutine[Any, Any, Console]],
                stop: Callable[[], Coroutine[Any, Any, None]]) -> None:
    """The console on a terminal, until Ctrl-D or Ctrl-C. Each line runs in an event loop
    of its own turn, and the prompt waits outside it: under asyncio.run the first Ctrl-C
    only cancels the main task, which a prompt blocked in input() never notices."""
    with asyncio.Runner() as runner:
        console = runner.run(start())
        runner.run(console.opened())
        try:
            for number, raw in enumerate(prompt_lines(), 1):
                runner.run(console.step(number, raw))
        except KeyboardInterrupt:
            sys.stderr.write("\n")
        finally:
            runner.run(stop())
