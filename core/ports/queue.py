"""The ladder's queue.
A part of the repository's protocol (core.ports.repository.Repo)."""

from __future__ import annotations

from typing import Protocol

from core.domain.records import (
    QueueState,
)


class QueueRepo(Protocol):
    """The ladder's queue."""

    def queue(self, ladder: int) -> QueueState:
        """The ladder's queue as it stands (empty where it never had one)."""
        ...

    def save_queue(self, ladder: int, state: QueueState) -> None:
        """Replace the ladder's queue."""
        ...
