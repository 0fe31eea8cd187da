"""Discord roles that follow a ladder's standings: which roles a ladder gives, who should
hold each one now, and the checks of `/ladder set roles=... champion_role=...`.

Pure, like the rest of core: the Discord adapter reads the server, applies the
difference (bot/discord/roles.py) and records what it gave. A role is known by its key:
`league:NAME` (the league as the settings name it), `top:N`, `champion`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping

from core.domain.model import PlayerId
from core.domain.numerals import parse_int
from core.domain.records import Context, LadderInfo, RoleAccess, RoleConfig, RoleHolding
from core.domain.setting_keys import bad_value
from core.domain.setting_values import BadValue, parse_bool
from core.domain.settings import Settings
from core.domain.tables import league, league_name
from core.domain.tournament import progress
from core.i18n import N_, Message, listed, plural, render, t
from core.ports.repository import Repo
from core.service.queries.ladders import main_table, member_table
from core.service.queries.tournament import looked_up

# The keys `/ladder set` takes for roles, with what each means (for /help settings).
CHAMPIONS = ("season", "tournament")  # whose the champion's role can be
ROLE_KEYS: dict[str, str] = {"roles": N_("key.roles"), "champion_role": N_("key.champion_role")}
MAX_TOP = 100  # a role for more than the top hundred is no distinction
ROLE_NAME = 100  # characters of a Discord role's name (discord-api-docs: Create Guild Role)
SERVER_ROLES = 250  # roles a Discord server may have (error 30005)
# League colours from the lowest league up (then again); the calibration league is grey.
LEAGUE_COLOURS = (0xA84300, 0x979C9F, 0xF1C40F, 0x1ABC9C, 0x3498DB, 0x9B59B6, 0xE91E63)
CALIBRATION_COLOUR, TOP_COLOUR, CHAMPION_COLOUR = 0x95A5A6, 0x2ECC71, 0xE67E22


def split_roles(pairs: Iterable[tuple[str, str]]
                ) -> tuple[list[tuple[str, str]], dict[str, object]]:
    """Separate the role keys from other `key=value` pairs, parsed: `roles` to
    (leagues, top), `champion_role` to a bool."""
    rest: list[tuple[str, str]] = []
    found: dict[str, object] = {}
    for key, raw in pairs:
        if key == "roles":
            found[key] = _parse_kinds(raw)
        elif key == "champion_role":
            found[key] = _parse_champion(raw)
        else:
            rest.append((key, raw))
    return rest, found


def _parse_champion(raw: str) -> str:
    """`true` (or `season`), `tournament`, `false`: whose the champion's role is."""
    word = raw.strip().lower()
    if word in CHAMPIONS:
        return word
    try:
        return "season" if parse_bool(raw) else ""
    except BadValue:
        raise bad_value("champion_role", raw, t("value.champion_role")) from None


def champion_text(champion: str) -> str:
    """`champion_role=`'s value as it is shown: true (a season's), tournament, false."""
    return {"season": "true", "": "false"}.get(champion, champion)


def _parse_kinds(raw: str) -> tuple[bool, int | None]:
    """`leagues`, `top:10`, `leagues,top:10` or `none`."""
    leagues, top = False, None
    for part in (p.strip().lower() for p in raw.split(",")):
        if part in ("none", "off") and raw.strip().lower() == part:
            return False, None
        if part == "leagues":
            leagues = True
            continue
        head, _, count = part.partition(":")
        try:
            number = parse_int(count) if head == "top" else 0
        except ValueError:
            number = 0
        if not 1 <= number <= MAX_TOP:
            raise bad_value("roles", raw, t("value.roles", most=MAX_TOP))
        top = number
    return leagues, top


def configured(old: RoleConfig, changes: Mapping[str, object]) -> RoleConfig:
    """The role settings after `changes` (the role ids and problem are kept)."""
    new = old
    kinds = changes.get("roles")
    if isinstance(kinds, tuple):
        new = dataclasses.replace(new, leagues=bool(kinds[0]), top=kinds[1])
    if "champion_role" in changes:
        new = dataclasses.replace(new, champion=str(changes["champion_role"]))
    return new


def kinds_text(config: RoleConfig) -> str:
    """`leagues,top:10` (or `none`), as `roles=` takes it."""
    parts = (["leagues"] if config.leagues else []) + \
        ([f"top:{config.top}"] if config.top is not None else [])
    return ",".join(parts) or "none"


def role_keys(config: RoleConfig, settings: Settings) -> list[str]:
    """Every role the ladder gives, lowest first."""
    keys = []
    if config.leagues and settings.leagues:
        keys.append(f"league:{settings.calibration_league}")
        keys += [f"league:{name}" for _, name in settings.leagues]
    if config.top is not None:
        keys.append(f"top:{config.top}")
    if config.champion:
        keys.append("champion")
    return keys


