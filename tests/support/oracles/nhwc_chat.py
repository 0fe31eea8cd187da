"""A random chat on an nhwc ladder, one command a step, told to the rulebook as it happens:
challenges issued (to one player or to anyone), accepted, declined (only for a valid
reason), left to become forfeits, left unplayed to lapse, taken back by the challenger or
cancelled by a moderator; results of every margin; voids, new results, rung adjustments."""

from __future__ import annotations

import random

from tests.support.chat import Chat
from tests.support.oracles.base import Game
from tests.support.oracles.chats import (
    adjust,
    answer,
    membership,
    pause,
    set_spec,
    sides_after,
    void_one,
)
from tests.support.oracles.nhwc import DEFEAT, Nhwc

FORFEIT = 72 * 3600  # an unanswered challenge is a forfeit after this
LAPSE = 168 * 3600  # an accepted one not played by then lapses (RULES, "Accepted challenges")


class NhwcChat:
    def __init__(self, chat: Chat, rng: random.Random, rules: Nhwc, confirm: bool) -> None:
        self.chat, self.rng, self.rules, self.confirm = chat, rng, rules, confirm
        # open: challenger, challenged (None: an open challenge to anyone), since
        self.waiting: dict[int, tuple[str, str | None, int]] = {}
        self.accepted: dict[int, tuple[str, str, int]] = {}  # challenger, challenged, since
        self.busy: list[set[str | None]] = []
        self.next_challenge = self.next_id = 1

    async def step(self) -> str | None:
        """One command, chosen at random; what was said, or None where nothing was."""
        rng, rules, chat = self.rng, self.rules, self.chat
        roll = rng.random()
        self.busy = [{a, b} for a, b, _ in (*self.waiting.values(), *self.accepted.values())]
        members = sorted(rules.members)
        if roll < 0.05:  # an open challenge, to anyone; one a player at a time
            return await self.issue(rng.choice(members), None, "/challenge")
        if roll < 0.08 and (opens := [n for n, (_, b, _) in self.waiting.items() if b is None]):
            return await self.take_open(rng.choice(opens), members)
        if roll < 0.22:
            a, b = rng.sample(members, 2)
            return await self.issue(a, b, f"/challenge @{b}")
        if roll < 0.4 and (direct := [n for n, (_, b, _) in self.waiting.items()
                                        if b is not None]):
            return await self.answer_challenge(rng.choice(direct))
        if roll < 0.43 and (self.waiting or self.accepted):
            return await self.cancel()
        if roll < 0.6 and self.accepted:
            return await self.report()
        if roll < 0.71:
            await self.tick(pause(rng))
            return "tick"
        if roll < 0.75:
            return await membership(chat, rng, rules, {n for pair in self.busy for n in pair if n})
        if roll < 0.85 and rules.games:
            return await void_one(chat, rng, rules.games)
        if roll < 0.95 and rules.games:
            return await self.set_result()
        return await adjust(chat, rules, rng.choice(members), rng.choice([-3, -2, -1, 1, 2, 3]))

    async def tick(self, seconds: int) -> None:
        """Let time pass: challenges left unanswered become forfeits, in time order;
        accepted ones left unplayed lapse, with no result (both are free again)."""
        await self.chat.tick(seconds)
        now = self.chat.at
        due = sorted((since + FORFEIT, number) for number, (_, _, since)
                     in self.waiting.items() if since + FORFEIT <= now)
        for deadline, number in due:  # the challenged player's minor defeat
            a, b, _ = self.waiting.pop(number)
            if b is None:  # an open challenge nobody took: it lapses, no forfeit
                continue
            self.rules.report(Game(self.next_id, deadline, a, b, False, True, None,
                                   margin="minor", challenge=number))
            self.next_id += 1
        for number in [n for n, (*_, since) in self.accepted.items() if since + LAPSE <= now]:
            del self.accepted[number]

    async def issue(self, a: str, b: str | None, text: str) -> str:
        """A challenge from a (to b, or to anyone): refused while the pair (or a's open
        one) is in one already."""
        if {a, b} in self.busy:
            await self.chat.refused(a, text)
            return text
        await self.chat.ok(a, text)
        self.waiting[self.next_challenge] = (a, b, self.chat.at)
        self.next_challenge += 1
        return text

    async def take_open(self, number: int, members: list[str]) -> str:
        """The first to answer an open challenge takes it."""
        a = self.waiting[number][0]
        b = self.rng.choice([m for m in members if m != a])
        text = f"/accept @{a}"
        # (a challenge from a to b comes first: `/accept @a` answers that one)
        number = next((n for n, (c, d, _) in sorted(self.waiting.items()) if (c, d) == (a, b)),
                      number)
        if {a, b} in self.busy and self.waiting[number][1] is None:
            await self.chat.refused(b, text)
            return text
        await self.chat.ok(b, text)
        self.accept(number, a, b)
        return text

    def accept(self, number: int, a: str, b: str) -> None:
        self.rules.accept(self.chat.at, number, a, b)
        self.accepted[number] = (a, b, self.chat.at)
        del self.waiting[number]

    async def answer_challenge(self, number: int) -> str:
        """Declined (only while engaged elsewhere) or accepted."""
        a, b, _ = self.waiting[number]
        assert b is not None
        engaged = sum(b in pair for pair in self.busy) > 1
        if self.rng.random() < 0.25:
            text = f"/decline @{a} busy"
            if engaged:
                await self.chat.ok(b, text)
                del self.waiting[number]
            else:
                await self.chat.refused(b, text)
            return text
        text = f"/accept @{a}"
        await self.chat.ok(b, text)
        self.accept(number, a, b)
        return text

    async def cancel(self) -> str:
        """The challenger takes back an unanswered challenge, or a moderator cancels any
        unfinished one: no result, nobody moves."""
        rng = self.rng
        number = rng.choice(sorted({*self.waiting, *self.accepted}))
        a, b, _ = self.waiting.get(number) or self.accepted[number]
        if number in self.waiting and b is None and rng.random() < 0.6 and \
                sum(c == a for c, _, _ in self.waiting.values()) == 1:
            who, text = a, "/challenge cancel"  # (their only one waiting)
        elif number in self.waiting and b is not None and rng.random() < 0.6:
            who, text = a, f"/challenge cancel @{b}"
        else:
            who, text = "mod", f"/mod cancel {number} test"
        await self.chat.ok(who, text)
        self.waiting.pop(number, None)
        self.accepted.pop(number, None)
        return text

    async def report(self) -> str | None:
        """Either player of an accepted challenge reports its result."""
        rng, chat = self.rng, self.chat
        await self.tick(rng.randrange(121, 900))
        if not self.accepted:
            return None  # the ones there were lapsed meanwhile
        number = rng.choice(list(self.accepted))
        a, b, _ = pair = self.accepted.pop(number)
        if rng.random() < 0.5:
            a, b = b, a
        word = rng.choice(["win", "loss", "draw"])
        margin = None if word == "draw" else rng.choice(list(DEFEAT))
        text = f"/report {word} @{b}" + (f" {margin}" if margin else "")
        await chat.ok(a, text + ("" if self.confirm else " again"))
        self.next_id += 1
        if self.confirm and not await answer(chat, rng, self.next_id - 1, a, b, word,
                                             f" {margin}" if margin else ""):
            self.accepted[number] = pair  # withdrawn: the challenge waits for a result
            return text
        winner, loser = (b, a) if word == "loss" else (a, b)
        self.rules.report(Game(self.next_id - 1, chat.at, winner, loser, word == "draw",
                               True, None, margin=margin, challenge=number))
        return text

    async def set_result(self) -> str:
        """A moderator's new result, of any margin: refused where it changes nothing."""
        rng = self.rng
        game = self.rules.games[rng.choice(list(self.rules.games))]
        draw = rng.random() < 0.3
        first = rng.choice([game.winner, game.loser])
        margin = None if draw else rng.choice(list(DEFEAT))
        rated = rng.choice([None, None, None, True, False])
        text = set_spec(game, "draw" if draw else f"@{first} {margin}", rated)
        winner, loser = sides_after(game, first, draw)
        new = (winner, loser, draw, margin, game.rated if rated is None else rated)
        if new == (game.winner, game.loser, game.draw, game.margin, game.rated) \
                and not game.voided:
            await self.chat.refused("mod", text)
            return text
        await self.chat.ok("mod", text)
        game.winner, game.loser, game.draw, game.margin, game.rated = new
        game.voided = False
        return text
