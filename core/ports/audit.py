"""The moderators' audit log.
A part of the repository's protocol (core.ports.repository.Repo)."""

from __future__ import annotations

from typing import Protocol

from core.domain.model import PlayerId
from core.domain.records import (
    AuditEntry,
)


class AuditRepo(Protocol):
    """The moderators' audit log."""

    def add_audit(self, entry: AuditEntry) -> None:
        """Keep a moderator action."""
        ...

    def audit(self, ladder: int, player: PlayerId | None = None,
              limit: int = 20) -> list[AuditEntry]:
        """Moderator actions newest first (about one player, if given)."""
        ...
