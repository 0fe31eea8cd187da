"""`ladderbot export`: one JSON object describing a ladder as it stands at an instant.

At or after the ladder's clock, due jobs are run up to that instant first (the caller
rolls the transaction back, so exporting changes nothing). Before it, the log is
replayed up to that instant: the ladder as the bot showed it then.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from core.domain.calendar import DAY, iso
from core.domain.errors import NoLadder
from core.domain.events import collect_corrections
from core.domain.model import PlayerId, Timestamp
from core.domain.records import LadderInfo, MatchRecord
from core.domain.rulebooks import Rulebook, choose
from core.domain.settings import TABLE_NAMES, Settings
from core.domain.standing import MatchEffect, PlayerState
from core.domain.state import LadderState
from core.domain.tables import HallEntry, TableRow, gain_table, ladder_table, league
from core.i18n import t
from core.ports.repository import Repo
from core.service.queries.tournament_export import tournaments_export


def export_ladder(repo: Repo, chat: str, name: str | None, at: Timestamp) -> dict[str, Any]:
    """The ladder `name` of `chat` (None: the chat's default) at instant `at`, as
    CONSOLE.md specifies: as stored, from its clock on (`core.service.dispatch.export`
    runs what fell due first)."""
    ladder = repo.ladder(chat, name)
    if ladder is None:
        if name is None:
            raise NoLadder(t("export.no_ladder", chat=chat))
        raise NoLadder(t("export.unknown", ladder=name, chat=chat))
    name = ladder.name
    if at >= ladder.clock:
        state = repo.state(ladder.id)
        settings = state.settings
        week = repo.week_sums(ladder.id, at - round(settings.week_days * DAY), at)
        matches = [(m, m.status, _rated_now(m)) for m in reversed(repo.matches(ladder.id))]
    else:
        state, effects, week = _replay_until(repo, ladder, at)
        matches = []
        for m in reversed(repo.matches(ladder.id)):
            status = m.status_at(at)
            if status is None:
                continue
            effect = effects.get(m.id)
            rated = effect.rated if status == "confirmed" and effect is not None else \
                (False if status == "voided" else m.result.rated)
            matches.append((m, status, rated))
    names = {p: info.name for p, info in repo.players(ladder.id).items()}
    # (a ladder's tournaments as they stand now, whatever `at` says)
    return {**build(ladder, state, names, week, matches, at),
            "tournaments": tournaments_export(repo, ladder.id, names)}


def _rated_now(record: MatchRecord) -> bool:
    if record.status == "confirmed":
        return bool(record.rated)
    if record.status == "voided":
        return False
    return record.result.rated


def _replay_until(
    repo: Repo, ladder: LadderInfo, at: Timestamp
) -> tuple[LadderState, dict[int, MatchEffect], dict[PlayerId, tuple[float, int]]]:
    """Replay the log up to `at`, keeping match effects and the rolling week's sums."""
    events = repo.events(ladder.id, until=at)
    corrections = collect_corrections(events)
    state = LadderState(repo.base_settings(ladder.id))
    effects: dict[int, MatchEffect] = {}
    week: dict[PlayerId, tuple[float, int]] = {}
    for event in events:
        applied = state.apply(event, corrections)
        if applied.match is None:
            continue
        effects[applied.match.match_id] = applied.match
        since = at - round(state.settings.week_days * DAY)
        if applied.match.rated and since < event.at <= at:
            for c in applied.match.changes:
                gain, games = week.get(c.player, (0.0, 0))
                week[c.player] = (gain + c.delta, games + 1)
    return state, effects, week


def _number(settings: Settings, value: float) -> float | int:
    return int(value) if settings.whole and float(value).is_integer() else value


def build(
    ladder: LadderInfo,
    state: LadderState,
    names: dict[PlayerId, str],
    week: dict[PlayerId, tuple[float, int]],
    matches: Iterable[tuple[MatchRecord, str, bool]],
    at: Timestamp,
) -> dict[str, Any]:
    """The export object from standings, names and match statuses."""
    settings = state.settings
    members = {p: s for p, s in state.players.items() if s.member}
    book = choose(settings)
    listed = {p: s for p, s in members.items() if not book.provisional(settings, s)}
    return {
        "ladder": ladder.name,
        "preset": settings.preset,
        "at": iso(at),
        "players": _players(state, book, members, names),
        "tables": _tables(settings, listed, names, week, at),
        "hall_of_fame": [_hall(e, names, settings) for e in state.hall],
        "matches": [
            {"id": m.id, "status": status, "rated": rated, "played_at": iso(m.reported_at),
             "players": [names.get(p, str(p)) for p in m.result.players],
             "draw": m.result.draw,
             "score": list(m.result.score) if m.result.score else None}
            for m, status, rated in sorted(matches, key=lambda t: (t[0].reported_at, t[0].id))
        ],
    }


def _players(state: LadderState, book: Rulebook, members: dict[PlayerId, PlayerState],
             names: dict[PlayerId, str]) -> list[dict[str, Any]]:
    """The members, in the ladder's order, with their standings."""
    settings = state.settings
    if settings.is_position:
        order = [p for p in state.order if p in members]
    else:
        order = sorted(members, key=lambda p: (-members[p].rating, p))
    players = []
    for p in order:
        s = members[p]
        players.append({
            "name": names.get(p, str(p)),
            "rating": None if settings.is_position else _number(settings, s.rating),
            "rung": state.order.index(p) + 1 if settings.is_position else None,
            "games": s.games,
            "rated_games": s.rated_games,
            "wins": s.wins,
            "losses": s.losses,
            "draws": s.draws,
            "league": league(settings, s.rating, s.rated_games),
            "provisional": book.provisional(settings, s),
            **book.exported(s),
        })
    return players


def _tables(settings: Settings, listed: dict[PlayerId, PlayerState],
            names: dict[PlayerId, str], week: dict[PlayerId, tuple[float, int]],
            at: Timestamp) -> dict[str, Any]:
    """The ladder's tables, of the players past their provisional games."""
    def gains(rows: list[TableRow]) -> list[dict[str, Any]]:
        return [{"name": names.get(r.player, str(r.player)), "gain": _number(settings, r.value),
                 "rated_games": r.rated_games} for r in rows]

    tables: dict[str, Any] = {}
    for table in TABLE_NAMES:
        if table not in settings.tables:
            continue
        if table == "season":
            tables[table] = gains(gain_table(settings, [
                (p, s.season_gain, s.season_games, s.rated_games) for p, s in listed.items()
            ], settings.season_min_games))
        elif table == "week":
            tables[table] = gains(gain_table(settings, [
                (p, g, n, listed[p].rated_games) for p, (g, n) in week.items() if p in listed
            ], settings.week_min_games))
        else:
            rows = ladder_table(settings, [(p, s.rating, s.rated_games, s.last_played)
                                           for p, s in listed.items()], at)
            tables[table] = [{"name": names.get(r.player, str(r.player)),
                              "rating": _number(settings, r.value)} for r in rows]
    return tables


def _hall(entry: HallEntry, names: dict[PlayerId, str], settings: Settings) -> dict[str, Any]:
    return {"season": entry.season, "place": entry.place,
            "name": names.get(entry.player, str(entry.player)),
            "gain": _number(settings, entry.gain)}
