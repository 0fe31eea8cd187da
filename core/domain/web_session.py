"""A signed-in visitor of the dashboard (issue 55): kept as a row the server holds, so
that logging out, or the session's end, ends it for every copy of its cookie."""

from __future__ import annotations

from dataclasses import dataclass

from core.domain.model import Timestamp


@dataclass(frozen=True, slots=True)
class WebSession:
    """Who is signed in: `token` is the SHA-256 of the cookie's random value (the cookie
    itself is never stored), `csrf` the value every form of the session carries."""

    token: str
    user: str  # the user key: telegram:ID, discord:ID
    name: str
    csrf: str
    created: Timestamp
    expires: Timestamp
