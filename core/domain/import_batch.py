"""An import's record: the matches and players one `ladderbot import` put into a ladder,
so that a moderator can undo them at once (`/mod undo-import`)."""

from __future__ import annotations

from dataclasses import dataclass

from core.domain.model import PlayerId, Timestamp
from core.i18n import Number, Text, t

UNCLAIMED = "unclaimed:"  # a user key's prefix: a player imported by name, nobody's yet


@dataclass(frozen=True, slots=True)
class ImportBatch:
    """One import into a ladder: its number there, when and by whom, its matches (the
    numbers `first` to `last`: an import is one transaction, so they follow each other;
    none when `last < first`) and the players it made."""

    ladder: int
    id: int
    at: Timestamp
    by: str
    first: int
    last: int
    players: tuple[PlayerId, ...] = ()
    undone_at: Timestamp | None = None

    @property
    def matches(self) -> int:
        """How many matches it brought."""
        return max(0, self.last - self.first + 1)

    def named(self) -> Text:
        """`import 2 (120 matches)`, as the audit log names it."""
        return t("import.audit", id=self.id, matches=Number(self.matches), count=self.matches)
