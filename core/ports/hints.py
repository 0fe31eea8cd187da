"""Hints a repository may act on: which reads a command makes next.

They read nothing. A server's store sends the reads named together, in one round trip
(storage/postgres/store.py); the SQLite store and the in-memory twin have no round trips and
ignore them (`NoHints`). A read named and not made costs a read; one made and not
named, a round trip: never a different answer.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from core.domain.model import PlayerId, Timestamp
from core.domain.records import LadderInfo
from core.domain.settings import Settings


# ---- the reads a command may name, each as the repository method it stands for
@dataclass(frozen=True)
class PlayerStateRead:
    """`player_state(ladder, player)`."""

    ladder: int
    player: PlayerId


@dataclass(frozen=True)
class ChangesRead:
    """`changes(ladder, player, limit)`."""

    ladder: int
    player: PlayerId
    limit: int | None


@dataclass(frozen=True)
class RankRead:
    """`rank(ladder, table, player, at)`."""

    ladder: int
    table: str
    player: PlayerId
    at: Timestamp


@dataclass(frozen=True)
class StandingsRead:
    """`standings(ladder, table, at, limit)`; with the ladder's settings, which decide
    the table's statement (a hint reads nothing, not even them)."""

    ladder: int
    table: str
    at: Timestamp
    limit: int | None
    settings: Settings


@dataclass(frozen=True)
class PageNamesRead:
    """The names `players(ladder, ...)` of a table's page of `limit` rows, shown next
    (the players this process last saw on it)."""

    ladder: int
    table: str
    limit: int | None


@dataclass(frozen=True)
class TimelineRead:
    """`timeline(ladder)`."""

    ladder: int


@dataclass(frozen=True)
class AuditRead:
    """`audit(ladder, player, limit)`."""

    ladder: int
    player: PlayerId | None
    limit: int


@dataclass(frozen=True)
class OpenMatchesRead:
    """`open_matches(ladder)`."""

    ladder: int


@dataclass(frozen=True)
class UnfinishedChallengesRead:
    """`unfinished_challenges(ladder)`."""

    ladder: int


@dataclass(frozen=True)
class SamePlayersRead:
    """`same_players(ladder, players, since)`."""

    ladder: int
    players: Sequence[PlayerId]
    since: Timestamp


Ahead = (PlayerStateRead | ChangesRead | RankRead | StandingsRead | PageNamesRead
         | TimelineRead | AuditRead | OpenMatchesRead | UnfinishedChallengesRead
         | SamePlayersRead)


class ReadHints(Protocol):
    """What a command may say of the reads it makes next."""

    def expect_players(self, ladder: int, users: Sequence[str],
                       then: Callable[[list[PlayerId]], None] | None = None) -> None:
        """`player_for` of these users comes next, and `then` names the reads that
        follow once their players' ids are known (a server's store may call it with the
        ids it saw these users' players have)."""
        ...

    def expect(self, *reads: Ahead) -> None:
        """These reads come next, in order: `AuditRead(ladder, player, 5)`."""
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

    def expect(self, *reads: Ahead) -> None:
        pass

    def expect_ladder(self, chat: str, name: str | None,
                      then: Callable[[LadderInfo], None]) -> None:
        pass
