"""What follows the standings on the platforms, kept in step: the live standings message
of `/ladder pin` (Discord and Telegram alike, through each platform's `Board`), and the
driver that wakes it and the Discord roles (bot/discord/roles.py).

Nothing here is a flag that could be lost: each step compares what the standings say
now with what was last shown or given (stored beside the ladder) and does the
difference. A command pokes its ladder so the change shows at once; every tick looks at
all of them, so a scheduled job's change (decay, a season close), a restart or a failed
edit is caught up within a tick.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Protocol

from core.domain.records import Announcement, LadderInfo, PinRecord
from core.i18n import render, t
from core.ports.repository import PlatformRepo, PlatformStore
from core.service.handlers.live import board, digest

log = logging.getLogger(__name__)

TICK = 30.0  # seconds between looks at every followed ladder
RETRY = 60.0  # seconds before a failed post or edit is tried again
SPARE_WAIT = 5.0  # seconds before a place with no budget to spare is looked at again


class Gone(Exception):
    """The message to edit was deleted: the live message ends (404)."""


class Unreachable(Exception):
    """The bot may not post or edit there now (403: a permission taken away): a problem
    shown in /ladder info and tried again, never the end of the live message."""

    def __init__(self, problem: str) -> None:
        super().__init__(problem)
        self.problem = problem  # a catalog code


class Board(Protocol):
    """A platform's side of the live standings message."""

    every: float  # seconds between two posts or edits in one place (a channel, a group)

    def owns(self, chat: str) -> bool:
        """True for chat keys of this platform."""
        ...

    def fit(self, text: str) -> str:
        """The words as one message of this platform shows them (escaped, the top of a
        table that is too long)."""
        ...

    def place(self, chat: str, channel: str | None) -> str:
        """Where a message is shown, as the platform counts its budget (a channel, a
        group): several ladders' messages there share it."""
        ...

    def spare(self, chat: str) -> bool:
        """Whether the place has budget to spare for an edit beside the replies (which
        always come first)."""
        ...

    async def post_board(self, chat: str, channel: str | None, text: str) -> str:
        """Post a new message; its id (raises Unreachable, or Gone)."""
        ...

    async def edit_board(self, chat: str, channel: str | None, message: str,
                         text: str) -> None:
        """Edit a message posted before (raises Gone when it was deleted, Unreachable
        when the bot may not now)."""
        ...


class Step(Protocol):
    """A part that keeps something in step: `step(only)` does what it can now, for the
    ladders `only` names (None: all), and says when it next wants to run (None: when
    something changes)."""

    async def step(self, only: set[int] | None = None) -> float | None:
        ...


