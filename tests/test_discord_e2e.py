"""End to end: `ladderbot run` connects to a loopback stand-in of Discord's REST API and
gateway (`api_base_url`, `gateway_url`) and plays a duel ladder from `/ladder create` to
the Confirm button; then it stops on SIGTERM."""

from __future__ import annotations

import asyncio
import json
import signal
import sys
from pathlib import Path

from tests.discord_fake import (
    GUILD,
    MANAGE_GUILD,
    FakeDiscord,
    button,
    command,
    member,
    option,
    person,
    user_option,
    with_user,
)

ROOT = Path(__file__).resolve().parent.parent
MOD = member(person(1300000000000000101, "mod"), permissions=MANAGE_GUILD)
ALICE = member(person(1300000000000000102, "alice"))
BOB = member(person(1300000000000000103, "bob"))


async def test_ladderbot_run_plays_a_duel_over_the_gateway(tmp_path: Path) -> None:
    fake = FakeDiscord()
    runner = await fake.serve()
    db = tmp_path / "ladder.db"
    config = tmp_path / "config.toml"
    config.write_text(
        f'[database]\npath = "{db}"\n\n[discord]\ntoken = "test-token"\n'
        f'api_base_url = "http://127.0.0.1:{fake.port}/api/v10"\n'
        f'gateway_url = "ws://127.0.0.1:{fake.port}/gateway"\n')
    bot = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot.cli", "run", "--config", str(config), cwd=ROOT,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
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
    finally:
        if bot.returncode is None:
            bot.send_signal(signal.SIGTERM)
        _, err = await asyncio.wait_for(bot.communicate(), 30)
        await runner.cleanup()
    assert bot.returncode == 0, err.decode()
    assert "Traceback" not in err.decode()
    export = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot.cli", "export", "--db", str(db), "--chat", f"discord:{GUILD}",
        "--ladder", "main", cwd=ROOT, stdout=asyncio.subprocess.PIPE)
    data = json.loads((await export.communicate())[0])
    assert {p["name"]: p["rating"] for p in data["players"]} == {"alice": 1016, "bob": 984}
