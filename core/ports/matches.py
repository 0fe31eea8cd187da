"""Reports and what became of them.
A part of the repository's protocol (core.ports.repository.Repo)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from core.domain.model import PlayerId, Timestamp
from core.domain.records import (
    MatchRecord,
)


class MatchRepo(Protocol):
    """Reports and what became of them."""

    def new_match_id(self, ladder: int) -> int:
        """The next match number of the ladder."""
        ...

    def save_match(self, record: MatchRecord) -> None:
        """Insert or replace a match record."""
        ...

    def void_matches(self, ladder: int, first: int, last: int, at: Timestamp) -> None:
        """Mark the matches numbered `first` to `last` voided at `at`, unrated (an import
        undone; their log's correction is the caller's)."""
        ...

    def match(self, ladder: int, match_id: int) -> MatchRecord | None:
        """One match."""
        ...

    def open_matches(self, ladder: int) -> list[MatchRecord]:
        """Pending and disputed matches, oldest first."""
        ...

    def same_players(self, ladder: int, players: Sequence[PlayerId],
                     since: Timestamp) -> list[MatchRecord]:
        """Matches of exactly these players that are open or were reported since `since`,
        oldest first."""
        ...

    def matches(self, ladder: int, player: PlayerId | None = None,
                limit: int | None = None) -> list[MatchRecord]:
        """Matches newest first (of one player, if given); all when `limit` is None."""
        ...
