"""The dashboard's sessions (bot/web/dashboard.py).
A part of the repository's protocol for the adapters (core.ports.repository.PlatformRepo)."""

from __future__ import annotations

from typing import Protocol

from core.domain.model import Timestamp
from core.domain.web_session import WebSession


class WebSessionRepo(Protocol):
    """Signed-in visitors of the dashboard, and the chats where they moderate."""

    def save_session(self, session: WebSession, now: Timestamp) -> None:
        """Keep a new session (and let go of those ended by `now`)."""
        ...

    def web_session(self, token: str, now: Timestamp) -> WebSession | None:
        """The session of a token's hash, if it has not ended by `now`."""
        ...

    def end_session(self, token: str) -> None:
        """End a session (logging out)."""
        ...

    def note_moderator(self, user: str, chat: str, at: Timestamp) -> None:
        """Remember that the bot knew `user` as a moderator of `chat` (at `at`, the latest)."""
        ...

    def moderated_chats(self, user: str) -> list[str]:
        """The chats where the bot has known `user` as a moderator."""
        ...
