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
ORACLE_SEEDS=400 (with `-m ''`) sweeps further than the suite does.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from tests.support import depth
from tests.support.oracles.chats import NAMES, check, oracle_ladder, restart
from tests.support.oracles.multi import Multi
from tests.support.oracles.multi_chat import MultiChat
from tests.support.oracles.nhwc import Nhwc
from tests.support.oracles.nhwc_chat import NhwcChat
from tests.support.oracles.rated import RULEBOOKS
from tests.support.oracles.rated_chat import RatedChat


@pytest.mark.parametrize("preset", list(RULEBOOKS))
@pytest.mark.parametrize("seed", depth.seeds())
async def test_the_bot_rates_as_the_rulebook(tmp_path: Path, monkeypatch: Any, preset: str,
                                            seed: int) -> None:
    """Seeds 2 and 3 of every four: reports wait for the opponent, who confirms them,
    reports the same game, or disputes it for a moderator to decide, unless the reporter
    withdraws them first."""
    rng = random.Random(seed)
    games_mode = preset == "dutch" and seed % 2 == 0  # else a match is one result
    rules = RULEBOOKS[preset](NAMES, games_mode)
    confirm = seed % 4 >= 2
    options = ("bestof_rating=games",) if games_mode else ()
    async with oracle_ladder(tmp_path, monkeypatch, seed, preset, *options, confirm=confirm) as (
            chat, store):
        played = RatedChat(chat, rng, rules, preset, confirm)
        for _ in range(160):
            await check(store, chat, rules, await played.step())


@pytest.mark.parametrize("seed", depth.seeds())
async def test_the_bot_moves_rungs_as_the_nhwc_rulebook(tmp_path: Path, monkeypatch: Any,
                                                       seed: int) -> None:
    """Challenges issued, accepted, declined (only for a valid reason), left to become
    forfeits, left unplayed to lapse, taken back by the challenger or cancelled by a
    moderator; results of every margin; corrections and rung adjustments, as above. Seeds
    2 and 3 of every four: results wait for the opponent to answer (or are withdrawn, and
    the challenge waits for its result again). Open challenges to anyone, taken by the
    first to accept or left to lapse with no forfeit; the bot restarted now and then."""
    rng = random.Random(seed)
    rules = Nhwc(NAMES)
    confirm = seed % 4 >= 2
    async with oracle_ladder(tmp_path, monkeypatch, seed, "nhwc", confirm=confirm) as (chat, store):
        played = NhwcChat(chat, rng, rules, confirm)
        for _ in range(160):
            text = await played.step()
            if text is None:
                continue
            if rng.random() < 0.05:  # open challenges and their deadlines outlive it
                store = await restart(chat, store)
            await check(store, chat, rules, text)
        await store.close()


@pytest.mark.parametrize("preset", ["warlight", "warlight-placement", "fame"])
@pytest.mark.parametrize("seed", depth.seeds())
async def test_the_bot_rates_games_of_many_sides_as_the_rulebook(
        tmp_path: Path, monkeypatch: Any, preset: str, seed: int) -> None:
    """Duels, free-for-alls of 3-5 and (warlight) games of two teams, every finishing
    order, draws, unrated games, game lengths (fame's k3), adjustments far enough for
    fame's k2 and its 1000-point refusal; corrections as above. Seeds 2 and 3 of every
    four: reports wait for another side to answer (or are withdrawn)."""
    rng = random.Random(seed)
    rules = Multi(NAMES, preset.split("-")[0], preset.endswith("placement"))
    mode = "placement" if rules.placement else "winner_takes_all"
    confirm = seed % 4 >= 2
    async with oracle_ladder(tmp_path, monkeypatch, seed, rules.preset, f"ffa={mode}",
                             confirm=confirm) as (chat, store):
        played = MultiChat(chat, rng, rules, confirm)
        for _ in range(160):
            text = await played.step()
            if text is not None:
                await check(store, chat, rules, text)
