"""Simulated players for the load and crash tests: what they send, and what must hold after.

Every user sends a fixed, seeded stream of commands on two ladders of one chat: `main`
(duel, reports wait for /confirm) and `pos` (nhwc, challenges). Many are refused (a
/confirm with nothing to confirm, a challenge out of range); that is part of the load.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from core.domain.records import Context, Reply, UserRef
from core.service.dispatch import handle
from storage.sql.repo import SqlRepo
from storage.stores import store_for

CHAT = "console"
T0 = 1767607200  # 2026-01-05 10:00 UTC
REPORTED = re.compile(r"^Match #(\d+)(?: reported)?:")  # pending, or at once on pos
CONFIRMED = re.compile(r"^(?:Match #(\d+) confirmed|That matches #(\d+), which is now "
                       r"confirmed)")  # by /confirm, or by the opponent's matching report


def user(name: str, chat: str = CHAT) -> UserRef:
    return UserRef(f"{chat}:{name}", name)


def names(users: int) -> list[str]:
    return [f"u{i:02d}" for i in range(users)]


def setup_commands(users: int) -> list[tuple[str, str]]:
    """(who, text): the two ladders, everyone on both."""
    found = [("mod", "/ladder create main preset=duel"),
             ("mod", "/ladder create pos preset=nhwc")]
    for name in names(users):
        found += [(name, "/join"), (name, "/join ladder=pos")]
    return found


def stream(users: int, index: int, count: int, seed: int = 7) -> list[str]:
    """The commands user `index` sends, in order."""
    rng = random.Random(seed * 1000 + index)
    others = [n for i, n in enumerate(names(users)) if i != index]
    texts = []
    for _ in range(count):
        them = rng.choice(others)
        texts.append(rng.choices([
            f"/report win @{them}", f"/report loss @{them}", f"/report draw @{them}",
            "/confirm", "/standings", "/standings week", f"/profile @{them}",
            f"/challenge @{them} ladder=pos", "/accept ladder=pos",
            f"/report win @{them} minor ladder=pos", f"/report loss @{them} major ladder=pos",
        ], weights=[10, 5, 2, 12, 6, 2, 4, 5, 5, 3, 2])[0])
    return texts


@dataclass
class Clock:
    """Seconds that move on by one for every command the store runs: runs are serial, so
    time in the log follows the order of the transactions, as it would live."""

    now: int = T0 + 3600

    def tick(self) -> int:
        self.now += 1
        return self.now


@dataclass
class Outcomes:
    """What the commands got back, for the checks."""

    reported: dict[str, list[int]] = field(default_factory=lambda: {"main": [], "pos": []})
    confirmed: list[int] = field(default_factory=list)

    def note(self, text: str, reply: Reply) -> None:
        if reply.error:
            return
        if (found := CONFIRMED.match(reply.said)) is not None:
            self.confirmed.append(int(found.group(1) or found.group(2)))
        elif (found := REPORTED.match(reply.said)) is not None:
            self.reported["pos" if "ladder=pos" in text else "main"].append(int(found.group(1)))


async def seed(target: Path | str, commands: list[tuple[str, str]]) -> None:
    """Set a database up with commands that must all succeed, one transaction each."""
    clock = Clock()
    async with store_for(str(target)) as store:
        for who, text in commands:
            reply = await store.run(partial(run_command, clock=clock.tick, who=who, text=text))
            assert reply is not None and not reply.error, reply


def outcomes_from(texts: dict[str, list[str]], answers: dict[str, str]) -> Outcomes:
    """The outcomes of every user's commands from the answers worker processes printed
    (message ids `WHO-N`). Only an accepted report or confirmation starts with its match
    number, so that is what tells them from refusals: a refusal is never remembered, and
    a re-sent refused command is simply refused again."""
    outcomes = Outcomes()
    for who, commands in texts.items():
        for n, text in enumerate(commands):
            answer = answers[f"{who}-{n}"]
            accepted = re.match(r"(Match|That matches) #", answer) is not None
            outcomes.note(text, Reply(answer, error=not accepted))
    return outcomes


def run_command(repo: SqlRepo, clock: Callable[[], int], who: str, text: str,
                message_id: str | None = None) -> Reply | None:
    """One command as a chat would send it, at the moment the store runs it. `who` is a
    name in the load's chat, or `chat|name` (the many-ladder load's)."""
    chat, _, name = who.rpartition("|")
    chat = chat or CHAT
    ctx = Context(chat, user(name, chat), clock(), moderator=name == "mod",
                  message_id=message_id)
    return handle(repo, ctx, text, lambda mentioned: user(mentioned, chat))


async def check_matches(target: Path | str, outcomes: Outcomes) -> dict[str, int]:
    """No lost and no doubled match: the matches in the database are exactly those whose
    report was answered with its number, each confirmed once, each once in the log."""
    def read(repo: SqlRepo) -> dict[str, tuple[list[int], list[tuple[int, int]], set[int]]]:
        found = {}
        for name in outcomes.reported:
            ladder = repo.conn.execute("SELECT id FROM ladders WHERE name=?",
                                       (name,)).fetchone()[0]
            stored = [r[0] for r in repo.conn.execute(
                "SELECT id FROM matches WHERE ladder=? ORDER BY id", (ladder,)).fetchall()]
            logged = [(r[0], r[1]) for r in repo.conn.execute(
                "SELECT match, count(*) FROM events WHERE ladder=? AND kind='match' "
                "GROUP BY match", (ladder,)).fetchall()]
            confirmed = {r[0] for r in repo.conn.execute(
                "SELECT id FROM matches WHERE ladder=? AND status='confirmed'",
                (ladder,)).fetchall()}
            found[name] = (stored, logged, confirmed)
        return found

    async with store_for(str(target)) as store:
        found = await store.run(read, commit=False)
    counts = {}
    for name, numbers in outcomes.reported.items():
        stored, logged, confirmed = found[name]
        assert sorted(numbers) == stored, f"{name}: replies and stored matches differ"
        assert stored == list(range(1, len(stored) + 1))
        assert all(n == 1 for _, n in logged), f"{name}: a match is in the log twice"
        assert confirmed == {m for m, _ in logged}
        if name == "main":
            assert sorted(outcomes.confirmed) == sorted(set(outcomes.confirmed))
            assert set(outcomes.confirmed) == confirmed
        counts[name] = len(stored)
    return counts


# ------------------------------------------------------------------ many ladders
# LADDERS chats of PLAYERS each, one duel ladder per chat (reports wait for /confirm):
# the scale-out's shape, where the load and crash tests check it too, with more ladders
# than a process's standings cache holds at TIGHT_MB (each is let go of and read again).
LADDERS, PLAYERS = 200, 12
TIGHT_MB = 0.5


def many_chats() -> list[str]:
    return [f"console:l{i:03d}" for i in range(LADDERS)]


def many_setup() -> list[tuple[str, str]]:
    """(chat|who, text): every chat's ladder and its players."""
    found = []
    for chat in many_chats():
        found.append((f"{chat}|mod", "/ladder create main preset=duel"))
        found += [(f"{chat}|{name}", "/join") for name in names(PLAYERS)]
    return found


