"""`ladderbot run`: every configured platform on one event loop, one database, one scheduler."""

from __future__ import annotations

import asyncio
import logging
import signal
import time
from collections.abc import Awaitable, Callable, Sequence
from datetime import UTC
from pathlib import Path
from typing import Any, Protocol

from apscheduler.triggers.interval import IntervalTrigger

from bot.backup import daily
from bot.config import Config, dashboard_missing
from bot.following import Follower, LiveStandings, Step
from bot.gateway import Gateway
from bot.scheduler import Scheduler
from core.domain.records import Announcement
from storage.sql.dialect import SQLITE
from storage.sql.units import SqlStore
from storage.sqlite.store import SqliteStore

log = logging.getLogger(__name__)

NO_PLATFORM = """\
No chat platform is configured, so there is nothing to run.

Telegram: talk to @BotFather, send /newbot, and put the token it gives you in
  config.toml as [telegram] token = "...", or in the LADDERBOT_TELEGRAM_TOKEN variable.
Discord: create an application at https://discord.com/developers/applications, add a
  bot, and put its token in [discord] token = "...", or in LADDERBOT_DISCORD_TOKEN.
Then: ladderbot run --config config.toml

To try the bot without any token:  ladderbot console --admin mod
"""


class Platform(Protocol):
    """A chat platform the bot runs on (Telegram, Discord)."""

    name: str

    def owns(self, chat: str) -> bool:
        """True for chat keys of this platform (`telegram:...`)."""
        ...

    async def start(self) -> None:
        """Connect and start handling updates."""
        ...

    async def stop(self) -> None:
        """Stop handling updates and disconnect."""
        ...

    async def post(self, announcement: Announcement) -> None:
        """Post an announcement to its chat (and channel)."""
        ...

    async def web_access(self, chat: str, user: str) -> tuple[bool, frozenset[str]] | None:
        """Whether a user moderates one of its chats, and their roles there (the
        dashboard's question; None: the platform knows them not there)."""
        ...


def following(store: SqlStore, platforms: Sequence[Platform], clock: Callable[[], float],
              post: Callable[[Announcement], Awaitable[None]],
              leads: Callable[[], bool]) -> Follower:
    """What keeps the platforms in step with the standings: every platform's live
    standings messages, and Discord's roles; each platform pokes it after a command."""
    boards = [board for p in platforms if (board := getattr(p, "board", None)) is not None]
    parts: list[Step] = [LiveStandings(store, boards, clock, post)] if boards else []
    from bot.discord.roles import RoleSync  # (discord.py: a fifth of the console's start)
    parts += [RoleSync(store, roles, clock) for p in platforms
              if (roles := getattr(p, "roles", None)) is not None]
    follower = Follower(store, parts, clock, leads)
    for gateway in gateways(platforms):
        gateway.changed = follower.poke
    return follower


def gateways(platforms: Sequence[Platform]) -> list[Gateway]:
    """The platforms' ways into the core (the web's pages read and need none)."""
    return [gateway for p in platforms if (gateway := getattr(p, "gateway", None)) is not None]


