"""Random chats on the SQLite store and on the in-memory reference model (`core.domain.ledger`,
which re-derives by replaying from a snapshot) give the same replies, exports, standings
and profiles after every command: reports (confirmed, disputed, withdrawn or left to the
window), corrections of any match (voided, restored, rated or not), adjustments, leaving
or being taken off and coming back, and time passing (decay, seasons).

SQLite rolls recent corrections back in place and follows old ones by their ripple;
comparing it with the replaying model after each command is what found a restored
voided match whose players' stored standings were never rewritten."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

from core.domain.calendar import HOUR
from storage.memory.store import MemoryStore
from storage.sql import tuning
from storage.sqlite.store import SqliteStore
from tests.support.chat import Chat

OPTIONS = {"duel": ["calibration=1"], "warlight": [], "fame": [], "dutch": [], "nhwc": []}


class Script:
    """The next command, drawn at random from what the chat has so far."""

    def __init__(self, seed: int, preset: str, confirm: bool) -> None:
        self.rng, self.preset, self.confirm = random.Random(seed), preset, confirm
        self.players = [f"p{i}" for i in range(8)]
        self.matches: dict[int, str] = {}  # match id -> one of its players
        self.voided: list[int] = []

    def report(self, a: str, b: str) -> list[tuple[str, str]]:
        rng = self.rng
        if self.preset == "nhwc":
            result = rng.choice(["win @B minor", "loss @B major", "win @B overwhelming",
                                 "draw @B"]).replace("B", b)
            if self.confirm and rng.random() < 0.2:  # unanswered: a forfeit at the deadline
                return [(a, f"/challenge @{b}")]
            out = [(a, f"/challenge @{b}"), (b, f"/accept @{a}"), (a, f"/report {result}")]
        elif self.preset == "warlight" and rng.random() < 0.3:
            c = rng.choice([p for p in self.players if p not in (a, b)])
            out = [(a, f"/report ffa @{a} @{b} @{c}")]
        else:
            how = rng.choice(["win", "win", "loss", "draw", "win unrated", "win moves=1",
                              "win moves=30"])
            out = [(a, f"/report {how} @{b}")]
        if self.confirm:  # else it waits: confirmed when the window passes
            out += rng.choice([[(b, "/confirm")], [(b, "/dispute no way")], [(a, "/withdraw")],
                               []])
        return out

    def fix(self, a: str, b: str) -> list[tuple[str, str]]:
        rng, ids = self.rng, sorted(self.matches)
        if self.voided and rng.random() < 0.5:  # given a result after all
            m = self.voided.pop()
            return [("mod", f"/mod set {m} @{self.matches[m]} it was played")]
        m = rng.choice(ids[-10:])  # mostly recent ones: rolled back in place
        if rng.random() < 0.4:
            self.voided.append(m)
            return [("mod", f"/mod void {m} not played")]
        return [("mod", rng.choice([f"/mod set {m} @{a} y", f"/mod set {m} @{b} y",
                                    f"/mod set {m} draw z", f"/mod set {m} @{a} unrated u",
                                    f"/mod set {m} @{b} rated r"]))]

    def next(self) -> list[tuple[str, str]]:
        """(name, command) pairs; a name of "!tick" moves the clock by that many seconds."""
        rng = self.rng
        r = rng.random()
        a, b = rng.sample(self.players, 2)
        if r < 0.5 or not self.matches:
            return self.report(a, b)
        if r < 0.75:
            return self.fix(a, b)
        if r < 0.8:
            return [("mod", f"/mod adjust @{a} {rng.choice(['+5', '-7', '+1', '-2'])} adj")]
        if r < 0.85:  # (refused, and nothing changes, while a report or challenge waits)
            return [rng.choice([(a, "/leave"), ("mod", f"/mod remove @{a} gone")]), (a, "/join")]
        return [("!tick", str(rng.choice([1, 6, 20, 30]) * HOUR))]

    def heard(self, name: str, text: str, reply: str) -> None:
        found = re.search(r"Match #(\d+)|match #(\d+)\.", reply)  # (a forfeit's number)
        if found and (text.startswith("/report") or "forfeit" in reply):
            self.matches[int(found.group(1) or found.group(2))] = name


async def _same(one: Chat, two: Chat, players: list[str], after: str) -> None:
    assert await one.export() == await two.export(), after
    # the stored standings, which these read
    for name, text in [(players[0], "/standings"), *((p, "/profile") for p in players)]:
        mine, theirs = await one.say(name, text), await two.say(name, text)
        assert mine is not None and theirs is not None
        assert mine.text == theirs.text, after


@pytest.mark.parametrize("preset", list(OPTIONS))
@pytest.mark.parametrize("seed", [1, 2])
async def test_sqlite_answers_as_the_replaying_model(
        tmp_path: Path, monkeypatch: Any, preset: str, seed: int) -> None:
    """Seed 1: reports count at once, every correction within the journal. Seed 2:
    reports wait for /confirm (or a dispute, or the window; challenges for an answer),
    the journal is short, snapshots are frequent and older history is restated later."""
    short = seed == 2
    if short:
        monkeypatch.setattr(tuning, "UNDO_EVENTS", 7)
        monkeypatch.setattr(tuning, "SYNC_RESTATE", 4)
    script = Script(seed, preset, confirm=short)
    async with SqliteStore(tmp_path / "l.db", snapshot_every=3 if short else 1000,
                           snapshot_per_player=0) as store:
        one, two = Chat(store), Chat(MemoryStore(snapshot_every=5))
        for chat in (one, two):
            await chat.ladder(preset, f"confirm={str(short).lower()}", *OPTIONS[preset])
            await chat.join(*script.players)
        for _ in range(30):
            for name, text in script.next():
                if name == "!tick":
                    mine, theirs = await one.tick(int(text)), await two.tick(int(text))
                    assert [a.text for a in mine] == [a.text for a in theirs]
                    for announcement in mine:
                        script.heard(name, text, announcement.text)
                else:
                    reply, twin = await one.say(name, text), await two.say(name, text)
                    assert reply is not None and twin is not None
                    assert reply.text == twin.text, text
                    script.heard(name, text, reply.said)
                await store.restate_pending()
                await _same(one, two, script.players, text)
