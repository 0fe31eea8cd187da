"""Random command sequences run on the in-memory twin, SQLite and PostgreSQL side by side must give
the same replies and the same export; a cold start from SQLite's snapshot and log reads the same
ladder."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.domain.calendar import DAY, HOUR, parse_instant
from core.domain.state import replay
from storage.memory.store import MemoryStore
from storage.postgres.store import PgStore
from storage.sqlite.store import SqliteStore
from tests.support import postgres
from tests.support.chat import Chat

NAMES = ["ann", "ben", "cat", "dan"]
PRESET_OPTIONS = {
    "duel": "calibration=1", "dutch": "", "fame": "", "warlight": "ffa=placement", "nhwc": "",
}


def _commands(draw: st.DrawFn, preset_name: str) -> list[tuple[str, str]]:
    me, other = draw(st.permutations(NAMES))[:2]
    kind = draw(st.sampled_from(
        ["report", "report", "report", "confirm", "dispute", "void", "set", "adjust", "tick",
         "standings", "challenge", "accept", "leave", "join", "season", "history"]))
    margin = draw(st.sampled_from(["minor", "major", "overwhelming"]))
    mid = draw(st.integers(1, 6))
    if kind == "report":
        result = draw(st.sampled_from(["win", "loss", "draw"]))
        tail = f" {margin}" if preset_name == "nhwc" and result != "draw" else ""
        played = [(me, f"/report {result} @{other}{tail}")]
        if preset_name == "nhwc":  # a position ladder plays its challenges
            played = [(me, f"/challenge @{other}"), (other, "/accept"), *played]
        if draw(st.booleans()):
            played.append((other, draw(st.sampled_from(["/confirm", "/dispute no"]))))
        return played
    return [{
        "confirm": (me, "/confirm"),
        "dispute": (me, "/dispute not so"),
        "void": ("mod", f"/mod void {mid} check"),
        "set": ("mod", f"/mod set {mid} @{me} {margin} check"),
        "adjust": ("mod", f"/mod adjust @{me} +{draw(st.integers(1, 3))} check"),
        "tick": ("!", str(draw(st.sampled_from([60, 6 * HOUR, 25 * HOUR, 4 * DAY])))),
        "standings": (me, draw(st.sampled_from(["/standings", "/standings season",
                                                "/standings week", "/profile"]))),
        "challenge": (me, f"/challenge @{other}"),
        "accept": (me, "/accept"),
        "leave": (me, "/leave"),
        "join": (me, "/join"),
        "season": ("mod", "/mod season close"),
        "history": (me, f"/history @{other}"),
    }[kind]]


@st.composite
def sessions(draw: st.DrawFn) -> tuple[str, list[tuple[str, str]]]:
    preset_name = draw(st.sampled_from(sorted(PRESET_OPTIONS)))
    commands = [("mod", f"/ladder set confirm={draw(st.sampled_from(['true', 'false']))}")]
    for _ in range(draw(st.integers(5, 25))):
        commands += _commands(draw, preset_name)
    return preset_name, commands


def sqlite_export_at(data: dict[str, Any]) -> int:
    return parse_instant(data["at"])


async def _play(store: Any, preset_name: str, commands: list[tuple[str, str]]) -> tuple[
        list[str], dict[str, Any]]:
    chat = Chat(store)
    replies = [await chat.text("mod", f"/ladder create main preset={preset_name} "
                                      f"{PRESET_OPTIONS[preset_name]}")]
    for name in NAMES:
        replies.append(await chat.text(name, "/join"))
    for name, text in commands:
        if name == "!":
            replies += [a.text for a in await chat.tick(int(text))]
        else:
            replies.append(await chat.text(name, text))
    return replies, await chat.export()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sessions())
async def test_every_store_gives_the_same_replies_and_export(
    postgres_server: str, session: tuple[str, list[tuple[str, str]]]
) -> None:
    preset_name, commands = session
    memory_replies, memory_export = await _play(MemoryStore(snapshot_every=3), preset_name,
                                                commands)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "l.db"
        async with SqliteStore(path, snapshot_every=3, snapshot_per_player=0) as sqlite:
            sqlite_replies, sqlite_export = await _play(sqlite, preset_name, commands)
            state = await sqlite.run(lambda repo: repo.state(1))
            events = await sqlite.run(lambda repo: repo.events(1))
            base = await sqlite.run(lambda repo: repo.base_settings(1))
        assert replay(base, events).fingerprint() == state.fingerprint()
        # a cold start (snapshot + log) reads the same ladder
        async with SqliteStore(path, snapshot_every=3) as again:
            cold = await Chat(again, at=sqlite_export_at(sqlite_export)).export()
    assert sqlite_replies == memory_replies
    assert sqlite_export == memory_export
    assert cold == sqlite_export
    async with PgStore(await postgres.fresh_database(postgres_server), snapshot_every=3,
                       snapshot_per_player=0) as pg:
        assert await _play(pg, preset_name, commands) == (memory_replies, memory_export)
