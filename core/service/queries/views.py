"""Public ladders as plain data: what the web pages show and the JSON API returns.

Only ladders their moderators made public (`/ladder set public=true`) are visible;
for any other id every view answers None, exactly as for an id that does not exist.
Reads only: nothing here writes.
"""

from __future__ import annotations

from typing import Any

from core.commands.tournaments import FORMATS
from core.domain.bestof import score_text
from core.domain.calendar import iso
from core.domain.chart import ChartData
from core.domain.model import PlayerId, Timestamp
from core.domain.records import LadderInfo, MatchRecord
from core.domain.rulebooks import choose, rulebook_summary
from core.domain.settings import Settings
from core.domain.standing import PlayerState
from core.domain.tables import calibrating, league, league_name
from core.domain.tournament import progress
from core.domain.tournament.model import Format
from core.i18n import N_, decode, moment, render, t
from core.ports.repository import Repo
from core.service.queries.charts import chart_for
from core.service.queries.ladders import main_table, member_table
from core.service.queries.tournament import looked_up
from core.service.queries.tournament_export import exported

TABLE_TITLES = {"rating": N_("web.table.rating"), "rung": N_("web.table.rung"),
                "ladder": N_("web.table.ladder"), "season": N_("web.table.season"),
                "week": N_("web.table.week")}
# A match's status, as its page says it.
STATUS_WORDS = {"pending": N_("web.status.pending"), "confirmed": N_("web.status.confirmed"),
                "disputed": N_("web.status.disputed"), "voided": N_("web.status.voided")}
LISTED = 100  # rows on a standings page
_TOURNAMENT_STATUS = {"open": N_("web.tstatus.open"), "running": N_("web.tstatus.running"),
                      "finished": N_("web.tstatus.finished"),
                      "cancelled": N_("web.tstatus.cancelled")}


def ladder_by_id(repo: Repo, ladder_id: int) -> LadderInfo | None:
    """A ladder by its id (None: there is none)."""
    return next((ladder for ladder in repo.every_ladder() if ladder.id == ladder_id), None)


def public_ladder(repo: Repo, ladder_id: int) -> LadderInfo | None:
    """A ladder by id, if it is public."""
    ladder = ladder_by_id(repo, ladder_id)
    return ladder if ladder is not None and ladder.public else None


def _number(ladder: LadderInfo, value: float) -> float | int:
    return int(value) if ladder.settings.whole and float(value).is_integer() else value


def _names(repo: Repo, ladder: LadderInfo, players: list[PlayerId]) -> dict[PlayerId, str]:
    return {p: info.name for p, info in repo.players(ladder.id, players).items()}


def _ladder_head(ladder: LadderInfo) -> dict[str, Any]:
    settings = ladder.settings
    main = main_table(settings)
    # Besides the ladder's own tables, every member by rating: calibrating players too,
    # marked provisional (RULES.md keeps them out of the tables, not out of sight).
    tables = ["rung"] if settings.is_position else \
        [main] + [t for t in ("season", "week") if t in settings.tables] + \
        (["rating"] if main != "rating" else [])
    return {
        "id": ladder.id,
        "name": ladder.name,
        "preset": settings.preset,
        "summary": render(rulebook_summary(settings), settings.language),
        "season": ladder.season if "season" in settings.tables else None,
        "tables": [{"key": table, "title": render(t(TABLE_TITLES[table]), settings.language)}
                   for table in tables],
        "language": settings.language,
    }


def ladder_list(repo: Repo) -> list[dict[str, Any]]:
    """Every public ladder."""
    found = []
    for ladder in repo.every_ladder():
        if ladder.public:
            _, members = repo.standings(ladder.id, member_table(ladder.settings),
                                        ladder.clock, 0)
            found.append({**_ladder_head(ladder), "players": members})
    return found


