"""End to end: `ladderbot run` connects to a loopback stand-in of Discord's REST API and
gateway (`api_base_url`, `gateway_url`) and plays a duel ladder from `/ladder create` to
the Confirm button; then it stops on SIGTERM. And two such processes split the shards of
one bot over one PostgreSQL database."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

from tests.support.bot_process import ratings, start, stop
from tests.support.discord_fake import FakeDiscord
from tests.support.discord_payloads import (
    CHANNEL,
    GUILD,
    MANAGE_GUILD,
    button,
    command,
    member,
    option,
    person,
    user_option,
    with_user,
)

ROOT = Path(__file__).resolve().parents[2]
# The bot runs in its own process on real time; Discord's 3 seconds are tested in
# test_discord.py on an injected clock, not here on a loaded machine's.
FROZEN = lambda: 0.0  # noqa: E731
MOD = member(person(1300000000000000101, "mod"), permissions=MANAGE_GUILD)
ALICE = member(person(1300000000000000102, "alice"))
BOB = member(person(1300000000000000103, "bob"))


async def test_ladderbot_run_plays_a_duel_over_the_gateway(tmp_path: Path) -> None:
    fake = FakeDiscord(FROZEN)
    runner = await fake.serve()
    db = tmp_path / "ladder.db"
    config = tmp_path / "config.toml"
    config.write_text(
        f'[database]\npath = "{db}"\n\n[discord]\ntoken = "test-token"\n'
        f'api_base_url = "http://127.0.0.1:{fake.port}/api/v10"\n'
        f'gateway_url = "ws://127.0.0.1:{fake.port}/gateway"\n')
    bot = await start(config)
    try:
        await asyncio.wait_for(fake.identified.wait(), 30)
        steps = [
            command("create", option("name", "main"), option("preset", "duel"), by=MOD,
                    group="ladder"),
            command("join", by=ALICE),
            command("join", by=BOB),
            command("report", option("result", "win"),
                    with_user(user_option("opponent", BOB["user"]), BOB["user"]), by=ALICE),
        ]
        for n, payload in enumerate(steps, 1):
            await fake.dispatch("INTERACTION_CREATE", payload)
            await fake.wait_responses(n)
        pending = fake.responses()[-1]
        assert pending["content"].startswith("Match #1 reported: alice beat bob.")
        custom_id = pending["components"][0]["components"][0]["custom_id"]
        await fake.dispatch("INTERACTION_CREATE", button(custom_id, BOB))
        await fake.wait_responses(5)
        assert "alice 1000 -> 1016 (+16), bob 1000 -> 984 (-16)" in fake.texts()[-1]
        # The press's last request takes the buttons off the message: stopping before it
        # is answered would cut it off (and log its traceback).
        await fake.wait_until(lambda: bool(fake.edits()), lambda: f"{len(fake.edits())} edits")
        assert fake.edits()[-1]["components"] == []
        # The live standings message and the roles, kept by the running bot (issue 28).
        for n, payload in enumerate([
                command("pin", by=MOD, group="ladder"),
                command("set", option("options", "roles=leagues"), by=MOD, group="ladder")], 6):
            await fake.dispatch("INTERACTION_CREATE", payload)
            await fake.wait_responses(n)
        await fake.wait_until(lambda: any(p.startswith("main: ladder (rating")
                                          for p in fake.channel_posts(CHANNEL)),
                              lambda: f"posts {fake.channel_posts(CHANNEL)}")
        calibrating = {str(ALICE["user"]["id"]), str(BOB["user"]["id"])}
        await fake.wait_until(lambda: fake.guild.holders("Calibration") == calibrating,
                              lambda: f"holders {fake.guild.holders('Calibration')}")
    finally:
        [err] = await stop(bot)
        await runner.cleanup()
    assert bot.returncode == 0, err
    assert "Traceback" not in err
    assert fake.refused == []  # nothing the real API would refuse
    assert ratings(db, f"discord:{GUILD}") == {"alice": 1016, "bob": 984}


async def test_two_processes_split_the_shards_over_one_postgresql_database(
    tmp_path: Path, postgres_url: str
) -> None:
    fake = FakeDiscord(FROZEN)
    runner = await fake.serve()
    config = tmp_path / "config.toml"
    config.write_text(
        f'[database]\nurl = "{postgres_url}"\n\n[discord]\ntoken = "test-token"\n'
        f'api_base_url = "http://127.0.0.1:{fake.port}/api/v10"\n'
        f'gateway_url = "ws://127.0.0.1:{fake.port}/gateway"\n')
    bots = [await start(config, "--shards", f"{n}-{n}", "--shard-count", "2") for n in (0, 1)]
    other = GUILD + (1 << 22)  # Discord's rule: shard = (guild_id >> 22) % shard count
    try:
        async def both_connected() -> None:
            while len(fake.shards) < 2:
                fake.identified.clear()
                await fake.identified.wait()

        await asyncio.wait_for(both_connected(), 60)
        assert sorted(fake.shards.values()) == [(0, 2), (1, 2)]
        done = 0
        for guild in (GUILD, other):  # one server on each shard, so on each process
            for payload in [
                command("create", option("name", "main"), option("preset", "duel"),
                        option("options", "confirm=false"), by=MOD, group="ladder",
                        guild=guild),
                command("join", by=ALICE, guild=guild),
                command("join", by=BOB, guild=guild),
                command("report", option("result", "win"),
                        with_user(user_option("opponent", BOB["user"]), BOB["user"]),
                        by=ALICE, guild=guild),
            ]:
                await fake.dispatch("INTERACTION_CREATE", payload)
                done += 1
                await fake.wait_responses(done)
            assert fake.texts()[-1].startswith("Match #1: alice beat bob")
        await asyncio.sleep(0.3)
        assert len(fake.responses()) == done  # each interaction answered once, by one shard
    finally:
        errors = await stop(*bots)
        await runner.cleanup()
    assert [bot.returncode for bot in bots] == [0, 0], errors
    for guild in (GUILD, other):
        assert ratings(postgres_url, f"discord:{guild}") == {"alice": 1016, "bob": 984}


def test_shard_options_are_checked() -> None:
    for args in (["--shards", "0-3"], ["--shards", "2-1", "--shard-count", "4"],
                 ["--shards", "0-4", "--shard-count", "4"]):
        done = subprocess.run([sys.executable, "-m", "bot.cli", "run", *args], cwd=ROOT,
                              capture_output=True, text=True, timeout=60,
                              env={**os.environ, "LADDERBOT_DISCORD_TOKEN": "x"})
        assert done.returncode == 2, (args, done.stderr)
        assert "shard" in done.stderr, done.stderr
