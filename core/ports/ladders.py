"""A chat's ladders: found, made, renamed, configured, deleted.
A part of the repository's protocol (core.ports.repository.Repo)."""

from __future__ import annotations

from typing import Protocol

from core.domain.model import Timestamp
from core.domain.records import (
    LadderInfo,
)
from core.domain.settings import Settings


class LadderRepo(Protocol):
    """A chat's ladders: found, made, renamed, configured, deleted."""

    def every_ladder(self) -> list[LadderInfo]:
        """Every ladder, as its home chat sees it, for the scheduler."""
        ...

    def ladders(self, chat: str) -> list[LadderInfo]:
        """The chat's ladders, oldest first, then those other chats share with it."""
        ...

    def ladder(self, chat: str, name: str | None) -> LadderInfo | None:
        """A ladder of the chat (its own or one shared with it, as the chat sees it) by
        name, or the chat's default when `name` is None."""
        ...

    def add_ladder(self, chat: str, name: str, settings: Settings, at: Timestamp,
                   channel: str | None) -> LadderInfo:
        """Create a ladder (the chat's default if it is the first)."""
        ...

    def update_ladder(self, ladder: int, *, clock: Timestamp | None = None,
                      is_default: bool | None = None, channel: str | None = None,
                      public: bool | None = None, next_due: Timestamp | None = None,
                      mod_role: str | None = None, name: str | None = None,
                      chat: str | None = None) -> None:
        """Change a ladder's properties (`next_due=0`, `mod_role=""` clear); the ones each
        chat has of its own (default, channel, name, moderators' role) as `chat` sees it,
        when given."""
        ...

    def due_ladders(self, now: Timestamp) -> list[LadderInfo]:
        """Ladders with a job due at or before `now`."""
        ...