def standings_view(repo: Repo, ladder_id: int, table: str | None,
                   at: Timestamp) -> dict[str, Any] | None:
    """A table of a public ladder: its rows in order, with league and movement."""
    ladder = public_ladder(repo, ladder_id)
    if ladder is None:
        return None
    head = _ladder_head(ladder)
    keys: list[str] = [entry["key"] for entry in head["tables"]]
    shown = table if table is not None and table in keys else keys[0]
    rows, total = repo.standings(ladder.id, shown, at, LISTED)
    players = [r.player for r in rows]
    names = _names(repo, ladder, players)
    day = repo.day_ranks(ladder.id, players) if shown == keys[0] else {}
    settings = ladder.settings
    book = choose(settings)
    listed = []
    for place, row in enumerate(rows, 1):
        entry: dict[str, Any] = {"place": place, "id": row.player,
                                 "name": names.get(row.player, str(row.player)),
                                 "rated_games": row.rated_games}
        if shown in ("season", "week"):
            entry["gain"] = _number(ladder, row.value)
        elif shown != "rung":
            entry["rating"] = _number(ladder, row.value)
            # as replies show it (Glicko-2's with twice its RD), and what the export adds
            state = PlayerState(row.value, extra=row.extra)
            entry["shown"] = book.shown(settings, state)
            entry.update(book.exported(state) if row.extra else {})
            entry["league"] = _league(settings, row.value, row.rated_games)
            # (provisional as the rulebook says: Glicko-2's by its RD, not by games)
            entry["provisional"] = row.held or calibrating(settings, row.rated_games)
        if day:
            before = day.get(row.player)
            entry["movement"] = None if before is None else before - place
        listed.append(entry)
    return {**head, "table": shown, "title": render(t(TABLE_TITLES[shown]), head["language"]),
            "rows": listed,
            "total": total, "at": iso(at)}


def hall_view(repo: Repo, ladder_id: int) -> dict[str, Any] | None:
    """The Hall of Fame of a public ladder, season by season."""
    ladder = public_ladder(repo, ladder_id)
    if ladder is None:
        return None
    entries = repo.hall_of_fame(ladder.id)
    names = _names(repo, ladder, [e.player for e in entries])
    seasons: dict[str, list[dict[str, Any]]] = {}
    for e in entries:
        seasons.setdefault(e.season, []).append(
            {"place": e.place, "id": e.player, "name": names.get(e.player, str(e.player)),
             "gain": _number(ladder, e.gain)})
    return {**_ladder_head(ladder),
            "seasons": [{"season": s, "places": p} for s, p in seasons.items()]}


def tournaments_view(repo: Repo, ladder_id: int) -> dict[str, Any] | None:
    """A public ladder's tournaments, as the export gives them (CONSOLE.md), newest first."""
    ladder = public_ladder(repo, ladder_id)
    if ladder is None:
        return None
    return {**_ladder_head(ladder), "tournaments": ladder_tournaments(repo, ladder)}


def ladder_tournaments(repo: Repo, ladder: LadderInfo) -> list[dict[str, Any]]:
    """A ladder's tournaments as the export gives them, newest first, with their format,
    state and winner in the ladder's words (its public page's, its moderators' page's)."""
    names = {p: info.name for p, info in repo.players(ladder.id).items()}
    language = ladder.settings.language
    every, look = repo.tournaments(ladder.id)[::-1], looked_up(repo, ladder.id)
    found = exported(every, look, names)
    for each, x in zip(found, every, strict=True):
        each["format_words"] = render(t(FORMATS[Format(each["format"])]), language)
        each["status_words"] = render(t(_TOURNAMENT_STATUS[each["status"]]), language)
        winner = progress.champion(x, look)
        each["winner"] = None if winner is None else names.get(winner, str(winner))
    return found


def _league(settings: Settings, rating: float, rated_games: int) -> str | None:
    """A rating's league as the ladder's pages say it (a preset's in its language)."""
    name = league(settings, rating, rated_games)
    return None if name is None else render(league_name(name), settings.language)


