"""The stand-in's one server: its roles and members as the bot's role routes see them, with
Discord's role permissions and positions."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tests.support.discord_payloads import APP, GUILD, snowflake

MANAGE_ROLES, ADMINISTRATOR = 1 << 28, 1 << 3


@dataclass
class Guild:
    """The one server's roles and members, as far as the bot's role routes see them. The
    bot holds the role `Ladderbot` (position 10, Manage Roles); members are there unless
    they `left`."""

    roles: dict[str, dict[str, Any]] = field(default_factory=dict)
    members: dict[str, set[str]] = field(default_factory=dict)  # user id -> role ids
    left: set[str] = field(default_factory=set)
    bot_role: str = ""
    owner: str = "1"  # the server's owner, who holds every permission whatever their roles

    def __post_init__(self) -> None:
        self.roles[str(GUILD)] = _role(str(GUILD), "@everyone", 0, 0)
        self.bot_role = self.add_role("Ladderbot", 0, position=10,
                                      permissions=MANAGE_ROLES)["id"]
        self.members[str(APP)] = {self.bot_role}

    def add_role(self, name: str, colour: int, position: int = 1,
                 permissions: int = 0) -> dict[str, Any]:
        """A role at `position`, the others at or above it moved up one (as Discord
        places a new role just above @everyone)."""
        for role in self.roles.values():
            if role["position"] >= position and role["id"] != str(GUILD):
                role["position"] += 1
        made = _role(snowflake(), name, position, permissions, colour)
        self.roles[made["id"]] = made
        return made

    def payload(self) -> dict[str, Any]:
        """The server as `GET /guilds/{id}` gives it (the fields the bot reads, and those
        every server has)."""
        return {"id": str(GUILD), "name": "Ladders", "owner_id": self.owner, "icon": None,
                "roles": list(self.roles.values()), "features": [], "emojis": [],
                "verification_level": 0, "default_message_notifications": 0,
                "explicit_content_filter": 0, "mfa_level": 0, "premium_tier": 0,
                "preferred_locale": "en-US", "nsfw_level": 0}

    def top(self) -> int:
        """The position of the bot's highest role."""
        return max(int(self.roles[r]["position"]) for r in self.members[str(APP)])

    def may_manage(self) -> bool:
        allowed = int(self.roles[str(GUILD)]["permissions"])
        for r in self.members[str(APP)]:
            allowed |= int(self.roles[r]["permissions"])
        return bool(allowed & (MANAGE_ROLES | ADMINISTRATOR))

    def named(self, name: str) -> list[str]:
        """The ids of the roles of this name."""
        return [r["id"] for r in self.roles.values() if r["name"] == name]

    def holders(self, name: str) -> set[str]:
        """The user ids holding a role of this name."""
        ids = set(self.named(name))
        return {u for u, held in self.members.items() if held & ids}


def _role(rid: str, name: str, position: int, permissions: int,
          colour: int = 0) -> dict[str, Any]:
    return {"id": rid, "name": name, "color": colour, "hoist": False, "icon": None,
            "unicode_emoji": None, "position": position, "permissions": str(permissions),
            "managed": False, "mentionable": False, "flags": 0}
