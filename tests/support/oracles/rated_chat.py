"""A random chat on a rated ladder (duel, dutch), one command a step, told to the rulebook
as it happens: reports and their answers, ticks, membership, voids and new results,
adjustments, early season closes and settings changed from then on."""

from __future__ import annotations

import random
from typing import Any

from tests.support.chat import Chat
from tests.support.oracles.base import Game
from tests.support.oracles.chats import (
    EXTRAS,
    NAMES,
    SCORES,
    SETTINGS,
    adjust,
    adjustment,
    answer,
    kept_score,
    membership,
    pause,
    set_spec,
    sides_after,
    typed_score,
    void_one,
)


class RatedChat:
    def __init__(self, chat: Chat, rng: random.Random, rules: Any, preset: str,
                 confirm: bool) -> None:
        self.chat, self.rng, self.rules = chat, rng, rules
        self.preset, self.confirm = preset, confirm
        self.next_id = 1

    async def step(self) -> str:
        """One command, chosen at random; what was said, for the check's message."""
        rng, rules = self.rng, self.rules
        roll = rng.random()
        # a few pairs play most games: anti-farming and series have work
        few = [n for n in NAMES[:3] if n in rules.members]
        pool = few if rng.random() < 0.5 and len(few) > 1 else sorted(rules.members)
        if roll < 0.55:
            return await self.report(pool)
        if roll < 0.66:
            await self.chat.tick(pause(rng))
            return "tick"
        if roll < 0.7:
            return await membership(self.chat, rng, rules)
        if roll < 0.8 and rules.games:
            return await void_one(self.chat, rng, rules.games)
        if roll < 0.93 and rules.games:
            return await self.set_result()
        if roll < 0.95:
            return await adjust(self.chat, rules, rng.choice(pool), adjustment(rng, self.preset))
        if roll < 0.96 and self.preset == "duel":  # an early close: the next still ends on the 1st
            await self.chat.ok("mod", "/mod season close test")
            rules.close(self.chat.at)
            return "/mod season close test"
        # the rules change from here on; corrections before it keep the old ones
        key, value = rng.choice(SETTINGS[self.preset])
        text = f"/ladder set {key}={value}"
        await self.chat.ok("mod", text)
        rules.change(self.chat.at, key, value)
        return text

    async def report(self, pool: list[str]) -> str:
        rng, chat = self.rng, self.chat
        a, b = rng.sample(pool, 2)
        word = rng.choice(["win", "win", "loss", "draw"])
        extra = rng.choice(EXTRAS[self.preset]) + rng.choice(SCORES[word])
        # every report is a new game: `again` where reports count at once (else the other
        # side's matching report within confirm_hours is the same game)
        text = f"/report {word} @{b}{extra}" + ("" if self.confirm else " again")
        await chat.tick(rng.randrange(121, 900))  # (within 2 minutes: the same game)
        await chat.ok(a, text)
        winner, loser = (b, a) if word == "loss" else (a, b)
        self.next_id += 1
        if not self.confirm or await answer(chat, rng, self.next_id - 1, a, b, word, extra):
            moves = 1 if "moves=1" in extra else 30 if "moves=30" in extra else None
            self.rules.report(Game(self.next_id - 1, chat.at, winner, loser, word == "draw",
                                   "unrated" not in extra, moves, score=typed_score(extra)))
        return text

    async def set_result(self) -> str:
        """A moderator's new result for a game: refused where it changes nothing."""
        rng = self.rng
        game = self.rules.games[rng.choice(list(self.rules.games))]
        draw = rng.random() < 0.3
        first = rng.choice([game.winner, game.loser])
        rated = rng.choice([None, None, True, False])
        text = set_spec(game, "draw" if draw else f"@{first}", rated)
        winner, loser = sides_after(game, first, draw)
        new = Game(game.id, game.at, winner, loser, draw, game.rated if rated is None else rated,
                   game.moves, score=kept_score(game.score, draw))
        same = (new.winner, new.loser, new.draw, new.rated, new.score) == (
            game.winner, game.loser, game.draw, game.rated, game.score)
        if same and not game.voided:
            await self.chat.refused("mod", text)
            return text
        await self.chat.ok("mod", text)
        game.winner, game.loser, game.draw = new.winner, new.loser, new.draw
        game.rated, game.voided, game.score = new.rated, False, new.score
        return text
