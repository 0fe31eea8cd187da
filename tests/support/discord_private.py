"""The private discord.py names the tests need, in one place: an upgrade breaks here."""

from __future__ import annotations

import asyncio
from typing import Any

import discord

# The names discord.py gives the tasks that run a slash command or a button's callback.
HANDLER_TASKS = ("CommandTree-invoker", "discord-ui-dynamic-item-", "discord-ui-view-dispatch-")


async def deliver_interaction(client: discord.Client, payload: dict[str, Any]) -> None:
    """Feed a raw INTERACTION_CREATE payload to the client's real connection state, as the
    gateway would, and wait until the command or button handler it started has finished."""
    before = asyncio.all_tasks()
    client._connection.parse_interaction_create(payload)  # type: ignore[arg-type]
    started = [t for t in asyncio.all_tasks() - before if t.get_name().startswith(HANDLER_TASKS)]
    assert started, "discord.py started no handler for this interaction"
    await asyncio.wait_for(asyncio.gather(*started), 20)
