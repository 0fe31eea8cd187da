"""Redelivered messages: the answer a message got, kept to answer it again.
A part of the repository's protocol (core.ports.repository.Repo)."""

from __future__ import annotations

from typing import Protocol

from core.domain.model import Timestamp


class DeliveryRepo(Protocol):
    """Redelivered messages: the answer a message got, kept to answer it again."""

    def seen(self, chat: str, message_id: str) -> str | None:
        """The reply given to a message id already handled, if any."""
        ...

    def remember(self, chat: str, message_id: str, reply: str, at: Timestamp) -> None:
        """Keep the reply to a message id."""
        ...
