"""A ladder's imports, each kept so that it can be undone at once.
A part of the repository's protocol (core.ports.repository.Repo)."""

from __future__ import annotations

from typing import Protocol

from core.domain.import_batch import ImportBatch


class ImportRepo(Protocol):
    """A ladder's imports (a few rows: one a `ladderbot import`)."""

    def imports(self, ladder: int) -> list[ImportBatch]:
        """The ladder's imports, oldest first."""
        ...

    def save_import(self, batch: ImportBatch) -> None:
        """Add or replace an import (by its ladder and id)."""
        ...
