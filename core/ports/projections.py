"""Projections: the reads of tables, ranks and history that never replay.
A part of the repository's protocol (core.ports.repository.Repo)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from core.domain.model import PlayerId, Timestamp
from core.domain.records import (
    ChangeRecord,
)
from core.domain.standing import PlayerState
from core.domain.tables import HallEntry, TableRow


class ProjectionRepo(Protocol):
    """Projections: the reads of tables, ranks and history that never replay."""

    def player_state(self, ladder: int, player: PlayerId) -> PlayerState | None:
        """A player's standing as stored."""
        ...

    def hall_of_fame(self, ladder: int) -> list[HallEntry]:
        """Every Hall of Fame place, oldest season first."""
        ...

    def changes(self, ladder: int, player: PlayerId,
                limit: int | None = None) -> list[ChangeRecord]:
        """A player's stored rating/rung changes, oldest first (the newest `limit`)."""
        ...

    def match_changes(self, ladder: int, match_id: int) -> list[ChangeRecord]:
        """The changes a confirmed match made."""
        ...

    def week_sums(self, ladder: int, since: Timestamp, until: Timestamp
                  ) -> dict[PlayerId, tuple[float, int]]:
        """Gain and rated games of rated matches in (since, until], per player."""
        ...

    def standings(self, ladder: int, table: str, at: Timestamp,
                  limit: int | None = None) -> tuple[list[TableRow], int]:
        """Rows of a table in display order (the first `limit`), and how many it has."""
        ...

    def rank(self, ladder: int, table: str, player: PlayerId, at: Timestamp) -> int | None:
        """A player's competition rank in a table (1 + those strictly ahead, so equal
        ratings share a rank; the rung on a position ladder), or None when not listed."""
        ...

    def keep_day_ranks(self, ladder: int, table: str, at: Timestamp) -> None:
        """Remember the positions in `table` now (its top `DAY_RANKS`) as the day's start."""
        ...

    def day_ranks(self, ladder: int, players: Sequence[PlayerId]) -> dict[PlayerId, int]:
        """Positions kept at the start of the day (players then outside the top: absent)."""
        ...

    def timeline(self, ladder: int) -> list[tuple[Timestamp, str, str]]:
        """(instant, "decay" or "season", day or season) of the log's time-driven events."""
        ...

    def season_table(self, ladder: int, season: str) -> list[TableRow]:
        """The frozen table of a closed season."""
        ...
