"""A random chat on a ladder of many sides (warlight in both modes, fame), one command a
step, told to the rulebook as it happens: duels, free-for-alls of 3-5 and (warlight)
games of two teams in every finishing order, draws, unrated games and game lengths,
voids and new results, adjustments far enough for fame's k2 and its 1000-point refusal."""

from __future__ import annotations

import random

from tests.support.chat import Chat
from tests.support.oracles.chats import adjust, answer_sides, membership, pause, set_spec, void_one
from tests.support.oracles.multi import Multi, Play


class MultiChat:
    def __init__(self, chat: Chat, rng: random.Random, rules: Multi, confirm: bool) -> None:
        self.chat, self.rng, self.rules, self.confirm = chat, rng, rules, confirm
        self.fame = rules.preset == "fame"
        self.next_id = 1

    async def step(self) -> str | None:
        """One command, chosen at random; what was said, or None where it was refused
        before anything happened."""
        rng, rules = self.rng, self.rules
        roll = rng.random()
        members = sorted(rules.members)
        if roll < 0.55:
            return await self.report(members)
        if roll < 0.66:
            await self.chat.tick(pause(rng))
            return "tick"
        if roll < 0.7:  # five stay, for free-for-alls of up to five
            return await membership(self.chat, rng, rules, stay=5)
        if roll < 0.8 and rules.plays:
            return await void_one(self.chat, rng, rules.plays)
        if roll < 0.93 and rules.plays:
            return await self.set_result()
        name = rng.choice(members)
        amount = rng.choice([1, -1]) * rng.randrange(1, 300)
        if self.fame and name in ("p0", "p1") and rng.random() < 0.5:  # near 2400 (k2)
            rating = rules.derive(self.chat.at)["rating"][name]
            amount = int(rng.choice([2399, 2400, 2450]) - rating) or 1
        return await adjust(self.chat, rules, name, amount)

    def duel(self, members: list[str]) -> tuple[list[list[str]], bool, str]:
        rng = self.rng
        # p0 wins most of its games: fame's k2 changes after 20 rated wins
        pair = rng.sample(members, 2)
        if self.fame and "p0" in members and "p0" not in pair and rng.random() < 0.6:
            pair[0] = "p0"
        sides = [[p] for p in sorted(pair, key=lambda p: (p != "p0", rng.random()))]
        if "p0" not in pair or rng.random() < 0.3:
            rng.shuffle(sides)
        draw = rng.random() < 0.2
        return sides, draw, f"/report {'draw' if draw else 'win'} @{sides[1][0]}"

    def sides(self, members: list[str]) -> tuple[list[list[str]], bool, str]:
        """The sides of a game in finishing order, whether it was drawn, and its report."""
        rng = self.rng
        kind = rng.choice(["duel", "duel", "ffa"] + ([] if self.fame else ["teams"]))
        if kind == "duel":
            return self.duel(members)
        if kind == "ffa":
            sides = [[p] for p in rng.sample(members, rng.randrange(3, 6))]
            return sides, False, "/report ffa " + " ".join(f"@{side[0]}" for side in sides)
        chosen = rng.sample(members, rng.choice([3, 4]))
        sides = [chosen[:2], chosen[2:]]
        draw = rng.random() < 0.2
        return sides, draw, ("/report teams " + " ".join(f"@{p}" for p in sides[0]) + " vs "
                             + " ".join(f"@{p}" for p in sides[1]) + (" draw" if draw else ""))

    async def report(self, members: list[str]) -> str | None:
        rng, chat, rules = self.rng, self.chat, self.rules
        sides, draw, text = self.sides(members)
        moves = rng.choice([None, 1, 49, 50, 249, 250, 900]) if self.fame else None
        rated = rng.random() > 0.1
        text += (f" moves={moves}" if moves else "") + ("" if rated else " unrated")
        text += "" if self.confirm else " again"  # every report a new game
        reporter = sides[0][0]
        await chat.tick(rng.randrange(121, 900))  # (within 2 minutes: the same game)
        now = rules.derive(chat.at)["rating"]
        if self.fame and rated and rules.gap(now, sides) > 1000:
            assert "apart" in await chat.refused(reporter, text)
            return None
        await chat.ok(reporter, text)
        self.next_id += 1
        if not self.confirm or await answer_sides(chat, rng, self.next_id - 1, text, sides,
                                                  draw, rated):
            rules.play(Play(self.next_id - 1, chat.at, sides, draw, rated, moves))
        return text

    async def set_result(self) -> str:
        """A moderator's new finishing order (one player of each side) or draw."""
        rng = self.rng
        game = self.rules.plays[rng.choice(list(self.rules.plays))]
        draw = len(game.sides) == 2 and rng.random() < 0.3
        order = list(range(len(game.sides)))
        rng.shuffle(order)
        sides = game.sides if draw else [game.sides[i] for i in order]
        rated = rng.choice([None, None, True, False])
        text = set_spec(game, "draw" if draw else " ".join(f"@{rng.choice(side)}"
                                                         for side in sides), rated)
        new = (sides, draw, game.rated if rated is None else rated)
        if new == (game.sides, game.draw, game.rated) and not game.voided:
            await self.chat.refused("mod", text)
            return text
        await self.chat.ok("mod", text)
        game.sides, game.draw, game.rated = new
        game.voided = False
        return text
