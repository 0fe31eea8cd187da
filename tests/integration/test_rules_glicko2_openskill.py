"""The `glicko2` and `openskill` rulebooks (RULES.md §6 and §7) worked out again and
compared with the bot over random chats: duels, draws, unrated games, for openskill also
free-for-alls and team games; moderators voiding, restoring and changing any match and
adjusting ratings; players leaving and coming back; days going by; the bot restarted.
After each command the export must equal what the rules give the corrected history from
scratch.

Nothing here calls the bot's rules: Glicko-2 is written again from Glickman's paper as
RULES.md gives it, and OpenSkill is the library's own `rate`, which RULES.md names as the
rule. Where RULES leaves a choice open the bot's reading is taken: games are rated in the
order their reports counted (here, as reported: reports count at once), a correction
where its match stands; a moderator's adjustment moves the rating (OpenSkill: mu by the
points over display_scale) and leaves RD and volatility (sigma) as they are. With
Glicko-2's `period=day|week` a game waits for the close of the period it was reported in
(00:00 UTC; a week's on Monday), and an adjustment made during a period is part of the
values the period starts from.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import pytest
from openskill.models import PlackettLuce

from storage.sqlite.store import SqliteStore
from tests.support import depth
from tests.support.chat import Chat
from tests.support.oracles.chats import void_one

NAMES = ["ann", "ben", "cat", "dan", "eve", "fay"]
DAY = 86_400


# ------------------------------------------------------------------ Glicko-2, again

GLICKO_SCALE, START, START_RD, START_VOLATILITY, TAU, EPS = 173.7178, 1500.0, 350.0, 0.06, 0.5, 1e-6


def glicko_period(r: float, rd: float, sigma: float, opponents: list[tuple[float, float, float]]
                  ) -> tuple[float, float, float]:
    """Glickman's steps 2-8 for one player and one period: opponents as (r, RD, score)."""
    mu, phi = (r - 1500) / GLICKO_SCALE, rd / GLICKO_SCALE
    terms = []
    for r_j, rd_j, s_j in opponents:
        phi_j = rd_j / GLICKO_SCALE
        g = 1 / math.sqrt(1 + 3 * phi_j ** 2 / math.pi ** 2)
        e = 1 / (1 + math.exp(-g * (mu - (r_j - 1500) / GLICKO_SCALE)))
        terms.append((g, e, s_j))
    v = 1 / sum(g * g * e * (1 - e) for g, e, _ in terms)
    delta = v * sum(g * (s - e) for g, e, s in terms)
    a = math.log(sigma ** 2)

    def f(x: float) -> float:
        return (math.exp(x) * (delta ** 2 - phi ** 2 - v - math.exp(x))
                / (2 * (phi ** 2 + v + math.exp(x)) ** 2)) - (x - a) / TAU ** 2

    big_a = a
    if delta ** 2 > phi ** 2 + v:
        big_b = math.log(delta ** 2 - phi ** 2 - v)
    else:
        k = 1
        while f(a - k * TAU) < 0:
            k += 1
        big_b = a - k * TAU
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPS:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a = f_a / 2
        big_b, f_b = big_c, f_c
    new_sigma = math.exp(big_a / 2)
    phi_star = math.sqrt(phi ** 2 + new_sigma ** 2)
    new_phi = 1 / math.sqrt(1 / phi_star ** 2 + 1 / v)
    new_mu = mu + new_phi ** 2 * sum(g * (s - e) for g, e, s in terms)
    return GLICKO_SCALE * new_mu + 1500, min(GLICKO_SCALE * new_phi, START_RD), new_sigma


# ------------------------------------------------------------------ the histories


@dataclass
class Game:
    id: int
    at: int
    seq: int  # the order of commands
    sides: list[list[str]]  # in finishing order
    draw: bool
    rated: bool
    voided: bool = False


@dataclass
class Rules:
    """A rulebook over the corrected history, from scratch."""

    games: dict[int, Game] = field(default_factory=dict)
    adjustments: list[tuple[int, int, str, int]] = field(default_factory=list)  # seq, at
    members: set[str] = field(default_factory=lambda: set(NAMES))
    period: str = "game"
    now: int = 0

    def standings(self) -> dict[str, dict[str, float]]:
        raise NotImplementedError

    def events(self) -> list[tuple[str, Any]]:
        """Games, adjustments and (Glicko-2 by day or week) period closes, in the order
        they came: a close at 00:00 before any command at that instant."""
        out: list[tuple[int, int, str, Any]] = [(g.at, g.seq, "game", g)
                                                for g in self.games.values()]
        out += [(at, seq, "adjust", (who, amount)) for seq, at, who, amount in self.adjustments]
        if self.period != "game" and self.games:
            day = datetime.fromtimestamp(min(g.at for g in self.games.values()), UTC).date()
            while True:
                day = date.fromordinal(day.toordinal() + 1)
                midnight = int(datetime(day.year, day.month, day.day, tzinfo=UTC).timestamp())
                if midnight > self.now:
                    break
                if self.period == "day" or day.weekday() == 0:
                    out.append((midnight, -1, "close", None))
        return [(kind, what) for _, _, kind, what in sorted(out, key=lambda e: (e[0], e[1]))]


