"""The five rulebooks worked out again, straight from RULES.md, and compared with the bot
over random chats: reports (duels, free-for-alls in both modes, games of two teams,
draws, unrated and short games, game lengths, pairs that play often, every margin,
matches of several games with their score: rated as one result, or on dutch's even
seeds game by game in the pair's series, `bestof_rating=games`),
challenges (accepted, declined only for a valid reason, left to become forfeits, left
unplayed to lapse, taken back or cancelled by a moderator),
moderators voiding, restoring and changing any match, adjustments (down to the floor,
into dutch's higher K bands and past its 719 gap, to fame's 2400 and past its 1000-point
refusal), players leaving and coming back (a moderator's /mod add and /mod ban are
a join and a leaving; a banned player's /join is refused until /mod unban), early
season closes (the season they begin still ends on the 1st, labelled 2026-01b), and days
and months going by. After each
command the export must equal what the rules give the corrected history from scratch:
ratings or rungs and counts; on duel also leagues, the three tables and the Hall of
Fame; on dutch the series and decay days they went through.

The rulebooks worked out again live in tests/support/oracles/ (one module per family,
the random chats beside them); nothing there or here calls the bot's rules. Where RULES
leaves a choice open the bot's reading is taken and said so: ties in a table are
compared without their order; a dutch series that reaches the floor of 0 replaces what
it really moved, and the 719 rule holds for a series the stronger player won every game
of; on an nhwc draw "the player who started higher" is the one higher when the result
comes in; a fame game that a correction leaves more than 1000 apart counts as unrated; a
moderator's new result keeps a match's score where it still fits (a draw's even). RULES
says nothing of leaving: who leaves keeps the record and comes back to it, is in no
table, Hall of Fame or decay meanwhile, and on nhwc gives up the rung (those below move
up) and comes back at the bottom.
ORACLE_SEEDS=400 sweeps further than the suite does.
"""

from __future__ import annotations

import os
import random
from pathlib import Path
from typing import Any

import pytest

from tests.support.oracles.base import Game
from tests.support.oracles.chats import (
    EXTRAS,
    NAMES,
    SCORES,
    SETTINGS,
    adjust,
    adjustment,
    answer,
    answer_sides,
    check,
    kept_score,
    membership,
    oracle_ladder,
    pause,
    restart,
    typed_score,
    void_one,
)
from tests.support.oracles.multi import Multi, Play
from tests.support.oracles.nhwc import DEFEAT, Nhwc
from tests.support.oracles.rated import RULEBOOKS

SEEDS = int(os.environ.get("ORACLE_SEEDS", "6"))  # more for a sweep beyond the suite


