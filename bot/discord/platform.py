"""Discord, through discord.py: interactions, persistent buttons, announcements.

Servers own ladders (`discord:GUILD_ID`). The slash commands are declared in
`bot.discord.commands`; they come here, go into the core through the shared gateway,
and their replies go out as `bot.discord.render` makes them. The bot asks for no
gateway intents: slash commands and buttons need none.
"""

from __future__ import annotations

import asyncio
import dataclasses
import io
import logging
import re
import time
from collections.abc import Awaitable, Callable
from typing import Any

import discord
import yarl
from discord import app_commands

from bot.config import Config
from bot.discord.board import DiscordBoard
from bot.discord.buttons import PageButton, ReportButton, choice_view, page_view, report_view
from bot.discord.commands import register
from bot.discord.keys import PLATFORM, chat_key, mentions_as_tokens, role_ids, user_ref
from bot.discord.render import MENTION, called_ids, calling, chunks, pinged, render, shown
from bot.discord.roles import DiscordRoles
from bot.gateway import (
    IMPORT,
    Asker,
    Gateway,
    Said,
    button_command,
    buttons_of,
    own_words,
    page_command,
)
from bot.limits import Limiter
from bot.scheduler import Undeliverable
from bot.text import APOLOGY, cut
from core.commands.base import Command
from core.commands.ladders import ShowLadder
from core.commands.views import ShowHallOfFame, ShowHistory, ShowProfile, ShowStandings
from core.domain.names import shown_name
from core.domain.records import Announcement, Reply
from core.i18n import Number, language_of, t
from core.i18n import render as said_in
from core.ports.repository import PlatformRepo, PlatformStore
from core.service.chat_import import CHAT_FILE
from core.service.dispatch import storeless

log = logging.getLogger(__name__)

CHOICE_NAME = 100  # characters of an autocomplete choice (discord-api-docs)
AUTOCOMPLETE_WAIT = 2.0  # seconds an autocomplete may wait for the database
EMBEDDED = (ShowStandings, ShowProfile, ShowHistory, ShowHallOfFame, ShowLadder)
# A command that sets the roles a ladder gives: the server's roles are read first.
SETS_ROLES = re.compile(r"^/ladder\s+(set|create)\b.*\b(roles|champion_role)\s*=", re.I | re.S)


