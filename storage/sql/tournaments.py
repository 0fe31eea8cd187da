"""The `tournaments` table: one row a tournament, its record as compact JSON, read and
written whole (core.ports.tournaments)."""

from __future__ import annotations

import json
from typing import Any

from core.domain.tournament.model import Format, Outcome
from core.domain.tournament.record import Pairing, Status, Tournament
from storage.sql.codec import dumps


def tournament_to_json(t: Tournament) -> str:
    """A tournament's record but its keys and name (columns of their own)."""
    return dumps({"f": t.format.value, "t": t.created_at, "r": t.rounds, "rated": int(t.rated),
                  "b": t.bestof, "h": t.round_hours, "reset": int(t.reset),
                  "s": t.status.value, "p": list(t.players), "n": t.round, "d": t.deadline,
                  "rem": int(t.reminded), "why": t.reason, "fin": t.finished_at,
                  "g": [[p.round, p.number, p.a, p.b, p.match,
                         p.forfeit.value if p.forfeit else None, list(p.ready)]
                        for p in t.pairings]})


def tournament_from_json(ladder: int, id_: int, name: str, text: str) -> Tournament:
    """The inverse of `tournament_to_json`."""
    d: dict[str, Any] = json.loads(text)
    return Tournament(
        ladder, id_, name, Format(d["f"]), d["t"], d["r"], bool(d["rated"]), d["b"], d["h"],
        bool(d["reset"]), Status(d["s"]), tuple(d["p"]), d["n"], d["d"], bool(d["rem"]),
        tuple(Pairing(r, n, a, b, m, Outcome(f) if f else None, tuple(ready))
              for r, n, a, b, m, f, ready in d["g"]), d["why"], d.get("fin"))


class TournamentTables:
    """The repository's tournaments (SqlRepo supplies `conn`)."""

    conn: Any

    def tournaments(self, ladder: int) -> list[Tournament]:
        rows = self.conn.execute("SELECT id, name, state FROM tournaments WHERE ladder=? "
                                 "ORDER BY id", (ladder,)).fetchall()
        return [tournament_from_json(ladder, i, name, state) for i, name, state in rows]

    def save_tournament(self, tournament: Tournament) -> None:
        self.conn.execute(
            "INSERT INTO tournaments (ladder, id, name, live, state) VALUES (?, ?, ?, ?, ?) ON "
            "CONFLICT (ladder, id) DO UPDATE SET name=excluded.name, live=excluded.live, "
            "state=excluded.state",
            (tournament.ladder, tournament.id, tournament.name, int(tournament.live),
             tournament_to_json(tournament)))
