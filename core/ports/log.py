"""The event log and the standings folded from it.
A part of the repository's protocol (core.ports.repository.Repo)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from core.domain.batch import Observer, Row
from core.domain.events import Event
from core.domain.ledger import Rederived
from core.domain.model import PlayerId, Timestamp
from core.domain.settings import Settings
from core.domain.standing import Applied
from core.domain.state import LadderState


class LogRepo(Protocol):
    """The event log and the standings folded from it."""

    def state(self, ladder: int) -> LadderState:
        """Current standings. Callers must not change them."""
        ...

    def append(self, ladder: int, events: Sequence[Event]) -> list[Applied | Rederived]:
        """Append events to the log, fold them in and update every projection."""
        ...

    def append_duels(self, ladder: int, duels: Sequence[Row], reporters: Sequence[PlayerId],
                     observe: Observer | None = None) -> None:
        """Append plain one-on-one matches (`core.domain.batch.Row`s, numbered by the
        caller), each reported by its reporter and confirmed at its instant: what
        `append` of each one's MatchConfirmed and `save_match` of its confirmed record
        store, at once (an import's long runs; no correction names them yet).
        `observe` sees each one's result with the standings just before it."""
        ...

    def events(self, ladder: int, until: Timestamp | None = None) -> list[Event]:
        """The ladder's log in order (up to an instant, if given)."""
        ...

    def base_settings(self, ladder: int) -> Settings:
        """The settings the ladder was created with (a replay starts from them)."""
        ...