class Glicko(Rules):
    def standings(self) -> dict[str, dict[str, float]]:
        values: dict[str, list[Any]] = {n: [START, START_RD, START_VOLATILITY, None]
                                        for n in NAMES}
        waiting: list[Game] = []
        for kind, what in self.events():
            if kind == "adjust":
                values[what[0]][0] += what[1]
                continue
            if kind == "close":
                self._close(values, waiting)
                waiting = []
                continue
            game: Game = what
            if game.voided or not game.rated:
                continue
            if self.period != "game":
                waiting.append(game)
                continue
            day = datetime.fromtimestamp(game.at, UTC).date().toordinal()
            (a,), (b,) = game.sides
            before = {}
            for p in (a, b):
                r, rd, sigma, last = values[p]
                if last is not None:  # RD grown for the idle days since the last game
                    idle = max(day - last - 1, 0)
                    rd = min(GLICKO_SCALE * math.sqrt((rd / GLICKO_SCALE) ** 2
                                                       + idle * sigma ** 2), START_RD)
                before[p] = (r, rd, sigma)
            score = 0.5 if game.draw else 1.0
            for p, q, s in ((a, b, score), (b, a, 1 - score)):
                r, rd, sigma = before[p]
                new = glicko_period(r, rd, sigma, [(before[q][0], before[q][1], s)])
                values[p] = [*new, day]
        return {n: {"rating": v[0], "rd": v[1], "volatility": v[2]}
                for n, v in values.items() if n in self.members}

    @staticmethod
    def _close(values: dict[str, list[Any]], games: list[Game]) -> None:
        """Glickman's period: everyone from the values at its start; a player who has
        played before and not in it grows RD by one period."""
        start = {n: tuple(v[:3]) for n, v in values.items()}
        played: dict[str, list[tuple[float, float, float]]] = {}
        for game in games:
            (a,), (b,) = game.sides
            score = 0.5 if game.draw else 1.0
            played.setdefault(a, []).append((start[b][0], start[b][1], score))
            played.setdefault(b, []).append((start[a][0], start[a][1], 1 - score))
        for n, v in values.items():
            r, rd, sigma = start[n]
            if n in played:
                values[n] = [*glicko_period(r, rd, sigma, played[n]), True]
            elif v[3] is not None:
                grown = GLICKO_SCALE * math.sqrt((rd / GLICKO_SCALE) ** 2 + sigma ** 2)
                values[n] = [r, min(grown, START_RD), sigma, True]


class Skill(Rules):
    model = PlackettLuce()

    def standings(self) -> dict[str, dict[str, float]]:
        values = {n: (25.0, 25.0 / 3) for n in NAMES}
        for kind, what in self.events():
            if kind == "adjust":
                mu, sigma = values[what[0]]
                values[what[0]] = (mu + what[1] / 40, sigma)
                continue
            game: Game = what
            if game.voided or not game.rated:
                continue
            teams = [[self.model.rating(*values[p]) for p in side] for side in game.sides]
            ranks = [1.0] * len(teams) if game.draw else [float(n + 1) for n in range(len(teams))]
            for side, new in zip(game.sides, self.model.rate(teams, ranks=ranks), strict=True):
                for p, rating in zip(side, new, strict=True):
                    values[p] = (rating.mu, rating.sigma)
        return {n: {"rating": 40 * (mu - 3 * sigma) + 1000, "mu": mu, "sigma": sigma}
                for n, (mu, sigma) in values.items() if n in self.members}


def compare(export: dict[str, Any], rules: Rules, keys: tuple[str, ...], text: str) -> None:
    got = {p["name"]: {k: p[k] for k in keys} for p in export["players"]}
    want = rules.standings()
    assert set(got) == set(want), text
    for name, values in want.items():
        for key in keys:
            assert got[name][key] == pytest.approx(values[key], rel=1e-9, abs=1e-9), \
                (text, name, key, got[name], values)


# ------------------------------------------------------------------ random chats


def report_text(rng: random.Random, preset: str, members: list[str]
                ) -> tuple[str, list[list[str]], bool] | None:
    """A report by its first player: the text, the sides in finishing order, a draw."""
    kind = rng.random()
    if preset == "openskill" and kind < 0.25 and len(members) >= 3:
        order = rng.sample(members, rng.randrange(3, len(members) + 1))
        return "/report ffa " + " ".join(f"@{p}" for p in order), [[p] for p in order], False
    if preset == "openskill" and kind < 0.45 and len(members) >= 4:
        a, b, c, d = rng.sample(members, 4)
        draw = rng.random() < 0.2
        return (f"/report teams @{a} @{b} vs @{c} @{d}" + (" draw" if draw else ""),
                [[a, b], [c, d]], draw)
    a, b = rng.sample(members, 2)
    word = rng.choice(["win", "win", "loss", "draw"])
    sides = [[b], [a]] if word == "loss" else [[a], [b]]
    return f"/report {word} @{b} again", sides, word == "draw"