def _match(repo: Repo, ladder: LadderInfo, record: MatchRecord,
           names: dict[PlayerId, str]) -> dict[str, Any]:
    result = record.result
    changes = repo.match_changes(ladder.id, record.id) \
        if record.status == "confirmed" and record.rated else []
    moved = {c.player: c for c in changes}
    return {
        "id": record.id,
        "played_at": iso(record.reported_at),
        "status": record.status,
        "status_words": render(t(STATUS_WORDS[record.status]), ladder.settings.language),
        "rated": bool(record.rated) if record.status == "confirmed" else False,
        "note": render(decode(record.note), ladder.settings.language) if record.note else "",
        "unrated": render(record.unrated_text(), ladder.settings.language)
        if record.status == "confirmed" and not record.rated else None,
        "draw": result.draw,
        "margin": result.margin.value if result.margin else None,
        "score": score_text(result.score) if result.score else None,
        "sides": [[{"id": p, "name": names.get(p, str(p)),
                    "before": _number(ladder, moved[p].before) if p in moved else None,
                    "after": _number(ladder, moved[p].after) if p in moved else None}
                   for p in side] for side in result.sides],
    }


def history_view(repo: Repo, ladder_id: int, player: PlayerId | None = None,
                 limit: int = 50) -> dict[str, Any] | None:
    """Recent matches and every correction (who, when, why) of a public ladder."""
    ladder = public_ladder(repo, ladder_id)
    if ladder is None:
        return None
    records = repo.matches(ladder.id, player=player, limit=limit)
    audit = repo.audit(ladder.id, player=player, limit=limit)
    wanted = {p for m in records for p in m.result.players} | \
        {a.player for a in audit if a.player is not None}
    names = _names(repo, ladder, sorted(wanted))
    language = ladder.settings.language
    return {
        **_ladder_head(ladder),
        "matches": [_match(repo, ladder, m, names) for m in records],
        "corrections": [{"at": iso(a.at), "by": a.by, "action": a.action,
                         "said": render(a.message(moment(a.at, language), names.get(a.player, "")
                                               if a.player is not None else ""), language),
                         "reason": render(decode(a.reason), language),
                         "match": a.match, "player": names.get(a.player) if a.player else None,
                         "detail": render(decode(a.detail), language)}
                        for a in audit],
    }


def player_view(repo: Repo, ladder_id: int, player: PlayerId,
                at: Timestamp) -> tuple[dict[str, Any], ChartData | None] | None:
    """A player of a public ladder: standing, record, history, corrections and chart."""
    ladder = public_ladder(repo, ladder_id)
    if ladder is None:
        return None
    info = repo.players(ladder.id, [player]).get(player)
    state = repo.player_state(ladder.id, player)
    if info is None or state is None:
        return None
    settings = ladder.settings
    table = main_table(settings)
    history = history_view(repo, ladder_id, player, limit=30)
    assert history is not None
    data = {
        **_ladder_head(ladder),
        "player": {
            "id": player, "name": info.name, "member": info.member,
            "rating": None if settings.is_position else _number(ladder, state.rating),
            "rung": repo.rank(ladder.id, "rung", player, at) if settings.is_position else None,
            "rank": repo.rank(ladder.id, table, player, at),
            "league": None if settings.is_position else
            _league(settings, state.rating, state.rated_games),
            "provisional": calibrating(settings, state.rated_games),
            "games": state.games, "rated_games": state.rated_games, "wins": state.wins,
            "losses": state.losses, "draws": state.draws,
            "season_gain": _number(ladder, state.season_gain)
            if "season" in settings.tables else None,
            "last_played": iso(state.last_played) if state.last_played else None,
        },
        "matches": history["matches"],
        "corrections": history["corrections"],
    }
    return data, chart_for(repo, ladder, player, info.name, at)
