"""A player's chart as a picture's data (the adapters draw it, bot/charts.py)."""

from __future__ import annotations

from dataclasses import dataclass

from core.domain.model import Timestamp


@dataclass(frozen=True, slots=True)
class ChartData:
    """A player's line over time, with what happened along it (adapters draw it)."""

    ylabel: str  # "rating" or "rung"
    points: tuple[tuple[Timestamp, float], ...]  # the line
    matches: tuple[tuple[Timestamp, float], ...]  # a marker per rated match
    seasons: tuple[tuple[Timestamp, str], ...]  # season closes
    corrections: tuple[tuple[Timestamp, str], ...]  # moderator actions about the player
    inverted: bool = False  # rungs: 1 at the top
    name: str = ""  # file name stem: ladder-player
    language: str = "en"  # the ladder's: what the legend says
    decays: tuple[tuple[Timestamp, float], ...] = ()  # where a decay day took rating
    title: tuple[str, str] = ("", "")  # the player's and the ladder's names, as typed
    band: tuple[tuple[Timestamp, float, float], ...] = ()  # (at, low, high): rating ± 2 RD