def role_name(key: str, language: str) -> str:
    """A role's name on the server, in the ladder's language: `Fighter`, `Top 10`."""
    kind, _, value = key.partition(":")
    if kind == "league":
        name = render(league_name(value), language)
    elif kind == "top":
        name = render(t("role.top", n=int(value)), language)
    else:
        name = render(t("role.champion"), language)
    return name[:ROLE_NAME]


def role_colour(key: str, settings: Settings) -> int:
    """A role's colour: each league its own (grey while calibrating)."""
    kind, _, value = key.partition(":")
    if kind == "top":
        return TOP_COLOUR
    if kind == "champion":
        return CHAMPION_COLOUR
    names = [name for _, name in settings.leagues]
    if value not in names:
        return CALIBRATION_COLOUR
    return LEAGUE_COLOURS[names.index(value) % len(LEAGUE_COLOURS)]


def holders(repo: Repo, ladder: LadderInfo, config: RoleConfig, now: int
            ) -> dict[str, frozenset[str]]:
    """Who should hold which of the ladder's roles now, by Discord user key: every
    member their league, the first `top` of the main table, last season's winners."""
    settings = ladder.settings
    users = {p: info.user for p, info in repo.players(ladder.id).items()
             if info.member and info.user.startswith("discord:")}
    wanted: dict[str, set[str]] = {}
    if config.leagues and settings.leagues:
        rows, _ = repo.standings(ladder.id, member_table(settings), now)
        for row in rows:
            named = league(settings, row.value, row.rated_games)
            if row.player in users and named is not None:
                wanted.setdefault(users[row.player], set()).add(f"league:{named}")
    if config.top is not None:
        rows, _ = repo.standings(ladder.id, main_table(settings), now, config.top)
        for row in rows:
            if row.player in users:
                wanted.setdefault(users[row.player], set()).add(f"top:{config.top}")
    for player in champions(repo, ladder.id, config.champion):
        if player in users:
            wanted.setdefault(users[player], set()).add("champion")
    return {user: frozenset(keys) for user, keys in wanted.items()}


def champions(repo: Repo, ladder: int, whose: str) -> list[PlayerId]:
    """Who holds the champion's role: the winner of the last closed season, or of the
    tournament that finished last (as its results say now, corrections included)."""
    if whose == "season":
        hall = repo.hall_of_fame(ladder)
        last = hall[-1].season if hall else None
        return [e.player for e in hall if e.season == last and e.place == 1]
    if whose != "tournament":
        return []
    done = [x for x in repo.tournaments(ladder) if x.finished_at is not None]
    if not done:
        return []
    latest = max(done, key=lambda x: (x.finished_at or 0, x.id))
    winner = progress.champion(latest, looked_up(repo, ladder))
    return [] if winner is None else [winner]


def behind(wanted: Mapping[str, frozenset[str]], held: Mapping[str, RoleHolding]) -> list[str]:
    """The members whose roles do not yet match the standings, in a stable order."""
    return sorted(u for u in set(wanted) | set(held)
                  if wanted.get(u, frozenset()) != held.get(u, RoleHolding()).wanted
                  or (u not in wanted and held[u].granted))


def refusal(config: RoleConfig, settings: Settings, ctx: Context) -> Message | None:
    """Why these roles cannot be given here (None: they can): the platform, the
    ladder's rules, or the bot's permission and place among the server's roles."""
    if not config.any:
        return None
    if ctx.chat.startswith("telegram:"):
        return t("roles.telegram")
    if config.leagues and not settings.leagues:
        return t("roles.no_leagues")
    if config.champion == "season" and "season" not in settings.tables:
        return t("roles.no_seasons")
    access = ctx.roles
    if access is None:
        return t("roles.no_roles")
    return _access_refusal(access, config, settings)


def _access_refusal(access: RoleAccess, config: RoleConfig, settings: Settings
                    ) -> Message | None:
    if not access.manage:
        return t("roles.need_manage")
    positions = dict(access.positions)
    names = [role_name(key, settings.language) for key in role_keys(config, settings)]
    above = [name for name in names if positions.get(name, -1) >= access.top]
    if above:
        return t("roles.above_me", roles=listed(above))
    new = sum(1 for name in names if name not in positions)
    if access.count + new > SERVER_ROLES:
        return t("roles.too_many", count=access.count, new=new, most=SERVER_ROLES)
    return None


def status(repo: Repo, ladder: LadderInfo, now: int) -> Message:
    """`/ladder info`'s line on roles: which, and whether the members hold them yet."""
    config = repo.roles(ladder.id)
    if not config.any:
        return ""
    waiting = len(behind(holders(repo, ladder, config, now), repo.role_holdings(ladder.id)))
    kinds = " ".join(([kinds_text(config)] if config.leagues or config.top else []) +
                     ([f"champion_role={champion_text(config.champion)}"]
                      if config.champion else []))
    if config.problem is not None:
        state: Message = t("roles.stuck", problem=t(config.problem), waiting=waiting)
    elif waiting:
        state = t("roles.waiting", waiting=plural(waiting, "member"))
    else:
        state = t("roles.in_step")
    return t("roles.info", kinds=kinds, state=state)
