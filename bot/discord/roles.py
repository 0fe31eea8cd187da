"""Discord roles that follow the standings: each step gives and takes the roles whose
holders the standings changed, paced within Discord's rate limits, and records each
member as it goes, so a restart finishes a large update once.

Which roles a member should hold comes from the core
(`core.service.handlers.roles.holders`). What the bot gave is recorded per member and
ladder before it asks Discord (a crash between the two re-asks, which changes nothing);
it takes away only roles it gave, and not while another ladder of the server gave the
same role. Every request waits for a token of the server's `Pace`, kept below the limits
Discord reports (discord.py also honours its rate-limit headers and 429s, as a second
guard).
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import discord

from core.domain.records import LadderInfo, RoleAccess, RoleConfig, RoleHolding
from core.i18n import N_
from core.ports.repository import PlatformRepo, PlatformStore
from core.service.handlers.roles import SERVER_ROLES, behind, holders, role_colour, role_name

log = logging.getLogger(__name__)

MANAGE_ROLES, ADMINISTRATOR = 1 << 28, 1 << 3  # permission bits (discord-api-docs)
MANAGE_GUILD = 1 << 5
UNKNOWN_MEMBER, UNKNOWN_ROLE, TOO_MANY_ROLES = 10007, 10011, 30005  # JSON error codes
RETRY = 60.0  # seconds before a server that refused is tried again
REASON = "Ladderbot: roles that follow the ladder's standings"


class Refused(Exception):
    """Discord refused a role change for a reason a moderator must fix (a catalog code)."""

    def __init__(self, problem: str) -> None:
        super().__init__(problem)
        self.problem = problem


class RoleGone(Exception):
    """A role the bot manages was deleted from the server."""


@dataclass
class Pace:
    """A token bucket per server: `burst` requests at once, then `rate` a second. A
    server first seen starts empty: a process just started cannot know what the one
    before it spent."""

    clock: Callable[[], float]
    burst: float = 8.0
    rate: float = 0.8
    tokens: dict[int, tuple[float, float]] = dataclasses.field(default_factory=dict)

    def _level(self, server: int) -> float:
        level, at = self.tokens.setdefault(server, (0.0, self.clock()))
        return min(self.burst, level + (self.clock() - at) * self.rate)

    def take(self, server: int, count: int = 1) -> bool:
        """Spend `count` tokens if the bucket holds them."""
        level = self._level(server)
        if level < count:
            return False
        self.tokens[server] = (level - count, self.clock())
        return True

    def ready_at(self, server: int, count: int) -> float:
        """When `count` tokens will be there."""
        return self.clock() + max(0.0, count - self._level(server)) / self.rate


@dataclass(frozen=True)
class Server:
    """A server's roles as the bot sees them: by id, name and position, and its own."""

    roles: tuple[tuple[str, str, int, bool, int], ...]  # id, name, position, managed,
    manage: bool  # permissions
    top: int
    everyone: int = 0  # what @everyone may do

    def access(self) -> RoleAccess:
        """What `/ladder set roles=` checks."""
        positions: dict[str, int] = {}
        for _, name, position, _, _ in self.roles:
            positions[name] = max(position, positions.get(name, -1))
        return RoleAccess(self.manage, self.top, tuple(positions.items()), len(self.roles))

    def usable(self, name: str) -> str | None:
        """The id of a role of this name the bot may give (below its own, not an
        integration's, granting nothing @everyone may not do), if the server has one."""
        return next((rid for rid, n, position, managed, allowed in self.roles
                     if n == name and position < self.top and not managed
                     and not allowed & ~self.everyone), None)

    def refusal(self, name: str) -> str | None:
        """Why a role of this name the server has is not one to give (a catalog code)."""
        same = [(position, allowed) for _, n, position, _, allowed in self.roles if n == name]
        if any(position >= self.top for position, _ in same):
            return N_("roles.problem.hierarchy")
        if any(allowed & ~self.everyone for _, allowed in same):
            # (a server's own "Top 3" with Administrator went to the top three players)
            return N_("roles.problem.powerful")
        return None


