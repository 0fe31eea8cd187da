"""The stand-ins refuse what the real servers refuse (tests/support/platform_limits.py), at the
limits Discord's documentation and python-telegram-bot's constants give."""

from __future__ import annotations

from tests.support import platform_limits as limits


def _embed(**fields: object) -> dict[str, object]:
    return {"embeds": [fields]}


def test_discord_messages_at_and_past_their_limits() -> None:
    assert limits.discord_message({"content": "x" * 2000}) == []
    assert limits.discord_message({"content": "x" * 2001}) == [
        "content: Must be 2000 or fewer in length."]
    assert limits.discord_message(_embed(title="t" * 256, description="d" * 4096)) == []
    assert limits.discord_message(_embed(title="t" * 257)) != []
    assert limits.discord_message(_embed(description="d" * 4097)) != []
    fields = [{"name": "n", "value": "v"}] * 26
    assert limits.discord_message(_embed(fields=fields)) != []
    assert limits.discord_message(_embed(fields=[{"name": "n", "value": "v" * 1025}])) != []
    assert limits.discord_message(_embed(footer={"text": "f" * 2049})) != []
    two = {"embeds": [{"description": "d" * 3001}, {"description": "d" * 3000}]}
    assert limits.discord_message(two) == [
        "embeds: Embed size exceeds maximum size of 6000"]


def test_discord_components_and_choices() -> None:
    button = {"type": 2, "label": "ok", "custom_id": "c"}
    row = {"type": 1, "components": [button]}
    assert limits.discord_message({"components": [row] * 5}) == []
    assert limits.discord_message({"components": [row] * 6}) != []
    six = {"type": 1, "components": [button] * 6}
    assert limits.discord_message({"components": [six]}) != []
    long_id = {"type": 1, "components": [{"type": 2, "label": "ok", "custom_id": "c" * 101}]}
    assert limits.discord_message({"components": [long_id]}) != []
    label = {"type": 1, "components": [{"type": 2, "label": "l" * 81, "custom_id": "c"}]}
    assert limits.discord_message({"components": [label]}) != []
    assert limits.discord_choices({"choices": [{"name": "a", "value": 1}] * 25}) == []
    assert limits.discord_choices({"choices": [{"name": "a", "value": 1}] * 26}) != []
    assert limits.discord_choices({"choices": [{"name": "a" * 101, "value": 1}]}) != []


def test_discord_command_registration() -> None:
    good = {"name": "report", "description": "Report a game", "options": [
        {"name": "result", "description": "r", "type": 3, "required": True},
        {"name": "ladder", "description": "l", "type": 3}]}
    assert limits.discord_commands([good]) == []
    assert limits.discord_commands([{**good, "name": "Report"}]) != []
    assert limits.discord_commands([{**good, "description": "d" * 101}]) != []
    assert limits.discord_commands([{**good, "description": ""}]) != []
    late = {**good, "options": list(reversed(good["options"]))}  # required after optional
    assert limits.discord_commands([late]) != []


def test_telegram_calls_at_and_past_their_limits() -> None:
    assert limits.telegram_call("sendMessage", {"text": "x" * 4096}) is None
    assert limits.telegram_call("sendMessage", {"text": "x" * 4097}) == \
        "Bad Request: message is too long"
    assert limits.telegram_call("sendMessage", {"text": " "}) == \
        "Bad Request: message text is empty"
    assert limits.telegram_call("sendPhoto", {"caption": "c" * 1025}) is not None
    keyboard = {"inline_keyboard": [[{"text": "ok", "callback_data": "é" * 33}]]}  # 66 bytes
    assert limits.telegram_call("sendMessage", {"text": "t", "reply_markup": keyboard}) == \
        "Bad Request: BUTTON_DATA_INVALID"
    assert limits.telegram_call("answerCallbackQuery", {"text": "a" * 201}) is not None
    commands = [{"command": "report", "description": "Report a game"}]
    assert limits.telegram_call("setMyCommands", {"commands": commands}) is None
    assert limits.telegram_call("setMyCommands", {"commands": commands * 101}) is not None
    bad = [{"command": "Report-FFA", "description": "d"}]
    assert limits.telegram_call("setMyCommands", {"commands": bad}) is not None