class LiveStandings:
    """Posts and edits the live standings messages: each edit a task of its own, so
    one that waits (a platform's rate limit) holds nothing else; at most one edit in a
    place each `Board.every`, and only with budget to spare there."""

    def __init__(self, store: PlatformStore, boards: Sequence[Board],
                 clock: Callable[[], float],
                 announce: Callable[[Announcement], Awaitable[None]]) -> None:
        self.store, self.boards, self.clock, self.announce = store, list(boards), clock, announce
        self.failed: dict[int, float] = {}  # ladder -> when to try again
        self.last: dict[str, float] = {}  # place -> when a message there was last changed
        self.running: dict[int, asyncio.Task[None]] = {}  # ladder -> its post or edit

    def _board(self, chat: str) -> Board | None:
        return next((b for b in self.boards if b.owns(chat)), None)

    async def step(self, only: set[int] | None = None) -> float | None:
        """Start posting or editing every live message whose table changed, as its
        place allows; when next to run."""
        now = self.clock()

        def read(repo: PlatformRepo) -> list[tuple[LadderInfo, PinRecord, str]]:
            found = []
            for ladder in repo.followed():
                pin = repo.pin(ladder.id)
                if pin is not None and (only is None or ladder.id in only):
                    found.append((ladder, pin, board(repo, ladder, int(now))))
            return found

        wakes: list[float] = []
        for ladder, pin, words in await self.store.run(read, commit=False):
            place = self._board(ladder.chat)
            if place is None or ladder.id in self.running:
                continue
            text = place.fit(words)
            if pin.message is not None and digest(text) == pin.shown and not pin.problem:
                continue
            wake = self._start(place, ladder, pin, text, now)
            if wake is not None:
                wakes.append(wake)
        return min(wakes, default=None)

    def _start(self, place: Board, ladder: LadderInfo, pin: PinRecord, text: str,
               now: float) -> float | None:
        """Start the post or edit if its place allows it now; else when to look again."""
        where = place.place(ladder.chat, pin.channel)
        due = max(pin.edited + place.every if pin.message else 0.0,
                  self.last[where] + place.every if where in self.last else 0.0,
                  self.failed.get(ladder.id, 0.0))
        if now < due:
            return due
        if not place.spare(ladder.chat):  # (replies first: the edit waits for budget)
            return now + SPARE_WAIT
        self.last[where] = now
        task = asyncio.create_task(self._show(place, ladder, pin, text, now))
        self.running[ladder.id] = task
        task.add_done_callback(lambda _: self.running.pop(ladder.id, None))
        return None

    async def settled(self) -> None:
        """Wait for the posts and edits under way."""
        while self.running:
            await asyncio.gather(*self.running.values(), return_exceptions=True)

    async def _show(self, place: Board, ladder: LadderInfo, pin: PinRecord, text: str,
                    now: float) -> None:
        """Post or edit one message and record it (or its problem: tried again later)."""
        try:
            if pin.message is None:
                message = await place.post_board(ladder.chat, pin.channel, text)
            else:
                await place.edit_board(ladder.chat, pin.channel, pin.message, text)
                message = pin.message
        except Gone:
            await self._gone(ladder, pin)
            return
        except Unreachable as unreachable:
            log.warning("the live standings of %s in %s cannot be shown now (tried again "
                        "in %ds): %s", ladder.name, ladder.chat, RETRY, unreachable.problem)
            self.failed[ladder.id] = now + RETRY
            await self._record(ladder, pin, dataclasses.replace(pin, problem=unreachable.problem))
            return
        except Exception as error:
            log.warning("the live standings of %s in %s failed (tried again in %ds): %s",
                        ladder.name, ladder.chat, RETRY, error)
            self.failed[ladder.id] = now + RETRY
            return
        self.failed.pop(ladder.id, None)
        await self._record(ladder, pin, dataclasses.replace(
            pin, message=message, shown=digest(text), edited=int(now), problem=""))

    async def _record(self, ladder: LadderInfo, pin: PinRecord, done: PinRecord) -> None:
        def record(repo: PlatformRepo) -> None:
            if repo.pin(ladder.id) == pin:  # (not unpinned or moved meanwhile)
                repo.save_pin(ladder.id, done)

        if done != pin:
            await self.store.run(record)

    async def _gone(self, ladder: LadderInfo, pin: PinRecord) -> None:
        """Say once that the message was deleted, and stop."""
        def forget(repo: PlatformRepo) -> bool:
            if repo.pin(ladder.id) != pin:
                return False
            repo.save_pin(ladder.id, None)
            return True

        if await self.store.run(forget):
            words = render(t("pin.deleted", ladder=ladder.name), ladder.settings.language)
            await self.announce(Announcement(ladder.chat, ladder.name, words,
                                             pin.channel or ladder.channel,
                                             language=ladder.settings.language))


class Follower:
    """Runs the parts that keep the platforms in step: at once for a poked ladder, at
    the time a part asks for, and every `TICK` for all."""

    def __init__(self, store: PlatformStore, parts: Sequence[Step],
                 clock: Callable[[], float], leads: Callable[[], bool] = lambda: True) -> None:
        self.store, self.parts, self.clock = store, list(parts), clock
        # With several processes on one database, only the one that runs the scheduled
        # jobs keeps the platforms in step (two would post a new live message twice).
        self.leads = leads
        self.poked: set[tuple[str, str]] = set()
        self.woken = asyncio.Event()
        self.task: asyncio.Task[None] | None = None

    def poke(self, chat: str, ladder: str | None) -> None:
        """A command changed (or may have changed) a ladder of this chat."""
        if ladder is not None:
            self.poked.add((chat, ladder))
            self.woken.set()

    async def run_once(self, everything: bool = False) -> float | None:
        """One round: the poked ladders (all, when `everything`); when next to run."""
        poked, self.poked = self.poked, set()
        if not self.leads():
            return None
        only: set[int] | None = None
        if not everything:
            def ids(repo: PlatformRepo) -> set[int]:
                return {lad.id for chat, name in poked
                        if (lad := repo.ladder(chat, name)) is not None}
            only = await self.store.run(ids, commit=False)
        wakes = []
        for part in self.parts:
            try:
                wakes.append(await part.step(only))
            except Exception:
                log.exception("keeping the platforms in step failed; tried again next tick")
        return min((w for w in wakes if w is not None), default=None)

    async def _loop(self) -> None:
        last_all = -TICK
        wake: float | None = None
        while True:
            now = self.clock()
            everything = now - last_all >= TICK or (wake is not None and now >= wake)
            if everything:
                last_all = now
            wake = await self.run_once(everything)
            until = min(last_all + TICK, wake) if wake is not None else last_all + TICK
            self.woken.clear()
            if self.poked:
                continue
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.woken.wait(), max(0.5, until - self.clock()))

    def start(self) -> None:
        """Run in the background until `stop`."""
        if self.parts and self.task is None:
            self.task = asyncio.get_running_loop().create_task(self._loop())

    async def stop(self) -> None:
        """Stop (a step in flight is cancelled; its work is redone from the database),
        and let the posts and edits under way end."""
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
            self.task = None
        for part in self.parts:
            if isinstance(part, LiveStandings):
                await part.settled()

