"""Eligibility and tables: calibration, leagues, season/week/ladder tables, Hall of Fame.

Functions take plain rows so the same rules serve a replayed state and a stored
projection.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from core.domain.calendar import DAY
from core.domain.model import PlayerId, Timestamp
from core.domain.settings import Settings
from core.i18n import N_, Message, t


@dataclass(frozen=True, slots=True)
class TableRow:
    """One line of a table: the player, the value ranked on, and rated games counted."""

    player: PlayerId
    value: float
    rated_games: int
    held: bool = False  # provisional by the rulebook (listed only in "All players")
    extra: tuple[float, ...] = ()  # what the rulebook keeps beside it (a Glicko-2 RD, shown)


@dataclass(frozen=True, slots=True)
class HallEntry:
    """A place in the Hall of Fame."""

    season: str
    place: int
    player: PlayerId
    gain: float


def calibrating(settings: Settings, rated_games: int) -> bool:
    """True while a player is still playing their calibration games."""
    return rated_games < settings.calibration


# The preset leagues' names (RULES.md: the export keeps them as they are), in words.
LEAGUE_WORDS = {"Calibration": N_("league.calibration"),
                "Challenge Accepted": N_("league.challenge_accepted"),
                "Fighter": N_("league.fighter"), "Yard Terror": N_("league.yard_terror"),
                "Duel Master": N_("league.duel_master"), "Grandmaster": N_("league.grandmaster")}


def league_name(name: str) -> Message:
    """A league's name as a reply says it: a preset's in the reader's language, a
    community's own as it was written."""
    code = LEAGUE_WORDS.get(name)
    return t(code) if code is not None else name


def league(settings: Settings, rating: float, rated_games: int) -> str | None:
    """League name of a rating (the calibration league while calibrating); None if none."""
    if not settings.leagues:
        return None
    if calibrating(settings, rated_games):
        return settings.calibration_league
    name = settings.leagues[0][1]
    for threshold, league_name in settings.leagues:
        if rating >= threshold:
            name = league_name
    return name


def gain_table(
    settings: Settings, rows: Iterable[tuple[PlayerId, float, int, int]], min_games: int
) -> list[TableRow]:
    """Season or week table: (player, gain, games in the period, total rated games) rows.

    Listed: calibrated, at least `min_games` rated games in the period, a gain above 0.
    Ordered by gain, then games, then join order.
    """
    listed = [
        TableRow(player, gain, games)
        for player, gain, games, total in rows
        if games >= min_games and gain > 0 and not calibrating(settings, total)
    ]
    listed.sort(key=gain_order)
    return listed


def gain_order(row: TableRow) -> tuple[float, int, PlayerId]:
    """Where a row of a season or week table goes: by gain, then games, then join order."""
    return (-row.value, -row.rated_games, row.player)


def ladder_table(
    settings: Settings,
    rows: Iterable[tuple[PlayerId, float, int, Timestamp | None]],
    at: Timestamp,
) -> list[TableRow]:
    """Ladder table: (player, rating, rated games, last played) rows of members.

    Listed: calibrated players who played within `active_days` before `at`.
    """
    since = at - settings.active_days * DAY
    listed = [
        TableRow(player, rating, games)
        for player, rating, games, last in rows
        if not calibrating(settings, games) and last is not None and since < last <= at
    ]
    listed.sort(key=lambda r: (-r.value, r.player))
    return listed


def hall_entries(settings: Settings, season: str, table: list[TableRow]) -> list[HallEntry]:
    """The top places of a closed season's table."""
    return [
        HallEntry(season, place, row.player, row.value)
        for place, row in enumerate(table[: settings.hall_of_fame], start=1)
    ]
