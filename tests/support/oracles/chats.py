"""Random chats for the oracles: a ladder, reports and their answers, corrections,
membership, and the check that the bot's export equals what the rules give."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from storage.sql import tuning
from storage.sqlite.store import SqliteStore
from tests.support.chat import Chat
from tests.support.oracles.base import DAY, History

SETTINGS = {"duel": [("k", 16), ("k", 24), ("k", 32), ("k", 40), ("farm_limit", 2),
                     ("farm_limit", 3), ("farm_limit", 4), ("floor", 800), ("floor", 850)],
            "dutch": [("series_hours", 12), ("series_hours", 24), ("series_hours", 36)]}


EXTRAS = {"duel": ["", "", "", " unrated", " moves=1", " moves=30"],
          "dutch": ["", "", "", " unrated"]}


# Scores of matches of several games, read in either order (RULES, "Best-of-N matches").
SCORES = {"win": ["", "", " 2-1", " 2-0", " 1-2"], "loss": ["", "", " 2-1", " 0-2"],
          "draw": ["", "", " 1-1"]}


def typed_score(extra: str) -> tuple[int, int] | None:
    """The score a report's words give, the winner's games first."""
    for word in extra.split():
        if "-" in word:
            a, b = map(int, word.split("-"))
            return max(a, b), min(a, b)
    return None


def kept_score(score: tuple[int, int] | None, draw: bool) -> tuple[int, int] | None:
    """The bot's reading where RULES is silent: a moderator's new result keeps the
    match's score where it still fits (a draw's even, a win's not), else drops it."""
    return score if score is not None and (score[0] == score[1]) == draw else None


def adjustment(rng: random.Random, preset: str) -> int:
    """Mostly down, to the floor; on dutch sometimes far up, into the higher K bands and
    beyond the 719 gap."""
    if preset == "dutch" and rng.random() < 0.4:
        return rng.randrange(700, 2800)
    return rng.choice([1, -1, -1]) * rng.randrange(1, 250)


NAMES = [f"p{i}" for i in range(6)]


@asynccontextmanager
async def oracle_ladder(tmp_path: Path, monkeypatch: Any, seed: int, preset: str,
                  *options: str, confirm: bool = False) -> AsyncIterator[tuple[Chat, SqliteStore]]:
    """A ladder of six players. Even seeds: every correction rolls back in place. Odd
    seeds: most follow their ripple from a snapshot (a journal of 7 events, history
    restated after each command)."""
    rippled = seed % 2 == 1
    if rippled:
        monkeypatch.setattr(tuning, "UNDO_EVENTS", 7)
        monkeypatch.setattr(tuning, "SYNC_RESTATE", 4)
    async with SqliteStore(tmp_path / "l.db", snapshot_every=3 if rippled else 50,
                           snapshot_per_player=0) as store:
        chat = Chat(store)
        await chat.ladder(preset, f"confirm={str(confirm).lower()}", *options)
        await chat.join(*NAMES)
        yield chat, store


async def restart(chat: Chat, store: SqliteStore) -> SqliteStore:
    """The bot restarted: the store closed and opened again on the same file, nothing
    kept in memory; what is due since runs when the chat is next heard."""
    await store.close()
    again = SqliteStore(store.path, snapshot_every=store.snapshot_every,
                        snapshot_per_player=store.snapshot_per_player)
    await again.open()
    chat.store = again
    return again


def pause(rng: random.Random) -> int:
    """Seconds until the next command: hours, about a day (a series' window), days."""
    return rng.choice([rng.randrange(1, 6 * 3600), rng.randrange(18 * 3600, 30 * 3600),
                       rng.randrange(DAY, 3 * DAY), rng.randrange(8 * DAY, 20 * DAY)])


async def answer(chat: Chat, rng: random.Random, match: int, a: str, b: str, word: str,
                  extra: str) -> bool:
    """The opponent of a waiting report confirms it, reports the same game (which
    confirms it too), or disputes it and a moderator decides it as reported; or, before
    that, the reporter withdraws it (False: the game is not in the history)."""
    roll = rng.random()
    if roll < 0.1:
        await chat.ok(a, f"/withdraw {match}")
        return False
    if roll < 0.5:
        await chat.ok(b, f"/confirm {match}")
    elif roll < 0.75:
        mirrored = {"win": "loss", "loss": "win", "draw": "draw"}[word]
        assert "matches #" in await chat.ok(b, f"/report {mirrored} @{a}{extra}")
    else:
        await chat.ok(b, f"/dispute {match} not so")
        spec = "draw" if word == "draw" else f"@{b if word == 'loss' else a}"
        await chat.ok("mod", f"/mod set {match} {spec}{extra} as reported")
    return True


