"""Turning what the fold did into stored rows, the same way for every store."""

from __future__ import annotations

from collections.abc import Iterator

from core.domain.events import Event, MatchConfirmed
from core.domain.records import ChangeRecord
from core.domain.standing import Applied


def change_rows(seq: int, event: Event, applied: Applied) -> Iterator[ChangeRecord]:
    """The change records of one folded event."""
    if not applied.changes:
        return
    match = applied.match.match_id if applied.match is not None else None
    if match is None and isinstance(event, MatchConfirmed):
        match = event.match.id
    rated = applied.match.rated if applied.match is not None else False
    for change in applied.changes:
        yield ChangeRecord(seq, event.at, change.player, change.before, change.after,
                           applied.kind, match, rated, change.rd)
