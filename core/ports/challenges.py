"""Challenges between players.
A part of the repository's protocol (core.ports.repository.Repo)."""

from __future__ import annotations

from typing import Protocol

from core.domain.records import (
    ChallengeRecord,
)


class ChallengeRepo(Protocol):
    """Challenges between players."""

    def new_challenge_id(self, ladder: int) -> int:
        """The next challenge number of the ladder."""
        ...

    def save_challenge(self, record: ChallengeRecord) -> None:
        """Insert or replace a challenge."""
        ...

    def unfinished_challenges(self, ladder: int) -> list[ChallengeRecord]:
        """Open and accepted challenges, oldest first."""
        ...