@pytest.mark.parametrize("preset", list(RULEBOOKS))
@pytest.mark.parametrize("seed", range(SEEDS))
async def test_the_bot_rates_as_the_rulebook(tmp_path: Path, monkeypatch: Any, preset: str,
                                            seed: int) -> None:
    """Seeds 2 and 3 of every four: reports wait for the opponent, who confirms them,
    reports the same game, or disputes it for a moderator to decide, unless the reporter
    withdraws them first."""
    rng = random.Random(seed)
    names = NAMES
    games_mode = preset == "dutch" and seed % 2 == 0  # else a match is one result
    rules = RULEBOOKS[preset](names, games_mode)
    confirm = seed % 4 >= 2
    options = ("bestof_rating=games",) if games_mode else ()
    async with oracle_ladder(tmp_path, monkeypatch, seed, preset, *options, confirm=confirm) as (
            chat, store):
        next_id = 1
        for _ in range(160):
            roll = rng.random()
            # a few pairs play most games: anti-farming and series have work
            few = [n for n in names[:3] if n in rules.members]
            pool = few if rng.random() < 0.5 and len(few) > 1 else sorted(rules.members)
            if roll < 0.55:
                a, b = rng.sample(pool, 2)
                word = rng.choice(["win", "win", "loss", "draw"])
                extra = rng.choice(EXTRAS[preset]) + rng.choice(SCORES[word])
                # every report is a new game: `again` where reports count at once (else the
                # other side's matching report within confirm_hours is the same game)
                text = f"/report {word} @{b}{extra}" + ("" if confirm else " again")
                await chat.tick(rng.randrange(121, 900))  # (within 2 minutes: the same game)
                await chat.ok(a, text)
                winner, loser = (b, a) if word == "loss" else (a, b)
                next_id += 1
                if not confirm or await answer(chat, rng, next_id - 1, a, b, word, extra):
                    moves = 1 if "moves=1" in extra else 30 if "moves=30" in extra else None
                    rules.report(Game(next_id - 1, chat.at, winner, loser, word == "draw",
                                      "unrated" not in extra, moves, score=typed_score(extra)))
            elif roll < 0.66:
                await chat.tick(pause(rng))
                text = "tick"
            elif roll < 0.7:
                text = await membership(chat, rng, rules)
            elif roll < 0.8 and rules.games:
                text = await void_one(chat, rng, rules.games)
            elif roll < 0.93 and rules.games:
                game = rules.games[rng.choice(list(rules.games))]
                draw = rng.random() < 0.3
                first = rng.choice([game.winner, game.loser])
                rated = rng.choice([None, None, True, False])
                spec = "draw" if draw else f"@{first}"
                spec += {None: "", True: " rated", False: " unrated"}[rated]
                text = f"/mod set {game.id} {spec} test"
                winner, loser = (first, game.loser if first == game.winner else game.winner)
                if draw:  # a draw keeps the sides as reported
                    winner, loser = game.winner, game.loser
                new = Game(game.id, game.at, winner, loser, draw,
                           game.rated if rated is None else rated, game.moves,
                           score=kept_score(game.score, draw))
                same = (new.winner, new.loser, new.draw, new.rated, new.score) == (
                    game.winner, game.loser, game.draw, game.rated, game.score)
                if same and not game.voided:
                    await chat.refused("mod", text)
                else:
                    await chat.ok("mod", text)
                    game.winner, game.loser, game.draw = new.winner, new.loser, new.draw
                    game.rated, game.voided, game.score = new.rated, False, new.score
            elif roll < 0.95:
                text = await adjust(chat, rules, rng.choice(pool), adjustment(rng, preset))
            elif roll < 0.96 and preset == "duel":  # an early close: the next still ends on the 1st
                text = "/mod season close test"
                await chat.ok("mod", text)
                rules.close(chat.at)
            else:  # the rules change from here on; corrections before it keep the old ones
                key, value = rng.choice(SETTINGS[preset])
                text = f"/ladder set {key}={value}"
                await chat.ok("mod", text)
                rules.change(chat.at, key, value)
            await check(store, chat, rules, text)