async def answer_sides(chat: Chat, rng: random.Random, match: int, text: str,
                        sides: list[list[str]], draw: bool, rated: bool) -> bool:
    """A player of another side answers a waiting report of the first side's player: as
    `answer` does, the same game reported from their side being the same words (a
    duel's mirrored, a draw of teams with the teams the other way round); or a player of
    the first side withdraws it first (False)."""
    other = rng.choice([p for side in sides[1:] for p in side])
    roll = rng.random()
    if roll < 0.1:
        await chat.ok(rng.choice(sides[0]), f"/withdraw {match}")
        return False
    if roll < 0.5:
        await chat.ok(other, f"/confirm {match}")
    elif roll < 0.75:
        words = text.split()
        if words[1] in ("win", "draw"):  # a duel, from the other side
            words[1:3] = ["draw" if draw else "loss", f"@{sides[0][0]}"]
        elif words[1] == "teams" and draw:
            versus = words.index("vs")
            words[2:versus + len(sides[1]) + 1] = (
                [f"@{p}" for p in sides[1]] + ["vs"] + [f"@{p}" for p in sides[0]])
        assert "matches #" in await chat.ok(other, " ".join(words))
    else:
        await chat.ok(other, f"/dispute {match} not so")
        spec = "draw" if draw else " ".join(f"@{rng.choice(side)}" for side in sides)
        await chat.ok("mod", f"/mod set {match} {spec}{'' if rated else ' unrated'} as reported")
    return True


def set_spec(game: Any, spec: str, rated: bool | None) -> str:
    """A moderator's /mod set of `game` to `spec`, perhaps also marking it (un)rated."""
    marked = {None: "", True: " rated", False: " unrated"}[rated]
    return f"/mod set {game.id} {spec}{marked} test"


def sides_after(game: Any, first: str, draw: bool) -> tuple[str, str]:
    """The winner and loser a moderator's new result gives a duel: `first` wins, or, for a
    draw, the sides stay as reported."""
    if draw:
        return game.winner, game.loser
    return first, game.loser if first == game.winner else game.winner


async def void_one(chat: Chat, rng: random.Random, games: dict[int, Any]) -> str:
    """A moderator voids a match at random (refused if it is void already)."""
    game = games[rng.choice(list(games))]
    text = f"/mod void {game.id} test"
    if game.voided:
        await chat.refused("mod", text)
    else:
        await chat.ok("mod", text)
        game.voided = True
    return text


async def membership(chat: Chat, rng: random.Random, rules: History,
                      engaged: set[str] | frozenset[str] = frozenset(), stay: int = 2) -> str:
    """Someone leaves, or a moderator takes them off or bans them (`stay` players stay);
    or someone who is off comes back by /join or a moderator's /mod add, unless banned
    (a banned player's /join is refused until a moderator lifts the ban). The `engaged`
    (in an unfinished challenge) may not leave yet. A ban is a leaving, an add a join."""
    name = rng.choice(rules.names)
    joined = name not in rules.members
    if not joined and len(rules.members) <= stay:
        return "nobody left"
    if joined and name in rules.banned:
        if rng.random() < 0.5:
            assert "banned" in await chat.refused(name, "/join")
            return f"{name}: /join (banned)"
        await chat.ok("mod", f"/mod unban @{name} test")
        rules.banned.discard(name)
        return f"mod: /mod unban @{name}"
    roll = rng.random()
    if joined:
        who, text = (name, "/join") if roll < 0.6 else ("mod", f"/mod add @{name}")
    else:
        who, text = (name, "/leave") if roll < 0.5 else ("mod", (
            f"/mod remove @{name} test" if roll < 0.8 else f"/mod ban @{name} test"))
    if not joined and name in engaged:
        assert "unfinished" in await chat.refused(who, text)
        return f"{who}: {text}"
    await chat.ok(who, text)
    rules.member(chat.at, name, joined)
    if text.startswith("/mod ban"):
        rules.banned.add(name)
    return f"{name}: {text}"


async def adjust(chat: Chat, rules: History, name: str, amount: int) -> str:
    """A moderator's adjustment; refused downwards for a player not above the floor."""
    text = f"/mod adjust @{name} {amount:+d} test"
    floor = rules.floor()
    if amount < 0 and floor is not None and \
            rules.derive(chat.at)["players"][name].rating <= floor:
        assert "no rating goes lower" in await chat.refused("mod", text)
        return text
    await chat.ok("mod", text)
    rules.adjust(chat.at, name, amount)
    return text


async def check(store: SqliteStore, chat: Chat, rules: History, text: str) -> None:
    """The export, once history is restated, against the rules."""
    await store.restate_pending()
    rules.compare(await chat.export(), chat.at, text)
