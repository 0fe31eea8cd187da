"""Drawing a tournament's bracket with matplotlib (Agg): the winners' games in columns by
stage, the losers' below them, the final at the right; each game a box of its two names,
the winner's in bold. Names are drawn as typed (never as a formula), or as their seed
where the font cannot draw them."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
from matplotlib.axes import Axes
from matplotlib.patches import Rectangle

from bot.fonts import DPI, drawable, saved
from core.domain.tournament.chart import BracketChart, BracketGame

COLUMN = 2.6  # inches a stage takes across
ROW = 0.62  # inches a game takes down
BOX = (2.2, 0.5)
LONGEST = 22  # characters of a name shown


def render(data: BracketChart, fmt: str = "png") -> bytes:
    """The bracket as PNG or SVG bytes."""
    winners = [g for g in data.games if g.part == "w"]
    losers = [g for g in data.games if g.part == "l"]
    finals = [g for g in data.games if g.part == "f"]
    w_columns = max((g.column for g in winners), default=-1) + 1
    l_columns = max((g.column for g in losers), default=-1) + 1
    width = COLUMN * max(w_columns + len(finals), l_columns, 1) + 0.4
    w_rows, l_rows = _rows(winners), _rows(losers)
    height = ROW * (w_rows + l_rows) + 0.9 * (1 + bool(losers))
    figure = plt.figure(figsize=(width, height), dpi=DPI)
    try:
        axes = figure.add_axes((0, 0, 1, 1))
        axes.set_xlim(0, width)
        axes.set_ylim(height, 0)
        axes.axis("off")
        top = 0.7
        _heading(axes, 0.2, 0.35, f"{data.title}: {data.labels[0]}", data.title)
        _part(axes, winners, top, w_rows)
        for i, game in enumerate(finals):
            _box(axes, COLUMN * (w_columns + i) + 0.2, top + ROW * (w_rows - 1) / 2, game)
        if finals:
            _heading(axes, COLUMN * w_columns + 0.2, 0.35, data.labels[2], "")
        if losers:
            start = top + ROW * w_rows + 0.6
            _heading(axes, 0.2, start - 0.3, data.labels[1], "")
            _part(axes, losers, start, l_rows)
    except BaseException:
        plt.close(figure)
        raise
    return saved(figure, fmt)


def _rows(games: list[BracketGame]) -> int:
    """The most games of one stage: the part's height in rows."""
    counts: dict[int, int] = {}
    for g in games:
        counts[g.column] = counts.get(g.column, 0) + 1
    return max(counts.values(), default=0)


def _part(axes: Axes, games: list[BracketGame], top: float, rows: int) -> None:
    """A part's stages side by side, each stage's games spread over the part's height."""
    columns: dict[int, list[BracketGame]] = {}
    for g in games:
        columns.setdefault(g.column, []).append(g)
    for column, stage in columns.items():
        step = rows / len(stage)
        for i, game in enumerate(stage):
            _box(axes, COLUMN * column + 0.2, top + ROW * (step * (i + 0.5) - 0.5), game)


def _box(axes: Axes, x: float, y: float, game: BracketGame) -> None:
    axes.add_patch(Rectangle((x, y), *BOX, fill=False, edgecolor="#888888", linewidth=0.8))
    axes.plot([x, x + BOX[0]], [y + BOX[1] / 2] * 2, color="#cccccc", linewidth=0.6)
    for side, (name, seed) in enumerate(((game.a, game.seed_a), (game.b, game.seed_b))):
        shown = _name(name, seed)
        axes.text(x + 0.07, y + BOX[1] * (0.27 + 0.5 * side), shown, fontsize=8,
                  va="center", parse_math=False,
                  fontweight="bold" if game.won == side else "normal",
                  color="#000000" if game.won in (None, side) else "#777777")


def _name(name: str, seed: int) -> str:
    if not name:
        return "…"
    clipped = name if len(name) <= LONGEST else name[:LONGEST - 1] + "…"
    return clipped if drawable(clipped) else f"#{seed}"


def _heading(axes: Axes, x: float, y: float, text: str, title: str) -> None:
    shown = text if drawable(text) else text.replace(title, "").lstrip(": ")
    axes.text(x, y, shown, fontsize=11, fontweight="bold", va="center", parse_math=False)