class DiscordPlatform:
    """The bot in Discord servers: one AutoShardedClient for any number of servers."""

    name = PLATFORM

    def __init__(self, config: Config, store: PlatformStore | None, *,
                 clock: Callable[[], float] = time.time,
                 shard_ids: list[int] | None = None, shard_count: int | None = None,
                 limiter: Limiter | None = None) -> None:
        self.config = config
        self.limiter = limiter or Limiter()
        self._store = store  # None only to list the commands (`discord sync --dry-run`)
        self.clock = clock
        self.autocomplete_wait = AUTOCOMPLETE_WAIT
        # Names and reasons are the players' own text: "@everyone" or a "<@123>" typed into
        # a reason must ping nobody. A reply names the users it may ping (`pinged`);
        # announcements, which no asker named anyone in, ping nobody.
        shards: dict[str, Any] = {} if shard_ids is None else {"shard_ids": shard_ids}
        self.client = discord.AutoShardedClient(
            intents=discord.Intents.none(), shard_count=shard_count,
            allowed_mentions=discord.AllowedMentions.none(), **shards)
        self.client.ladderbot = self  # type: ignore[attr-defined]
        self.tree: app_commands.CommandTree[discord.AutoShardedClient] = \
            app_commands.CommandTree(self.client)
        self.tree.on_error = self.on_error  # type: ignore[method-assign]
        self.client.add_dynamic_items(ReportButton, PageButton)
        self.roles = DiscordRoles(self.client)
        self.board = DiscordBoard(self.client, config.policy.web_url)
        # The way into the core, made once (the runtime tells it whom to poke after a
        # command); none when only listing the commands.
        self._gateway = None if store is None else Gateway(store, config.policy, clock,
                                                            self.limiter)
        register(self)

    @property
    def store(self) -> PlatformStore:
        """The database (absent only when just listing commands)."""
        assert self._store is not None, "this platform was built without a database"
        return self._store

    @property
    def gateway(self) -> Gateway:
        """The way into the core (absent only when just listing commands)."""
        assert self._gateway is not None, "this platform was built without a database"
        return self._gateway

    # ---- lifecycle
    def owns(self, chat: str) -> bool:
        """Discord chat keys."""
        return chat.startswith(f"{PLATFORM}:")

    def use_servers(self) -> None:
        """Point discord.py at a Discord-compatible server, if configured."""
        if self.config.discord.api_base_url:
            discord.http.Route.BASE = self.config.discord.api_base_url.rstrip("/")
        if self.config.discord.gateway_url:
            discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(
                self.config.discord.gateway_url)

    async def start(self) -> None:
        """Log in and connect every shard in the background."""
        self.use_servers()
        await self.client.login(self.config.discord.token)
        self._connection = self.client.loop.create_task(self.client.connect(reconnect=True))

    async def stop(self) -> None:
        """Disconnect."""
        await self.client.close()

    async def post(self, announcement: Announcement) -> None:
        """Post an announcement to its ladder's channel (raises for the outbox to retry)."""
        if announcement.channel is None:
            raise Undeliverable(f"{announcement.ladder} has no announcement channel")
        channel = self.client.get_partial_messageable(int(announcement.channel))
        called = called_ids(announcement.notify)
        parts = chunks(calling(shown(announcement.text, self.config.policy.web_url), called))
        try:
            for n, part in enumerate(parts):
                extra: dict[str, Any] = {}
                if n == len(parts) - 1:  # the calls are on the last line: ping there
                    extra["allowed_mentions"] = pinged("", called=called)
                    buttons = buttons_of(announcement.ready, announcement.confirm)
                    if buttons is not None:
                        extra["view"] = report_view(buttons[0], announcement.ladder,
                                                    buttons[1], announcement.language)
                await channel.send(part, **extra)
        except (discord.Forbidden, discord.NotFound) as error:
            raise Undeliverable(str(error)) from error

    async def web_access(self, chat: str, user: str) -> tuple[bool, frozenset[str]] | None:
        """Whether a user (key) moderates a server's ladders, as the dashboard asks before
        each moderator's page and action, and their role ids (None: not a member)."""
        if not self.owns(chat) or not user.startswith(f"{PLATFORM}:"):
            return None
        role = self.config.discord.moderator_role
        return await self.roles.moderates(int(chat.split(":", 1)[1]),
                                          int(user.split(":", 1)[1]), role)

    # ---- running commands
    def asker(self, interaction: discord.Interaction[Any]) -> Asker:
        """Who asks, in which server: a moderator of every ladder by the Manage Server
        permission or the configured role; their roles, for a ladder's own moderators' role
        (which the core asks of the ladder the command acts on)."""
        assert interaction.guild_id is not None  # admit() answered the others
        member = interaction.user
        roles = role_ids(member) if isinstance(member, discord.Member) else set()
        everywhere = self.config.discord.moderator_role
        moderator = isinstance(member, discord.Member) and (
            interaction.permissions.manage_guild or (everywhere.isdigit()
                                                     and int(everywhere) in roles))
        return Asker(chat_key(interaction.guild_id), user_ref(interaction.user), moderator,
                     roles_held=frozenset(str(r) for r in roles),
                     message_id=f"i{interaction.id}", ephemeral=True,
                     channel=str(interaction.channel_id) if interaction.channel_id else None,
                     locale=interaction.locale.value)

    def admit(self, interaction: discord.Interaction[Any]) -> Reply | None:
        """The refusal of an interaction the database need not see: outside a server, or
        from someone sending faster than the limiter lets through (always answered: an
        interaction must be)."""
        locale = interaction.locale.value
        if interaction.guild_id is None:
            return own_words(t("adapter.servers_only"), locale, self.config.policy)
        allowed, note = self.gateway.admit(self.asker(interaction))
        if not allowed:
            return own_words(note or t("limit.slow_long"), locale, self.config.policy)
        return None

    async def run(self, interaction: discord.Interaction[Any], command: Command | None,
                  ladder: str | None = None, text: str | None = None,
                  attachment: bytes | None = None) -> Reply:
        """Run a command (or a text to parse) for the user of an interaction (with the
        file sent with it, as read)."""
        asker = dataclasses.replace(self.asker(interaction), attachment=attachment)
        if command is None:
            assert text is not None
            names = {u.id: shown_name(u.display_name) for u in _resolved_users(interaction)}
            said, known = mentions_as_tokens(text, names)
            if SETS_ROLES.search(text) and interaction.guild_id is not None:
                server = await self.roles.server(interaction.guild_id)
                asker = dataclasses.replace(asker, roles=server.access())
            reply = await self.gateway.run(asker, Said(said, known), ladder)
        else:
            reply = await self.gateway.run(asker, command, ladder)
        return reply or own_words(t("adapter.nothing"), interaction.locale.value,
                                  self.config.policy)

    async def answer(self, interaction: discord.Interaction[Any], command: Command | None,
                     ladder: str | None = None, text: str | None = None,
                     file: discord.Attachment | None = None) -> None:
        """Run and respond: refusals only to the asker; tables and profiles as embeds.

        Whatever goes to the database is deferred first, by design: its wait in the
        queue, a correction's re-derivation or a chart may outlast Discord's 3 seconds,
        which no timing here can promise. So is the download of a file sent with it."""
        reply = self.admit(interaction) or (
            storeless(command, self.config.policy, interaction.locale.value)
            if command is not None else None)
        if reply is None and file is not None and file.size > CHAT_FILE:  # (not downloaded)
            reply = own_words(t("chat_import.too_large", most=Number(CHAT_FILE // 1024)),
                              interaction.locale.value, self.config.policy)
        if reply is None:
            await interaction.response.defer(thinking=True)
            data = None
            try:
                data = None if file is None else await file.read()
            except discord.HTTPException:
                reply = own_words(t("chat_import.fetch_failed"), interaction.locale.value,
                                  self.config.policy)
            reply = reply or await self.run(interaction, command, ladder, text, data)
        await self.respond(interaction, reply, embed=isinstance(command, EMBEDDED))

    async def respond(self, interaction: discord.Interaction[Any], reply: Reply,
                      embed: bool = False) -> None:
        """Send a reply as the renderer made it, and post what it announces."""
        made = render(reply, embed, self.config.policy.web_url, named_players(interaction))
        first = made.messages[0]
        if made.buttons is not None:
            first["view"] = report_view(*made.buttons)
        elif made.pages:
            first["view"] = page_view(made.pages)
        elif made.choices:
            first["view"] = choice_view(made.choices)
        if made.chart:
            from bot.charts import render as draw  # (matplotlib: loaded at the first chart)

            assert reply.chart is not None
            picture = await asyncio.to_thread(draw, reply.chart)
            # A table's or profile's picture goes in its embed; a bracket's below the
            # text, however many messages that took.
            carrier = first if "embed" in first else made.messages[-1]
            carrier["file"] = discord.File(io.BytesIO(picture), filename="chart.png")
            if "embed" in first:
                first["embed"].set_image(url="attachment://chart.png")
        send = await self._sender(interaction, made.private)
        await send(**first)
        for more in made.messages[1:]:
            await interaction.followup.send(**more)
        await self._announce_all(interaction, reply)

    async def _sender(self, interaction: discord.Interaction[Any],
                      ephemeral: bool) -> Callable[..., Awaitable[Any]]:
        """How the first message of an answer goes: as the response itself, or, once the
        interaction is deferred, as a follow-up. A deferred command's first follow-up
        fills its loading message and is shown as the deferral was (to everyone), so a
        private answer deletes that message first and goes on its own."""
        if not interaction.response.is_done():
            return interaction.response.send_message
        loading = interaction.type is discord.InteractionType.application_command
        if ephemeral and loading:
            await interaction.delete_original_response()
        return interaction.followup.send

    async def _announce_all(self, interaction: discord.Interaction[Any], reply: Reply) -> None:
        for announcement in reply.announcements:
            await self._announce(announcement)
        if reply.announce and reply.ladder is not None and interaction.guild_id is not None:
            info = await self.store.run(
                lambda repo: repo.ladder(chat_key(interaction.guild_id or 0), reply.ladder))
            if info is not None and info.channel and info.channel != str(interaction.channel_id):
                await self._announce(Announcement(info.chat, info.name, reply.said, info.channel))

    async def _announce(self, announcement: Announcement) -> None:
        try:
            await self.post(announcement)
        except Exception:
            log.exception("could not post an announcement to %s", announcement.chat)

    async def press(self, interaction: discord.Interaction[Any], action: str, ladder: str,
                    match: int) -> None:
        """A Confirm / Dispute / Withdraw or Ready button: the core decides whether the
        presser may."""
        reply = self.admit(interaction)
        if reply is None:  # deferred as commands are; a button's leaves no loading message
            await interaction.response.defer()
            reply = await self.gateway.confirm_import(self.asker(interaction), match) \
                if action == IMPORT else \
                await self.run(interaction, button_command(action, match), ladder)
            reply = reply or own_words(t("adapter.nothing"), interaction.locale.value,
                                       self.config.policy)
        # The same way out as a command's reply: split to Discord's sizes, announcements
        # posted (a long free-for-all's confirmation was refused whole, and lost).
        await self.respond(interaction, reply)
        if reply.error or reply.private:  # (a ready noted: the others still need the button)
            return
        if interaction.message is not None:
            try:
                await interaction.message.edit(view=None)
            except discord.HTTPException:
                log.warning("could not remove the buttons of match #%s", match)

    async def turn_page(self, interaction: discord.Interaction[Any], data: str) -> None:
        """Previous or Next: the page it names, to the presser alone."""
        found = page_command(data)
        reply = self.admit(interaction)
        if reply is None and found is None:
            reply = own_words(t("adapter.stale_button"), interaction.locale.value,
                              self.config.policy)
        if reply is None and found is not None:
            await interaction.response.defer()
            reply = await self.run(interaction, *found)
        assert reply is not None  # (admitted, and found or not)
        await self.respond(interaction, dataclasses.replace(reply, private=True), embed=True)

    async def on_error(self, interaction: discord.Interaction[Any],
                       error: Exception) -> None:
        """Log with the traceback; the user gets a short apology, never a stack trace."""
        log.error("error in a command", exc_info=error)
        try:
            send = await self._sender(interaction, ephemeral=True)
            await send(said_in(APOLOGY, language_of(interaction.locale.value,
                                                   self.config.policy.language)),
                       ephemeral=True)
        except discord.HTTPException:
            log.exception("could not send the apology")

    async def match_choices(self, interaction: discord.Interaction[Any],
                            current: str) -> list[app_commands.Choice[int]]:
        """Autocomplete of match ids: the ladder's recent matches."""
        if interaction.guild_id is None:
            return []
        chat = chat_key(interaction.guild_id)
        wanted = getattr(interaction.namespace, "ladder", None)

        def work(repo: PlatformRepo) -> list[tuple[int, str]]:
            info = repo.ladder(chat, wanted)
            if info is None:
                return []
            found = repo.matches(info.id, limit=25)
            names = {p: i.name for p, i in repo.players(
                info.id, [p for m in found for p in m.result.players]).items()}
            return [(m.id, f"#{m.id} " + " vs ".join(names.get(p, "?") for p in
                                                     m.result.players) + f" ({m.status})")
                    for m in found]

        # An autocomplete cannot be deferred, and Discord takes no answer after 3 seconds:
        # a read beside the write queue, and no choices rather than a late answer.
        try:
            found = await asyncio.wait_for(self.store.run(work, commit=False),
                                           self.autocomplete_wait)
        except TimeoutError:
            log.info("the match list was not read in time: no choices offered")
            return []
        return [app_commands.Choice(name=cut(label, CHOICE_NAME), value=mid)
                for mid, label in found if current in str(mid)]


# The options that name players by mention, as text (the players of a free-for-all or a
# team game, a moderator's new result); a reason's mentions are only what someone typed.
PLAYER_OPTIONS = ("players", "team1", "team2", "result")


def named_players(interaction: discord.Interaction[Any]) -> frozenset[int]:
    """The users an interaction names as players: its user options, and the mentions in
    the options that list players."""
    ids = {u.id for u in _resolved_users(interaction)}
    data: dict[str, Any] = dict(interaction.data or {})
    stack: list[dict[str, Any]] = list(data.get("options", []))
    while stack:
        found = stack.pop()
        stack += found.get("options", [])
        if found.get("name") in PLAYER_OPTIONS and isinstance(found.get("value"), str):
            ids |= {int(m) for m in MENTION.findall(found["value"])}
    return frozenset(ids)


def _resolved_users(interaction: discord.Interaction[Any]) -> list[discord.abc.User]:
    """Users the interaction named in user options (text options resolve nothing)."""
    data: dict[str, Any] = dict(interaction.data or {})
    resolved: dict[str, Any] = data.get("resolved", {})
    users: list[discord.abc.User] = []
    for raw in resolved.get("users", {}).values():
        users.append(discord.User(state=interaction.client._connection, data=raw))
    return users
