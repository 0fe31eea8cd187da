"""A ladder's tournaments in `ladderbot export` (CONSOLE.md, "Added in the third
release"): each one's rounds with their results and its standings (Swiss, round robin),
or its bracket (elimination), players by name."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from core.domain.model import PlayerId
from core.domain.tournament import progress
from core.domain.tournament.bracket import NOBODY, Filled, Part
from core.domain.tournament.model import Format, Outcome
from core.domain.tournament.progress import Lookup
from core.domain.tournament.record import Tournament
from core.ports.repository import Repo
from core.service.queries.tournament import looked_up

_RESULTS = {Outcome.A: "1-0", Outcome.B: "0-1", Outcome.DRAW: "½-½",
            Outcome.A_FORFEIT: "forfeit", Outcome.B_FORFEIT: "forfeit",
            Outcome.BOTH_FORFEIT: "double forfeit"}


def tournaments_export(repo: Repo, ladder: int, names: dict[PlayerId, str]
                       ) -> list[dict[str, Any]]:
    """Every tournament of the ladder, oldest first."""
    return exported(repo.tournaments(ladder), looked_up(repo, ladder), names)


def exported(every: Sequence[Tournament], look: Lookup, names: dict[PlayerId, str]
             ) -> list[dict[str, Any]]:
    """These tournaments, as the export gives them."""
    return [_one(x, look, names) for x in every]


def _one(x: Tournament, look: Lookup, names: dict[PlayerId, str]) -> dict[str, Any]:
    def name(p: PlayerId) -> str:
        return names.get(p, str(p))

    out: dict[str, Any] = {"name": x.name, "format": x.format.value, "status": x.status.value}
    if not x.players or x.round == 0:
        return {**out, "players": [name(p) for p in x.players]}
    if x.format.eliminates:
        return {**out, "bracket": _bracket(x, look, name)}
    rounds: list[list[dict[str, Any]]] = [[] for _ in range(x.round)]
    for p in x.pairings:
        outcome = progress.outcome(p, look)
        rounds[p.round - 1].append({
            "players": [name(q) for q in p.players],
            "result": "bye" if p.b is None else _RESULTS[outcome] if outcome else None,
            "match": p.match})
    lines = progress.standings(x, look)
    return {**out, "rounds": rounds, "standings": [
        {"name": name(line.player), "score": line.score / 2, "buchholz": line.buchholz / 2,
         "sonneborn_berger": line.sb / 4} for line in lines]}


def _bracket(x: Tournament, look: Lookup, name: Any) -> Any:
    """Rounds of games by the bracket's stages; a double's three parts apart."""
    matches = {p.number: p.match for p in x.pairings}
    parts: dict[Part, list[list[dict[str, Any]]]] = {part: [] for part in Part}
    for f in progress.filled(x, look):
        game = _game(f, matches.get(f.slot.number), name)
        if game is None:
            continue
        part = Part.FINAL if f.slot.part is Part.RESET else f.slot.part
        stage = f.slot.stage - 1 if f.slot.part is not Part.RESET else 1
        rounds = parts[part]
        while len(rounds) <= stage:
            rounds.append([])
        rounds[stage].append(game)
    if x.format is Format.SINGLE:
        return parts[Part.WINNERS]
    return {"winners": parts[Part.WINNERS], "losers": parts[Part.LOSERS],
            "final": parts[Part.FINAL]}


def _game(f: Filled, match: int | None, name: Any) -> dict[str, Any] | None:
    """One game as the export says it (None: nobody plays it, or not known yet)."""
    present = [p for p in (f.a, f.b) if p is not None and p != NOBODY]
    if not present or (f.slot.part is Part.RESET and f.a == NOBODY):
        return None
    winner = f.winner if f.winner is not None and f.winner != NOBODY else None
    return {"players": [name(p) for p in present],
            "winner": name(winner) if winner is not None else None,
            "match": match if f.playable else None}
