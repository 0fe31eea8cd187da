"""A ladder's tournaments.
A part of the repository's protocol (core.ports.repository.Repo)."""

from __future__ import annotations

from typing import Protocol

from core.domain.tournament.record import Tournament


class TournamentRepo(Protocol):
    """A ladder's tournaments, each read and written whole (a few hundred games at most)."""

    def tournaments(self, ladder: int) -> list[Tournament]:
        """The ladder's tournaments, oldest first."""
        ...

    def save_tournament(self, tournament: Tournament) -> None:
        """Add or replace a tournament (by its ladder and id)."""
        ...
