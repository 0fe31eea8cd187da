"""What follows the standings on the platforms: roles, live messages.
A part of the repository's protocol (core.ports.repository.Repo)."""

from __future__ import annotations

from typing import Protocol

from core.domain.records import (
    LadderInfo,
    PinRecord,
    RoleConfig,
    RoleHolding,
)


class FollowingRepo(Protocol):
    """What follows the standings on the platforms: roles, live messages."""

    def roles(self, ladder: int) -> RoleConfig:
        """The Discord roles the ladder gives (none where it was never set)."""
        ...

    def save_roles(self, ladder: int, config: RoleConfig) -> None:
        """Replace the ladder's role settings, ids and problem."""
        ...

    def role_holdings(self, ladder: int) -> dict[str, RoleHolding]:
        """What the bot last applied to each member for this ladder, by user key."""
        ...

    def save_holding(self, ladder: int, user: str, holding: RoleHolding | None) -> None:
        """Record what was applied to one member (None: nothing is held any more)."""
        ...

    def granted_elsewhere(self, ladder: int, user: str) -> frozenset[str]:
        """The role ids the chat's other ladders gave this user (kept when this one
        takes its own away)."""
        ...

    def pin(self, ladder: int) -> PinRecord | None:
        """The ladder's live standings message, if it has one."""
        ...

    def save_pin(self, ladder: int, pin: PinRecord | None) -> None:
        """Replace the ladder's live standings message (None: it has none)."""
        ...

    def followed(self) -> list[LadderInfo]:
        """The ladders with roles to keep or a live message (or roles still to take
        back after roles were turned off)."""
        ...