@pytest.mark.parametrize("seed", range(SEEDS))
async def test_the_bot_moves_rungs_as_the_nhwc_rulebook(tmp_path: Path, monkeypatch: Any,
                                                       seed: int) -> None:
    """Challenges issued, accepted, declined (only for a valid reason), left to become
    forfeits, left unplayed to lapse, taken back by the challenger or cancelled by a
    moderator; results of every margin; corrections and rung adjustments, as above. Seeds
    2 and 3 of every four: results wait for the opponent to answer (or are withdrawn, and
    the challenge waits for its result again). Open challenges to anyone, taken by the
    first to accept or left to lapse with no forfeit; the bot restarted now and then."""
    rng = random.Random(seed)
    names = NAMES
    rules = Nhwc(names)
    hours = 72 * 3600  # an unanswered challenge is a forfeit after this
    play = 168 * 3600  # an accepted one not played by then lapses (RULES, "Accepted challenges")
    confirm = seed % 4 >= 2
    async with oracle_ladder(tmp_path, monkeypatch, seed, "nhwc", confirm=confirm) as (chat, store):
        # open: challenger, challenged (None: an open challenge to anyone), since
        waiting: dict[int, tuple[str, str | None, int]] = {}
        accepted: dict[int, tuple[str, str, int]] = {}  # challenger, challenged, accepted at
        next_challenge = next_id = 1

        async def tick(seconds: int) -> None:
            """Let time pass: challenges left unanswered become forfeits, in time order;
            accepted ones left unplayed lapse, with no result (both are free again)."""
            nonlocal next_id
            await chat.tick(seconds)
            due = sorted((since + hours, number) for number, (_, _, since)
                         in waiting.items() if since + hours <= chat.at)
            for deadline, number in due:  # the challenged player's minor defeat
                a, b, _ = waiting.pop(number)
                if b is None:  # an open challenge nobody took: it lapses, no forfeit
                    continue
                rules.report(Game(next_id, deadline, a, b, False, True, None, margin="minor",
                                  challenge=number))
                next_id += 1
            for number in [n for n, (*_, since) in accepted.items() if since + play <= chat.at]:
                del accepted[number]

        async def issue(a: str, b: str | None, text: str, number: int) -> int:
            """A challenge from a (to b, or to anyone): refused while the pair (or a's open
            one) is in one already; the next challenge's number."""
            if {a, b} in busy:
                await chat.refused(a, text)
                return number
            await chat.ok(a, text)
            waiting[number] = (a, b, chat.at)
            return number + 1

        for _ in range(160):
            roll = rng.random()
            busy = [{a, b} for a, b, _ in (*waiting.values(), *accepted.values())]
            members = sorted(rules.members)
            if roll < 0.05:  # an open challenge, to anyone; one a player at a time
                a = rng.choice(members)
                text = "/challenge"
                next_challenge = await issue(a, None, text, next_challenge)
            elif roll < 0.08 and (opens := [n for n, (_, b, _) in waiting.items() if b is None]):
                number = rng.choice(opens)  # the first to answer takes it
                a = waiting[number][0]
                b = rng.choice([m for m in members if m != a])
                text = f"/accept @{a}"
                # (a challenge from a to b comes first: `/accept @a` answers that one)
                number = next((n for n, (c, d, _) in sorted(waiting.items())
                               if (c, d) == (a, b)), number)
                if {a, b} in busy and waiting[number][1] is None:
                    await chat.refused(b, text)
                else:
                    await chat.ok(b, text)
                    rules.accept(chat.at, number, a, b)
                    accepted[number] = (a, b, chat.at)
                    del waiting[number]
            elif roll < 0.22:
                a, b = rng.sample(members, 2)
                text = f"/challenge @{b}"
                next_challenge = await issue(a, b, text, next_challenge)
            elif roll < 0.4 and (direct := [n for n, (_, b, _) in waiting.items()
                                            if b is not None]):
                number = rng.choice(direct)
                a, b, _ = waiting[number]
                engaged = sum(b in pair for pair in busy) > 1
                if rng.random() < 0.25:  # declined: only while engaged elsewhere
                    text = f"/decline @{a} busy"
                    if engaged:
                        await chat.ok(b, text)
                        del waiting[number]
                    else:
                        await chat.refused(b, text)
                else:
                    text = f"/accept @{a}"
                    await chat.ok(b, text)
                    rules.accept(chat.at, number, a, b)
                    accepted[number] = (a, b, chat.at)
                    del waiting[number]
            elif roll < 0.43 and (waiting or accepted):
                # the challenger takes back an unanswered challenge, or a moderator
                # cancels any unfinished one: no result, nobody moves
                number = rng.choice(sorted({*waiting, *accepted}))
                a, b, _ = waiting.get(number) or accepted[number]
                if number in waiting and b is None and rng.random() < 0.6 and \
                        sum(c == a for c, _, _ in waiting.values()) == 1:
                    who, text = a, "/challenge cancel"  # (their only one waiting)
                elif number in waiting and b is not None and rng.random() < 0.6:
                    who, text = a, f"/challenge cancel @{b}"
                else:
                    who, text = "mod", f"/mod cancel {number} test"
                await chat.ok(who, text)
                waiting.pop(number, None)
                accepted.pop(number, None)
            elif roll < 0.6 and accepted:
                await tick(rng.randrange(121, 900))
                if not accepted:
                    continue  # the ones there were lapsed meanwhile
                number = rng.choice(list(accepted))
                a, b, _ = pair = accepted.pop(number)
                if rng.random() < 0.5:
                    a, b = b, a  # either player reports
                word = rng.choice(["win", "loss", "draw"])
                margin = None if word == "draw" else rng.choice(list(DEFEAT))
                text = f"/report {word} @{b}" + (f" {margin}" if margin else "")
                await chat.ok(a, text + ("" if confirm else " again"))
                next_id += 1
                if confirm and not await answer(chat, rng, next_id - 1, a, b, word,
                                                 f" {margin}" if margin else ""):
                    accepted[number] = pair  # withdrawn: the challenge waits for a result
                else:
                    winner, loser = (b, a) if word == "loss" else (a, b)
                    rules.report(Game(next_id - 1, chat.at, winner, loser, word == "draw",
                                      True, None, margin=margin, challenge=number))
            elif roll < 0.71:
                await tick(pause(rng))
                text = "tick"
            elif roll < 0.75:
                text = await membership(chat, rng, rules, set().union(*busy))
            elif roll < 0.85 and rules.games:
                text = await void_one(chat, rng, rules.games)
            elif roll < 0.95 and rules.games:
                game = rules.games[rng.choice(list(rules.games))]
                draw = rng.random() < 0.3
                first = rng.choice([game.winner, game.loser])
                margin = None if draw else rng.choice(list(DEFEAT))
                rated = rng.choice([None, None, None, True, False])
                spec = "draw" if draw else f"@{first} {margin}"
                spec += {None: "", True: " rated", False: " unrated"}[rated]
                text = f"/mod set {game.id} {spec} test"
                winner, loser = (first, game.loser if first == game.winner else game.winner)
                if draw:  # a draw keeps the sides as reported
                    winner, loser = game.winner, game.loser
                new = (winner, loser, draw, margin, game.rated if rated is None else rated)
                if new == (game.winner, game.loser, game.draw, game.margin, game.rated) \
                        and not game.voided:
                    await chat.refused("mod", text)
                else:
                    await chat.ok("mod", text)
                    game.winner, game.loser, game.draw, game.margin, game.rated = new
                    game.voided = False
            else:
                text = await adjust(chat, rules, rng.choice(members),
                                     rng.choice([-3, -2, -1, 1, 2, 3]))
            if rng.random() < 0.05:  # open challenges and their deadlines outlive it
                store = await restart(chat, store)
            await check(store, chat, rules, text)
        await store.close()


