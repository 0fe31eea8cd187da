"""Hints a repository may act on: which reads a command makes next.

They read nothing. A server's store sends the reads named together, in one round trip
(storage/postgres.py); the SQLite store and the in-memory twin have no round trips and
ignore them (`NoHints`). A read named and not made costs a read; one made and not
named, a round trip: never a different answer.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

from core.domain.model import PlayerId
from core.domain.records import LadderInfo


class ReadHints(Protocol):
    """What a command may say of the reads it makes next."""

    def expect_players(self, ladder: int, users: Sequence[str],
                       then: Callable[[list[PlayerId]], None] | None = None) -> None:
        """`player_for` of these users comes next, and `then` names the reads that
        follow once their players' ids are known (a server's store may call it with the
        ids it saw these users' players have)."""
        ...

    def expect(self, *reads: tuple[Any, ...]) -> None:
        """These reads come next, each named as the repository's method and its
        arguments, in order: `("audit", ladder, player, 5)`."""
        ...

    def expect_ladder(self, chat: str, name: str | None,
                      then: Callable[[LadderInfo], None]) -> None:
        """The chat's ladder `name` (None: its default) is looked up next, and `then`
        names the reads that follow once it is known (a server's store may call it with
        the ladder as this process last saw it, to send them all with the ladder's)."""
        ...


class NoHints:
    """A repository with nothing to read ahead."""

    def expect_players(self, ladder: int, users: Sequence[str],
                       then: Callable[[list[PlayerId]], None] | None = None) -> None:
        pass

    def expect(self, *reads: tuple[Any, ...]) -> None:
        pass

    def expect_ladder(self, chat: str, name: str | None,
                      then: Callable[[LadderInfo], None]) -> None:
        pass