async def report(chat: Chat, rng: random.Random, rules: Rules, preset: str,
                 members: list[str], seq: int) -> str:
    text, sides, draw = report_text(rng, preset, members)  # type: ignore[misc]
    rated = rng.random() > 0.1
    text += "" if rated else " unrated"
    await chat.tick(rng.choice([600, 3600, DAY, 3 * DAY, 20 * DAY]))
    await chat.ok(sides[0][0] if not text.startswith("/report loss") else sides[1][0], text)
    number = len(rules.games) + 1  # (a voided game keeps its number)
    rules.games[number] = Game(number, chat.at, seq, sides, draw, rated)
    return text


async def set_winner(chat: Chat, rng: random.Random, rules: Rules) -> str | None:
    """A duel's winner set by a moderator, where both its players are still members."""
    game = rules.games[rng.choice(list(rules.games))]
    if len(game.sides) != 2 or any(p not in rules.members for side in game.sides for p in side):
        return None
    first = rng.choice([0, 1])
    text = f"/mod set {game.id} @{game.sides[first][0]} test"
    if first == 0 and not game.draw and not game.voided:
        await chat.refused("mod", text)
        return None
    await chat.ok("mod", text)
    if first == 1:
        game.sides.reverse()
    game.draw, game.voided = False, False
    return text


async def membership(chat: Chat, rng: random.Random, rules: Rules) -> str | None:
    """A moderator removes a member (three stay), or one who is not a member joins."""
    who = rng.choice(NAMES)
    if who in rules.members and len(rules.members) > 3:
        await chat.ok("mod", text := f"/mod remove @{who} test")
        rules.members.discard(who)
        return text
    if who not in rules.members:
        await chat.ok(who, "/join")
        rules.members.add(who)
        return "/join"
    return None


async def one_command(chat: Chat, rng: random.Random, rules: Rules, preset: str,
                      seq: int) -> str | None:
    """A random command, told to the rulebook; what was said, or None where nothing was."""
    roll, members = rng.random(), sorted(rules.members)
    if roll < 0.5 and len(members) >= 2:
        return await report(chat, rng, rules, preset, members, seq)
    if roll < 0.62 and rules.games:
        return await void_one(chat, rng, rules.games)
    if roll < 0.72 and rules.games:
        return await set_winner(chat, rng, rules)
    if roll < 0.8 and members:
        who, amount = rng.choice(members), rng.choice([-40, -5, 12, 60])
        await chat.ok("mod", text := f"/mod adjust @{who} {amount:+d} test")
        rules.adjustments.append((seq, chat.at, who, amount))
        return text
    if roll < 0.9:
        return await membership(chat, rng, rules)
    await chat.tick(rng.choice([DAY, 5 * DAY, 40 * DAY]))
    return "days go by"


async def play(tmp_path: Path, seed: int, preset: str, period: str = "game") -> None:
    rng = random.Random(seed)
    rules: Rules = Glicko() if preset == "glicko2" else Skill()
    rules.period = period
    options = ["confirm=false"] + ([f"period={period}"] if period != "game" else [])
    seq = 0
    keys = ("rating", "rd", "volatility") if preset == "glicko2" else ("rating", "mu", "sigma")
    path, at = tmp_path / "l.db", None
    for segment in range(4):  # the bot restarted between segments
        async with SqliteStore(path, snapshot_every=5 if seed % 2 else 50) as store:
            chat = Chat(store, at=at) if at is not None else Chat(store)
            if segment == 0:
                await chat.ladder(preset, *options)
                await chat.join(*NAMES)
            for _ in range(35):
                seq += 1
                text = await one_command(chat, rng, rules, preset, seq)
                if text is None:
                    continue
                await store.restate_pending()
                rules.now = chat.at
                compare(await chat.export(), rules, keys, text)
            at = chat.at


@pytest.mark.parametrize("preset", ["glicko2", "openskill"])
@pytest.mark.parametrize("seed", depth.seeds())
async def test_the_bot_rates_as_the_rulebook(tmp_path: Path, seed: int, preset: str) -> None:
    await play(tmp_path, seed, preset)


@pytest.mark.parametrize("period", ["day", "week"])
@pytest.mark.parametrize("seed", depth.seeds())
async def test_glicko2_rates_each_period_as_glickman(tmp_path: Path, seed: int,
                                                     period: str) -> None:
    """Rating periods closed at 00:00 by the bot's scheduler jobs, across restarts (a
    period open when the bot stops is closed once when it is back)."""
    await play(tmp_path, seed, "glicko2", period)
