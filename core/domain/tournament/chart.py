"""A bracket as a picture's data: each game's place and players, names as typed (the
adapters draw it, as they draw a player's chart)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class BracketGame:
    part: str  # "w", "l", "f" (the final and its second game)
    column: int  # its stage within its part, from 0
    a: str  # a player's name as typed ("" not known yet)
    b: str
    won: int | None = None  # 0 (a) or 1 (b) once decided
    seed_a: int = 0  # shown where a name cannot be drawn
    seed_b: int = 0


@dataclass(frozen=True, slots=True)
class BracketChart:
    """A tournament's bracket."""

    title: str  # the tournament's name, as typed
    games: tuple[BracketGame, ...]
    labels: tuple[str, str, str]  # the parts' headings in the ladder's words
    name: str = "bracket"  # file name stem
