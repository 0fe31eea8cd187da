"""End to end: `ladderbot run` polls a loopback stand-in of the Bot API (`base_url`) and
plays a duel ladder from `/ladder create` to `/confirm`; then it stops on SIGTERM."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

from tests.support.bot_process import ratings, start, stop
from tests.support.telegram_fake import BOT, GROUP, FakeTelegram, person, serve
from tests.support.telegram_fake import message as sent_message


def message(text: str, user: dict[str, Any], message_id: int) -> dict[str, Any]:
    """A message sent now (the bot runs on the real clock)."""
    return sent_message(text, user, message_id=message_id, date=int(time.time()))

MOD, ALICE, BOB = person(101, "Mo", "mod"), person(102, "Alice", "alice"), person(103, "Bob", "bob")


async def answered(api: FakeTelegram, count: int, what: str) -> None:
    """Wait (at most 30 s) until the bot has answered `count` times in all."""
    async def enough() -> None:
        while len([m for m, _ in api.calls if m in ("sendMessage", "answerCallbackQuery")]) \
                < count:
            api.answered.clear()
            await api.answered.wait()

    try:
        await asyncio.wait_for(enough(), 30)
    except TimeoutError:
        raise AssertionError(f"no answer to {what}; calls: {api.calls[-5:]}") from None


async def test_ladderbot_run_plays_a_duel_over_http(tmp_path: Path) -> None:
    api = FakeTelegram(admins={GROUP["id"]: [MOD]})
    runner, port = await serve(api)
    db = tmp_path / "ladder.db"
    config = tmp_path / "config.toml"
    config.write_text(f'[database]\npath = "{db}"\n\n[telegram]\ntoken = "123456:TEST"\n'
                      f'base_url = "http://127.0.0.1:{port}/bot"\n')
    bot = await start(config)
    try:
        steps: list[tuple[dict[str, Any], str]] = [
            (message("/ladder create main preset=duel", MOD, message_id=1), "create"),
            (message("/join", ALICE, message_id=2), "alice joins"),
            (message("/join", BOB, message_id=3), "bob joins"),
            (message("/report win @bob", ALICE, message_id=4), "the report"),
        ]
        for n, (update, what) in enumerate(steps, 1):
            api.push(update)
            await answered(api, n, what)
        pending = api.sent()[-1]
        assert pending["text"].startswith("Match #1 reported: alice beat bob.")
        buttons = pending["reply_markup"]["inline_keyboard"][0]
        api.push({"callback_query": {
            "id": "1", "from": BOB, "chat_instance": "1", "data": buttons[0]["callback_data"],
            "message": {"message_id": 5001, "date": 1767607200, "chat": GROUP, "from": BOT,
                        "text": pending["text"]}}})
        await answered(api, 6, "the Confirm button")  # the toast, then the result
        confirmed = api.texts()[-1]
        assert "alice 1000 -> 1016 (+16), bob 1000 -> 984 (-16)" in confirmed
    finally:
        [err] = await stop(bot)
        await runner.cleanup()
    assert bot.returncode == 0, err
    assert "Traceback" not in err
    assert api.refused == []  # nothing the real Bot API would refuse
    assert ratings(db, f"telegram:{GROUP['id']}") == {"alice": 1016, "bob": 984}