class DiscordRoles:
    """Discord's role routes, through discord.py's HTTP client."""

    def __init__(self, client: discord.Client) -> None:
        self.client = client

    async def server(self, guild: int) -> Server:
        """The server's roles, and whether and how high the bot may manage them."""
        http = self.client.http
        roles = await http.get_roles(guild)
        assert self.client.user is not None, "logged in"
        me = await http.get_member(guild, self.client.user.id)
        mine = set(me.get("roles", [])) | {str(guild)}  # @everyone's id is the server's
        allowed = 0
        top = 0
        for role in roles:
            if role["id"] in mine:
                allowed |= int(role["permissions"])
                if role["id"] != str(guild):
                    top = max(top, int(role["position"]))
        everyone = next((int(r["permissions"]) for r in roles if r["id"] == str(guild)), 0)
        return Server(tuple((str(r["id"]), r["name"], int(r["position"]),
                             bool(r.get("managed")), int(r["permissions"])) for r in roles),
                      bool(allowed & (MANAGE_ROLES | ADMINISTRATOR)), top, everyone)

    async def create_role(self, guild: int, name: str, colour: int) -> str:
        """A new role (placed just above @everyone, so below the bot's own), granting
        nothing: it shows a place in the standings."""
        try:
            made = await self.client.http.create_role(guild, reason=REASON, name=name,
                                                      color=colour, permissions="0")
        except discord.HTTPException as error:
            raise await self._refused(guild, error) from error
        return str(made["id"])

    async def member_roles(self, guild: int, user: int) -> frozenset[str] | None:
        """A member's role ids (None: they are not in the server)."""
        try:
            found = await self.client.http.get_member(guild, user)
        except discord.NotFound as error:
            if error.code == UNKNOWN_MEMBER:
                return None
            raise
        return frozenset(str(r) for r in found.get("roles", []))

    async def moderates(self, guild: int, user: int, role: str
                        ) -> tuple[bool, frozenset[str]] | None:
        """Whether a member moderates the server as their command there would (Manage
        Server or Administrator by their roles, or the configured role `role`), and
        their role ids, for a ladder's own moderators' role (None: not a member)."""
        held = await self.member_roles(guild, user)
        if held is None:
            return None
        allowed = 0
        for found in await self.client.http.get_roles(guild):
            if str(found["id"]) in held or str(found["id"]) == str(guild):  # (@everyone)
                allowed |= int(found["permissions"])
        if allowed & (MANAGE_GUILD | ADMINISTRATOR) or role in held:
            return True, held
        # The owner holds every permission whatever their roles, as in a command there.
        return await self._owner(guild) == user, held

    async def _owner(self, guild: int) -> int:
        """The server's owner: the gateway's copy of the server, else Discord's."""
        known = self.client.get_guild(guild)
        if known is not None:
            return known.owner_id or 0
        return int((await self.client.http.get_guild(guild, with_counts=False))["owner_id"])

    async def change(self, guild: int, user: int, role: str, give: bool) -> bool:
        """Give or take one role (False: the member left the server)."""
        http = self.client.http
        try:
            if give:
                await http.add_role(guild, user, role, reason=REASON)
            else:
                await http.remove_role(guild, user, role, reason=REASON)
        except discord.NotFound as error:
            if error.code == UNKNOWN_ROLE:
                raise RoleGone(role) from error
            if error.code == UNKNOWN_MEMBER:
                return False
            raise
        except discord.HTTPException as error:
            raise await self._refused(guild, error) from error
        return True

    async def _refused(self, guild: int, error: discord.HTTPException) -> Exception:
        """What a refusal means: a missing permission, a role above the bot's, too many."""
        if error.code == TOO_MANY_ROLES:
            return Refused(N_("roles.problem.too_many"))
        if isinstance(error, discord.Forbidden):
            server = await self.server(guild)
            return Refused(N_("roles.problem.hierarchy") if server.manage
                           else N_("roles.problem.permission"))
        return error


@dataclass
class _Work:
    """One ladder's pass: what the standings want, what is held, the role ids."""

    ladder: LadderInfo
    config: RoleConfig
    wanted: dict[str, frozenset[str]]
    held: dict[str, RoleHolding]

    @property
    def guild(self) -> int:
        return int(self.ladder.chat.split(":", 1)[1])


