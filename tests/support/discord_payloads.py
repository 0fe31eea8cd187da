"""What Discord sends a bot, built as its gateway would: real snowflake ids (PITFALLS.md: short ids
make member conversion wait silently), members with permissions and roles, slash commands with
typed options, button presses, and the bot's own messages."""

from __future__ import annotations

import itertools
from typing import Any

APP = 1300000000000000001
GUILD = 1300000000000000002
CHANNEL = 1300000000000000003
OTHER_CHANNEL = 1300000000000000009
BOT_USER = {"id": str(APP), "username": "Ladderbot", "discriminator": "0", "bot": True,
            "global_name": None, "avatar": None}
MANAGE_GUILD = 1 << 5
EPHEMERAL = 64
_ids = itertools.count(1300000000000001000)


def snowflake() -> str:
    return str(next(_ids))


def person(uid: int, name: str) -> dict[str, Any]:
    return {"id": str(uid), "username": name, "discriminator": "0", "global_name": name,
            "avatar": None}


def member(user: dict[str, Any], permissions: int = 0,
           roles: list[int] | None = None) -> dict[str, Any]:
    return {"user": user, "roles": [str(r) for r in roles or []], "nick": None,
            "joined_at": "2026-01-01T00:00:00+00:00", "deaf": False, "mute": False,
            "flags": 0, "permissions": str(permissions)}


def bot_message(channel: int, content: str, data: dict[str, Any]) -> dict[str, Any]:
    return {"id": snowflake(), "channel_id": str(channel), "author": BOT_USER,
            "content": content, "timestamp": "2026-01-05T10:00:00+00:00",
            "edited_timestamp": None, "tts": False, "mention_everyone": False, "mentions": [],
            "mention_roles": [], "attachments": [], "embeds": data.get("embeds", []),
            "pinned": False, "type": 0, "components": data.get("components", []),
            "flags": data.get("flags", 0)}


def option(name: str, value: Any) -> dict[str, Any]:
    kind = {bool: 5, int: 4, str: 3}[type(value)]
    return {"name": name, "type": kind, "value": value}


def user_option(name: str, user: dict[str, Any]) -> dict[str, Any]:
    return {"name": name, "type": 6, "value": user["id"]}


def file_option(name: str, attachment: dict[str, Any]) -> dict[str, Any]:
    """An attachment option, carrying its resolved attachment (FakeDiscord.attach)."""
    return {"name": name, "type": 11, "value": attachment["id"], "attachment": attachment}


def command(name: str, *options: dict[str, Any], by: dict[str, Any],
            group: str | None = None, guild: int = GUILD) -> dict[str, Any]:
    """An INTERACTION_CREATE payload for a slash command (`group` for /ladder, /mod)."""
    users = {o["value"]: o.pop("user") for o in options if o.get("type") == 6 and "user" in o}
    files = {o["value"]: o.pop("attachment") for o in options if o.get("type") == 11}
    opts: list[dict[str, Any]] = list(options)
    data: dict[str, Any] = {"id": snowflake(), "name": group or name, "type": 1,
                            "guild_id": str(guild)}
    data["options"] = [{"name": name, "type": 1, "options": opts}] if group else opts
    if users:
        data["resolved"] = {"users": users,
                            "members": {k: {**member(v), "user": None} for k, v in users.items()}}
        for m in data["resolved"]["members"].values():
            m.pop("user")
    if files:
        data.setdefault("resolved", {})["attachments"] = files
    return _interaction(2, data, by, guild)


def button(custom_id: str, by: dict[str, Any]) -> dict[str, Any]:
    """An INTERACTION_CREATE payload for a button press on a bot message."""
    components = [{"type": 1, "components": [
        {"type": 2, "style": 3, "label": "Confirm", "custom_id": custom_id}]}]
    payload = _interaction(3, {"custom_id": custom_id, "component_type": 2}, by)
    payload["message"] = bot_message(CHANNEL, "Match reported", {"components": components})
    return payload


def _interaction(kind: int, data: dict[str, Any], by: dict[str, Any],
                 guild: int = GUILD) -> dict[str, Any]:
    return {
        "id": snowflake(), "application_id": str(APP), "type": kind, "token": f"tok{snowflake()}",
        "version": 1, "guild_id": str(guild), "channel_id": str(CHANNEL),
        "channel": {"id": str(CHANNEL), "type": 0, "guild_id": str(guild), "name": "ladder",
                    "position": 0, "permission_overwrites": [], "nsfw": False,
                    "parent_id": None},
        "member": by, "data": data, "locale": "en-US", "guild_locale": "en-US",
        "app_permissions": "2147483647", "entitlements": [],
        "authorizing_integration_owners": {"0": str(guild)}, "context": 0,
        "attachment_size_limit": 8388608,
    }


def with_user(opt: dict[str, Any], user: dict[str, Any]) -> dict[str, Any]:
    """A user option that carries its resolved user."""
    return {**opt, "user": user}
