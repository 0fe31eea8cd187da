"""The in-memory twin's part for what follows the standings: the roles a ladder gives,
what each member was given, and the live standings message (as storage/sql/following.py)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from core.domain.records import LadderInfo, PinRecord, RoleConfig, RoleHolding


@dataclass
class FollowingData:
    """The twin's tables: role settings, holdings by (ladder, user), pins."""

    roles: dict[int, RoleConfig] = field(default_factory=dict)
    holdings: dict[tuple[int, str], RoleHolding] = field(default_factory=dict)
    pins: dict[int, PinRecord] = field(default_factory=dict)

    def forget(self, ladder: int) -> None:
        """A deleted ladder's rows."""
        self.roles.pop(ladder, None)
        self.pins.pop(ladder, None)
        for key in [k for k in self.holdings if k[0] == ladder]:
            del self.holdings[key]


class MemoryFollowing:
    """The Repo methods over `FollowingData` (the repository supplies `following` and
    its ladders)."""

    @property
    def following(self) -> FollowingData:
        """The twin's tables of these (the repository holds them)."""
        raise NotImplementedError
    every_ladder: Callable[[], list[LadderInfo]]

    def roles(self, ladder: int) -> RoleConfig:
        return self.following.roles.get(ladder, RoleConfig())

    def save_roles(self, ladder: int, config: RoleConfig) -> None:
        if config.any or config.ids or config.problem:
            self.following.roles[ladder] = config
        else:
            self.following.roles.pop(ladder, None)

    def role_holdings(self, ladder: int) -> dict[str, RoleHolding]:
        return {user: h for (lad, user), h in self.following.holdings.items() if lad == ladder}

    def save_holding(self, ladder: int, user: str, holding: RoleHolding | None) -> None:
        if holding is None or not (holding.wanted or holding.granted):
            self.following.holdings.pop((ladder, user), None)
        else:
            self.following.holdings[(ladder, user)] = holding

    def granted_elsewhere(self, ladder: int, user: str) -> frozenset[str]:
        chats = {lad.id: lad.chat for lad in self.every_ladder()}
        return frozenset(role for (lad, who), h in self.following.holdings.items()
                         if who == user and lad != ladder and chats.get(lad) == chats[ladder]
                         for role in h.granted)

    def pin(self, ladder: int) -> PinRecord | None:
        return self.following.pins.get(ladder)

    def save_pin(self, ladder: int, pin: PinRecord | None) -> None:
        if pin is None:
            self.following.pins.pop(ladder, None)
        else:
            self.following.pins[ladder] = pin

    def followed(self) -> list[LadderInfo]:
        ids = set(self.following.roles) | set(self.following.pins) | \
            {lad for lad, _ in self.following.holdings}
        return [lad for lad in self.every_ladder() if lad.id in ids]
