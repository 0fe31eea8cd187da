"""What a player's rating (or rung) chart shows, from stored history: no drawing here.

Adapters render `ChartData` (PNG in chat, SVG on the web). Decay days are not stored
per player (a decay day is one formula of each player's own rating), so the line is
rebuilt here by applying the ladder's decay days between stored changes.
"""

from __future__ import annotations

from core.domain import elo
from core.domain.chart import ChartData
from core.domain.model import PlayerId, Timestamp
from core.domain.records import ChangeRecord, LadderInfo
from core.domain.rulebooks import choose
from core.domain.rulebooks.glicko2 import SHOWN_RDS
from core.domain.settings import Settings
from core.ports.hints import Ahead, AuditRead, ChangesRead, PlayerStateRead, RankRead, TimelineRead
from core.ports.repository import Repo

CHART_CHANGES = 2000  # the newest changes a chart draws
CHART_CORRECTIONS = 50  # the newest corrections it marks


def chart_reads(ladder: LadderInfo, player: PlayerId, now: Timestamp) -> list[Ahead]:
    """What `chart_for` reads, named for `Repo.expect`."""
    lid = ladder.id
    return [ChangesRead(lid, player, CHART_CHANGES), PlayerStateRead(lid, player),
            *([RankRead(lid, "rung", player, now)] if ladder.settings.is_position else []),
            TimelineRead(lid), AuditRead(lid, player, CHART_CORRECTIONS)]


def chart_for(repo: Repo, ladder: LadderInfo, player: PlayerId, name: str,
              now: Timestamp) -> ChartData | None:
    """The chart of one player, or None when there is nothing to draw yet: no game, no
    adjustment (empty axes and a legend for nothing; the profile says "No games yet")."""
    settings = ladder.settings
    changes = [c for c in repo.changes(ladder.id, player, CHART_CHANGES)
               if c.kind in ("match", "adjust", "leave", "period")]
    state = repo.player_state(ladder.id, player)
    if state is None or not changes:
        return None
    position = settings.is_position
    current = float(repo.rank(ladder.id, "rung", player, now) or 0) if position \
        else state.rating
    timeline = repo.timeline(ladder.id)
    decays = [at for at, kind, _ in timeline if kind == "decay"] \
        if settings.decays else []
    seasons = tuple((at, label) for at, kind, label in timeline if kind == "season")
    points: list[tuple[Timestamp, float]] = []
    matches: list[tuple[Timestamp, float]] = []
    decayed: list[tuple[Timestamp, float]] = []  # the points decay days made
    if changes:
        value = changes[0].before
        points.append((changes[0].at, value))
        for change in changes:
            value = _decayed(settings, decays, points, value, change.at, decayed)
            value = change.after
            points.append((change.at, value))
            if change.kind == "match" and change.rated:
                matches.append((change.at, value))
        _decayed(settings, decays, points, value, now + 1, decayed)
    points.append((max(now, points[-1][0]) if points else now, current))
    audit = repo.audit(ladder.id, player=player, limit=CHART_CORRECTIONS)
    corrections = tuple(sorted((a.at, f"{a.by}: {a.action}") for a in audit))
    label = "rung" if position else "rating"
    band = _band(changes, points[-1], choose(settings).deviation(settings, state))
    return ChartData(label, tuple(points), tuple(matches), seasons, corrections, position,
                     f"{ladder.name}-{name}", settings.language, tuple(decayed),
                     (name, ladder.name), band)


def _band(changes: list[ChangeRecord], end: tuple[Timestamp, float],
          deviation: float | None) -> tuple[tuple[Timestamp, float, float], ...]:
    """Rating ± 2 RD from each change that stored its RD (a rating keeps its RD until it
    next changes), on to the line's `end` at the RD now; none where no change kept one."""
    band: list[tuple[Timestamp, float, float]] = []
    rd: float | None = None
    for change in changes:
        rd = change.rd if change.rd is not None else rd
        if rd is not None:
            band.append((change.at, change.after - SHOWN_RDS * rd,
                         change.after + SHOWN_RDS * rd))
    if band and deviation is not None:
        at, value = end
        band.append((at, value - SHOWN_RDS * deviation, value + SHOWN_RDS * deviation))
    return tuple(band)


def _decayed(settings: Settings, decays: list[Timestamp],
             points: list[tuple[Timestamp, float]], value: float, until: Timestamp,
             marks: list[tuple[Timestamp, float]]) -> float:
    """Apply the decay days between the last point and `until`, adding their points (to
    the line, and to `marks` where a day took something)."""
    since = points[-1][0] if points else until
    for at in decays:
        if since < at < until:
            taken = elo.decay_amount(settings, value)
            value -= taken
            points.append((at, value))
            if taken:
                marks.append((at, value))
    return value