def many_streams(count: int, seed: int) -> dict[str, list[str]]:
    """chat|who: the commands each player of every chat sends, in order."""
    texts = {}
    for c, chat in enumerate(many_chats()):
        for i, name in enumerate(names(PLAYERS)):
            rng = random.Random(seed * 100_000 + c * 100 + i)
            others = [n for n in names(PLAYERS) if n != name]
            texts[f"{chat}|{name}"] = [rng.choices(
                [f"/report win @{them}", f"/report loss @{them}", "/confirm", "/standings",
                 f"/profile @{them}"], weights=[10, 5, 12, 6, 4])[0]
                for them in (rng.choice(others) for _ in range(count))]
    return texts


async def check_many(target: Path | str, texts: dict[str, list[str]],
                     answers: dict[str, str]) -> int:
    """`check_matches` for every chat of the many-ladder load (answers by message id
    `chat|who-N`); the matches in all."""
    total = 0
    async with store_for(str(target)) as store:
        for chat in many_chats():
            mine = {who: cmds for who, cmds in texts.items() if who.startswith(f"{chat}|")}
            outcomes = outcomes_from(mine, answers)

            def read(repo: SqlRepo, c: str = chat) -> tuple[list[int], list[int], set[int]]:
                ladder = repo.ladder(c, "main")
                assert ladder is not None
                rows = repo.conn.execute
                stored = [r[0] for r in rows("SELECT id FROM matches WHERE ladder=? ORDER BY id",
                                             (ladder.id,)).fetchall()]
                logged = [r[0] for r in rows("SELECT count(*) FROM events WHERE ladder=? AND "
                                             "kind='match' GROUP BY match", (ladder.id,))]
                confirmed = {r[0] for r in rows("SELECT id FROM matches WHERE ladder=? AND "
                                                "status='confirmed'", (ladder.id,))}
                return stored, logged, confirmed

            stored, logged, confirmed = await store.run(read, commit=False)
            assert sorted(outcomes.reported["main"]) == stored, f"{chat}: replies and matches"
            assert all(n == 1 for n in logged), f"{chat}: a match is in the log twice"
            assert sorted(outcomes.confirmed) == sorted(set(outcomes.confirmed)) and \
                set(outcomes.confirmed) == confirmed, f"{chat}: confirmations"
            total += len(stored)
    return total