@pytest.mark.parametrize("preset", ["warlight", "warlight-placement", "fame"])
@pytest.mark.parametrize("seed", range(SEEDS))
async def test_the_bot_rates_games_of_many_sides_as_the_rulebook(
        tmp_path: Path, monkeypatch: Any, preset: str, seed: int) -> None:
    """Duels, free-for-alls of 3-5 and (warlight) games of two teams, every finishing
    order, draws, unrated games, game lengths (fame's k3), adjustments far enough for
    fame's k2 and its 1000-point refusal; corrections as above. Seeds 2 and 3 of every
    four: reports wait for another side to answer (or are withdrawn)."""
    rng = random.Random(seed)
    names = NAMES
    rules = Multi(names, preset.split("-")[0], preset.endswith("placement"))
    fame = rules.preset == "fame"
    mode = "placement" if rules.placement else "winner_takes_all"
    confirm = seed % 4 >= 2
    async with oracle_ladder(tmp_path, monkeypatch, seed, rules.preset, f"ffa={mode}",
                       confirm=confirm) as (chat, store):
        next_id = 1
        for _ in range(160):
            roll = rng.random()
            members = sorted(rules.members)
            if roll < 0.55:
                kind = rng.choice(["duel", "duel", "ffa"] + ([] if fame else ["teams"]))
                if kind == "duel":
                    # p0 wins most of its games: fame's k2 changes after 20 rated wins
                    pair = rng.sample(members, 2)
                    if fame and "p0" in members and "p0" not in pair and rng.random() < 0.6:
                        pair[0] = "p0"
                    sides = [[p] for p in sorted(pair, key=lambda p: (p != "p0", rng.random()))]
                    if "p0" not in pair or rng.random() < 0.3:
                        rng.shuffle(sides)
                    draw = rng.random() < 0.2
                    text = f"/report {'draw' if draw else 'win'} @{sides[1][0]}"
                elif kind == "ffa":
                    sides = [[p] for p in rng.sample(members, rng.randrange(3, 6))]
                    draw = False
                    text = "/report ffa " + " ".join(f"@{side[0]}" for side in sides)
                else:
                    chosen = rng.sample(members, rng.choice([3, 4]))
                    sides = [chosen[:2], chosen[2:]]
                    draw = rng.random() < 0.2
                    text = ("/report teams " + " ".join(f"@{p}" for p in sides[0]) + " vs "
                            + " ".join(f"@{p}" for p in sides[1]) + (" draw" if draw else ""))
                moves = rng.choice([None, 1, 49, 50, 249, 250, 900]) if fame else None
                rated = rng.random() > 0.1
                text += (f" moves={moves}" if moves else "") + ("" if rated else " unrated")
                text += "" if confirm else " again"  # every report a new game, as above
                reporter = sides[0][0]
                await chat.tick(rng.randrange(121, 900))  # (within 2 minutes: the same game)
                now = rules.derive(chat.at)["rating"]
                if fame and rated and rules.gap(now, sides) > 1000:
                    assert "apart" in await chat.refused(reporter, text)
                    continue
                await chat.ok(reporter, text)
                next_id += 1
                if not confirm or await answer_sides(chat, rng, next_id - 1, text, sides,
                                                      draw, rated):
                    rules.play(Play(next_id - 1, chat.at, sides, draw, rated, moves))
            elif roll < 0.66:
                await chat.tick(pause(rng))
                text = "tick"
            elif roll < 0.7:  # five stay, for free-for-alls of up to five
                text = await membership(chat, rng, rules, stay=5)
            elif roll < 0.8 and rules.plays:
                text = await void_one(chat, rng, rules.plays)
            elif roll < 0.93 and rules.plays:
                game = rules.plays[rng.choice(list(rules.plays))]
                draw = len(game.sides) == 2 and rng.random() < 0.3
                order = list(range(len(game.sides)))
                rng.shuffle(order)
                sides = game.sides if draw else [game.sides[i] for i in order]
                rated = rng.choice([None, None, True, False])
                # one player of each side, in finishing order
                spec = "draw" if draw else " ".join(f"@{rng.choice(side)}" for side in sides)
                spec += {None: "", True: " rated", False: " unrated"}[rated]
                text = f"/mod set {game.id} {spec} test"
                new = (sides, draw, game.rated if rated is None else rated)
                if new == (game.sides, game.draw, game.rated) and not game.voided:
                    await chat.refused("mod", text)
                else:
                    await chat.ok("mod", text)
                    game.sides, game.draw, game.rated = new
                    game.voided = False
            else:
                name = rng.choice(members)
                amount = rng.choice([1, -1]) * rng.randrange(1, 300)
                if fame and name in ("p0", "p1") and rng.random() < 0.5:  # near 2400 (k2)
                    rating = rules.derive(chat.at)["rating"][name]
                    amount = int(rng.choice([2399, 2400, 2450]) - rating) or 1
                text = await adjust(chat, rules, name, amount)
            await check(store, chat, rules, text)
