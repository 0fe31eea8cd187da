"""The `imports` table: one row an import, its players as a JSON list
(core.ports.imports)."""

from __future__ import annotations

import json
from typing import Any

from core.domain.import_batch import ImportBatch
from storage.sql.codec import dumps


class ImportTables:
    """The repository's imports (SqlRepo supplies `conn`)."""

    conn: Any

    def imports(self, ladder: int) -> list[ImportBatch]:
        rows = self.conn.execute("SELECT id, at, by_name, first, last, players, undone_at "
                                 "FROM imports WHERE ladder=? ORDER BY id", (ladder,)).fetchall()
        return [ImportBatch(ladder, i, at, by, first, last, tuple(json.loads(players)), undone)
                for i, at, by, first, last, players, undone in rows]

    def save_import(self, batch: ImportBatch) -> None:
        self.conn.execute(
            "INSERT INTO imports (ladder, id, at, by_name, first, last, players, undone_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (ladder, id) DO UPDATE SET "
            "undone_at=excluded.undone_at",
            (batch.ladder, batch.id, batch.at, batch.by, batch.first, batch.last,
             dumps(list(batch.players)), batch.undone_at))
