"""The one place that wires the running bot: from its configuration and database, the
flood limiter, the platforms whose tokens are configured (each with its way into the
core), and the runtime that runs them with the scheduler, the follower and the outbox.
Tests build the same with their stand-ins and clock."""

from __future__ import annotations

import time
from collections.abc import Callable

from bot.config import Config
from bot.limits import Limiter
from bot.runtime import Platform, Runtime
from storage.sql.units import SqlStore


def platforms(config: Config, store: SqlStore, limiter: Limiter,
              shards: list[int] | None = None, shard_count: int | None = None,
              clock: Callable[[], float] = time.time) -> list[Platform]:
    """The platforms whose tokens are configured, sharing one flood limiter."""
    found: list[Platform] = []
    if config.telegram.token:
        from bot.telegram.platform import TelegramPlatform  # (only what is configured loads)

        found.append(TelegramPlatform(config, store, clock=clock, limiter=limiter))
    if config.discord.token:
        from bot.discord.platform import DiscordPlatform

        found.append(DiscordPlatform(config, store, clock=clock, limiter=limiter,
                                     shard_ids=shards, shard_count=shard_count))
    return found


def bootstrap(config: Config, store: SqlStore, shards: list[int] | None = None,
              shard_count: int | None = None, clock: Callable[[], float] = time.time
              ) -> Runtime:
    """The running bot over an open database: built once, started by `Runtime.run`."""
    found = platforms(config, store, Limiter(), shards, shard_count, clock)
    return Runtime(config, store, found, clock=clock)