class RoleSync:
    """Keeps the members' roles in step with the standings, a paced step at a time."""

    def __init__(self, store: PlatformStore, api: DiscordRoles, clock: Callable[[], float],
                 pace: Pace | None = None) -> None:
        self.store, self.api, self.clock = store, api, clock
        self.pace = pace or Pace(clock)
        self.held_off: dict[int, float] = {}  # ladder -> when a refusal is tried again

    async def step(self, only: set[int] | None = None) -> float | None:
        """Apply what the pace allows now on every Discord ladder with roles (or roles
        to take back); when next to run (None: all in step)."""
        now = self.clock()
        waiting = {lad for lad, until in self.held_off.items() if now < until}

        def read(repo: PlatformRepo) -> list[_Work]:
            found = []
            for ladder in repo.followed():
                if not ladder.chat.startswith("discord:") or (only and ladder.id not in only) \
                        or ladder.id in waiting:  # (refused a moment ago: not read again)
                    continue
                config = repo.roles(ladder.id)
                wanted = holders(repo, ladder, config, int(self.clock())) if config.any else {}
                found.append(_Work(ladder, config, wanted, repo.role_holdings(ladder.id)))
            return found

        wakes: list[float | None] = [self.held_off[lad] for lad in waiting]
        for work in await self.store.run(read, commit=False):
            try:
                wakes.append(await self._ladder(work))
            except Refused as refused:
                wakes.append(await self._stuck(work, refused.problem))
            except discord.HTTPException as error:
                log.warning("roles of %s: Discord failed (%s); tried again", work.ladder.name,
                            error)
                wakes.append(await self._stuck(work, N_("roles.problem.failed")))
        return min((w for w in wakes if w is not None), default=None)

    async def _ladder(self, work: _Work) -> float | None:
        todo = behind(work.wanted, work.held)
        if not todo:
            await self._settled(work)
            return None
        ids = await self._ids(work, {k for u in todo for k in work.wanted.get(u, ())})
        if isinstance(ids, float):
            return ids
        for user in todo:
            # At most: read the member, give each wanted role, take each given one (never
            # more than the bucket holds, or a member with many roles would wait forever).
            cost = min(1 + len(work.wanted.get(user, ())) +
                       len(work.held.get(user, RoleHolding()).granted), int(self.pace.burst))
            if not self.pace.take(work.guild, cost):
                return self.pace.ready_at(work.guild, cost)
            try:
                await self._member(work, ids, user)
            except RoleGone as gone:  # deleted by hand: made again on the next pass
                await self._forget_role(work, str(gone))
                return self.clock()
        await self._settled(work)
        return None

    async def _ids(self, work: _Work, keys: set[str]) -> dict[str, str] | float:
        """The role id of each key, adopting a role of the same name the server has or
        making one (recorded at once: a restart never makes it twice)."""
        ids = dict(work.config.ids)
        missing = sorted(keys - set(ids))
        if not missing:
            return ids
        if not self.pace.take(work.guild, 2 + len(missing)):
            return self.pace.ready_at(work.guild, 2 + len(missing))
        server = await self.api.server(work.guild)
        if not server.manage:
            raise Refused(N_("roles.problem.permission"))
        language = work.ladder.settings.language
        for key in missing:
            name = role_name(key, language)
            found = server.usable(name)
            problem = server.refusal(name) if found is None else None
            if problem is not None:
                raise Refused(problem)
            if found is None and len(server.roles) + 1 > SERVER_ROLES:
                raise Refused(N_("roles.problem.too_many"))
            ids[key] = found or await self.api.create_role(
                work.guild, name, role_colour(key, work.ladder.settings))
            await self._save_config(work, ids=tuple(sorted(ids.items())))
        return ids

    async def _member(self, work: _Work, ids: dict[str, str], user: str) -> None:
        """Bring one member's roles in step, and record it."""
        uid = int(user.split(":", 1)[1])
        keys = work.wanted.get(user, frozenset())
        held = work.held.get(user, RoleHolding())
        now_holds = await self.api.member_roles(work.guild, uid)
        if now_holds is None:  # not in the server: nothing to give or take
            await self._record(work, user, RoleHolding(keys, frozenset()))
            return
        want = {ids[k] for k in keys}
        give = want - now_holds
        others = await self.store.run(lambda repo: repo.granted_elsewhere(work.ladder.id, user),
                                      commit=False)
        take = ((held.granted - want) & now_holds) - others
        # Recorded first: a crash after Discord gave the role leaves it ours.
        await self._record(work, user, RoleHolding(held.wanted, held.granted | give))
        for role in sorted(give):
            if not await self.api.change(work.guild, uid, role, True):
                break
        for role in sorted(take):
            if not await self.api.change(work.guild, uid, role, False):
                break
        await self._record(work, user, RoleHolding(keys, (held.granted & want) | give))

    async def _record(self, work: _Work, user: str, holding: RoleHolding) -> None:
        work.held[user] = holding
        await self.store.run(lambda repo: repo.save_holding(work.ladder.id, user, holding))

    async def _save_config(self, work: _Work, **changes: Any) -> None:
        def save(repo: PlatformRepo) -> RoleConfig:
            config = dataclasses.replace(repo.roles(work.ladder.id), **changes)
            repo.save_roles(work.ladder.id, config)
            return config

        work.config = await self.store.run(save)

    async def _forget_role(self, work: _Work, role: str) -> None:
        await self._save_config(work, ids=tuple((k, v) for k, v in work.config.ids
                                                if v != role))

    async def _settled(self, work: _Work) -> None:
        """All in step: a problem met before is over."""
        self.held_off.pop(work.ladder.id, None)
        if work.config.problem is not None:
            log.info("roles of %s in %s are in step again", work.ladder.name, work.ladder.chat)
            await self._save_config(work, problem=None, since=None)

    async def _stuck(self, work: _Work, problem: str) -> float:
        """Note a refusal (logged once, shown by /ladder info) and try again later."""
        if work.config.problem != problem:
            log.warning("roles of %s in %s stopped: %s", work.ladder.name, work.ladder.chat,
                        problem)
            await self._save_config(work, problem=problem, since=int(self.clock()))
        self.held_off[work.ladder.id] = self.clock() + RETRY
        return self.held_off[work.ladder.id]