class Runtime:
    """The running bot: platforms, the scheduler and the database, started and stopped together."""

    def __init__(self, config: Config, store: SqlStore, platforms: Sequence[Platform],
                 clock: Callable[[], float] = time.time) -> None:
        self.config = config
        self.store = store
        self.platforms = list(platforms)
        self.clock = clock
        self.scheduler = Scheduler(store, self.post, clock)
        if config.backup_dir and store.dialect is not SQLITE:
            log.warning("[backup] dir is for SQLite files; back PostgreSQL up with pg_dump")
        elif config.backup_dir:
            self.scheduler.add("backup", self.backup, IntervalTrigger(hours=1, timezone=UTC))
        self.stopping = asyncio.Event()
        self.follower = following(store, self.platforms, clock, self.post,
                                  lambda: self.scheduler.leading)
        self._flushing: asyncio.Task[None] | None = None
        self._again = False
        for gateway in gateways(self.platforms):
            gateway.outbox = self.flush_soon

    def flush_soon(self) -> None:
        """A command left announcements for another chat (a ladder it shares): post them
        now rather than at the next tick. Only the process that runs the jobs posts from
        the outbox, so two never post one announcement."""
        if not self.scheduler.leading:
            return
        self._again = True
        if self._flushing is None or self._flushing.done():
            self._flushing = asyncio.get_running_loop().create_task(self._flush())

    async def _flush(self) -> None:
        while self._again:  # (what a command left while the last flush ran, too)
            self._again = False
            try:
                await self.scheduler.flush()
            except Exception:
                log.exception("posting from the outbox failed; the next tick tries again")

    async def backup(self) -> None:
        """Take the daily backup if the newest is a day old (checked hourly)."""
        if not isinstance(self.store, SqliteStore):  # (a server's database: pg_dump's)
            return
        try:
            made = await daily(self.store, Path(self.config.backup_dir),
                               self.config.backup_keep, self.clock())
        except Exception:
            log.exception("the daily backup failed; it is tried again within the hour")
            return
        if made is not None:
            log.info("daily backup written to %s", made)

    async def post(self, announcement: Announcement) -> None:
        """Hand an announcement to the platform of its chat (raises to be retried)."""
        owner = next((p for p in self.platforms if p.owns(announcement.chat)), None)
        if owner is None:
            # A chat of no running platform (the console, or a platform not configured).
            log.info("announcement for %s: %s", announcement.chat, announcement.text)
            return
        await owner.post(announcement)

    def _dashboard(self, site: Any) -> None:
        """The dashboard's login and pages on the site, if configured; the log says what
        it still needs otherwise (the bot runs without it)."""
        from bot.web.dashboard import Dashboard
        from bot.web.discord_login import DiscordOAuth

        missing = dashboard_missing(self.config)
        if missing:
            log.info("the dashboard is off; it needs %s", "; ".join(missing))
            return
        config, url = self.config, self.config.web_url.rstrip("/")
        discord = DiscordOAuth(config.discord.client_id, config.discord.client_secret,
                               f"{url}/login/discord/back") \
            if config.discord.client_id and config.discord.client_secret else None
        telegram = config.web_telegram_login and config.telegram.token
        Dashboard(site, config.policy, telegram_token=config.telegram.token if telegram else "",
                  telegram_bot=config.web_telegram_login if telegram else "", discord=discord,
                  access=self._web_access, secure=url.startswith("https://"),
                  days=config.web_session_days)

    async def _web_access(self, chat: str, user: str) -> tuple[bool, frozenset[str]] | None:
        """The dashboard's question of who moderates a chat, put to the chat's platform."""
        for platform in self.platforms:
            if platform.owns(chat):
                return await platform.web_access(chat, user)
        return None

    async def run(self) -> int:
        """Catch up, start everything, and run until SIGINT or SIGTERM."""
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, self.stopping.set)
        started: list[Platform] = []
        site = None
        try:
            await self.scheduler.start()
            if self.config.web_listen:
                from bot.web.pages import Web

                site = Web(self.store, language=self.config.policy.language)
                self._dashboard(site)
                await site.start(self.config.web_listen)
            for platform in self.platforms:
                await platform.start()
                started.append(platform)
                log.info("%s is running", platform.name)
            self.follower.start()
            await self.stopping.wait()
            log.info("stopping")
        finally:
            self.scheduler.stop()
            await self.follower.stop()
            if site is not None:
                await site.stop()
            for platform in reversed(started):
                try:
                    await platform.stop()
                except Exception:
                    log.exception("%s did not stop cleanly", platform.name)
            for sig in (signal.SIGINT, signal.SIGTERM):
                loop.remove_signal_handler(sig)
        return 0
