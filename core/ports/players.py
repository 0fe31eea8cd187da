"""A ladder's players: found by their account, named, joined, left, banned.
A part of the repository's protocol (core.ports.repository.Repo)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from core.domain.model import PlayerId, Timestamp
from core.domain.records import (
    PlayerInfo,
    UserRef,
)


class PlayerRepo(Protocol):
    """A ladder's players: found by their account, named, joined, left, banned."""

    def player_for(self, ladder: int, user: str) -> PlayerInfo | None:
        """The ladder's player for a chat user, if they ever joined."""
        ...

    def players(self, ladder: int,
                ids: Sequence[PlayerId] | None = None) -> dict[PlayerId, PlayerInfo]:
        """Players by id (all of the ladder's when `ids` is None)."""
        ...

    def delete_ladder(self, ladder: int) -> None:
        """Delete a ladder with everything it holds (its export is kept first)."""
        ...

    def keep_export(self, chat: str, name: str, text: str, at: Timestamp) -> str:
        """Keep a ladder's export (JSON text, as of `at`) beside the database; where it
        went."""
        ...

    def add_player(self, ladder: int, user: UserRef) -> PlayerInfo:
        """Give a chat user a player id on the ladder (membership comes from events)."""
        ...

    def update_player(self, ladder: int, player: PlayerId, *, name: str | None = None,
                      available: bool | None = None, banned: bool | None = None,
                      removed: bool | None = None, user: str | None = None) -> None:
        """Rename a player, or change their availability, ban or removal mark, or whose
        they are (`user`, a claim of an imported player)."""
        ...

    def player_by_look(self, ladder: int, look: str) -> PlayerInfo | None:
        """The player whose name looks like this (core.domain.names.look; no two of a
        ladder's names look alike), if any."""
        ...

    def looks_taken(self, ladder: int, look: str, but: PlayerId | None = None) -> bool:
        """Whether a player of the ladder (other than `but`) has a name that looks like
        this (core.domain.names.look)."""
        ...
