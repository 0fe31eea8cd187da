"""One ladder across platforms: linked accounts, shares, codes.
A part of the repository's protocol (core.ports.repository.Repo)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from core.domain.model import Timestamp
from core.domain.records import (
    LadderInfo,
)


class SharingRepo(Protocol):
    """One ladder across platforms: linked accounts, shares, codes."""

    def lock_people(self, users: Sequence[str]) -> None:
        """Hold, to the end of the unit of work, what these accounts are on every ladder:
        a link and a join of one person read which players they have, then make one, and
        across processes each must see the other's (no-op where writers take turns)."""
        ...

    def linked(self, user: str) -> tuple[str, ...]:
        """The other accounts of the person `user` is (none if not linked)."""
        ...

    def link(self, person: str, other: str) -> None:
        """Make `other` an account of the person whose first account is `person`."""
        ...

    def unlink(self, user: str) -> None:
        """Separate every account of the person `user` is."""
        ...

    def played_by(self, user: str) -> list[int]:
        """The ladders where the account has a player (a member or not), by id."""
        ...

    def add_code(self, code: str, kind: str, subject: str, expires: Timestamp,
                 now: Timestamp) -> None:
        """Keep a new one-time code (and forget the ones that expired)."""
        ...

    def take_code(self, code: str, kind: str, now: Timestamp) -> str | None:
        """The subject of a code of `kind` that has not expired; it is used up either
        way (None: no such code now)."""
        ...

    def plays_shared(self, chat: str) -> bool:
        """Whether the chat plays a ladder with another chat (read without locking any)."""
        ...

    def views(self, ladder: int) -> list[LadderInfo]:
        """The ladder as each chat that plays it sees it: its home chat's first."""
        ...

    def share(self, ladder: int, chat: str, name: str) -> None:
        """Let `chat` play the ladder as `name` (its default if it has no ladder yet)."""
        ...

    def unshare(self, ladder: int, chat: str | None = None) -> list[str]:
        """Stop one chat (None: every other chat) playing the ladder; the chats that
        stopped."""
        ...
