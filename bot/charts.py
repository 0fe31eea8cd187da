"""Drawing a player's chart with matplotlib (Agg): PNG for chats, SVG for the web.

Drawing takes tens of milliseconds, so adapters call `render` through
`asyncio.to_thread`: the event loop never waits on it. The only user text in a picture is
its title (the player's and the ladder's names), drawn as typed: never as a formula, and
left out where the font cannot draw it.
"""

from __future__ import annotations

from bisect import bisect_right
from collections import Counter
from datetime import UTC, datetime, timedelta

import matplotlib

matplotlib.use("Agg")  # no display here, ever; must precede pyplot

import matplotlib.dates as mdates
import matplotlib.pyplot as plt
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from bot.fonts import DPI, drawable, saved
from core.domain.chart import ChartData
from core.domain.tournament.chart import BracketChart
from core.i18n import render as said
from core.i18n import t

SIZE = (8.0, 4.0)  # inches
NARROW = (4.6, 3.6)  # a phone's: drawn at its width, its text is not scaled down
# A first chart (a join moments ago) or games at one instant span seconds: the axis
# shows at least this much, in days, rather than seconds or matplotlib's empty years.
LEAST_SPAN = timedelta(days=4)


def _when(at: int) -> datetime:
    return datetime.fromtimestamp(at, UTC)


def _value_at(data: ChartData, at: int) -> float:
    """The line's value at an instant (the last point at or before it)."""
    times = [t for t, _ in data.points]
    return data.points[max(bisect_right(times, at) - 1, 0)][1]


def draw(data: ChartData, size: tuple[float, float] = SIZE) -> Figure:
    """The chart as a matplotlib figure (closed by the caller)."""
    figure, axes = plt.subplots(figsize=size, dpi=DPI)
    language = data.language
    line = said(t("chart.rung") if data.inverted else t("chart.rating"), language)
    xs = [_when(at) for at, _ in data.points]
    axes.plot(_days(xs), [v for _, v in data.points], color="#3366cc", linewidth=1.6,
              drawstyle="steps-post", label=line)
    if data.band:
        _band(axes, data)
    if data.matches:
        axes.plot(_days([_when(at) for at, _ in data.matches]), [v for _, v in data.matches],
                  linestyle="none", marker="o", markersize=4, color="#3366cc",
                  label=said(t("chart.match"), language))
    for n, (at, _season) in enumerate(data.seasons):
        axes.axvline(_days([_when(at)])[0], color="#999999", linestyle="--", linewidth=0.8,
                     label=said(t("chart.season"), language) if n == 0 else None)
    if data.decays:  # each decay day's step, marked and named in the legend
        axes.plot(_days([_when(at) for at, _ in data.decays]), [v for _, v in data.decays],
                  linestyle="none", marker="v", markersize=3, color="#888888",
                  label=said(t("chart.decay"), language))
    if data.corrections:
        _corrections(axes, data)
    if data.inverted:
        axes.invert_yaxis()
        axes.yaxis.set_major_locator(MaxNLocator(integer=True))  # whole rungs
    axes.set_ylabel(line)
    axes.grid(True, alpha=0.3)
    _date_axis(axes, xs, most=round(size[0]))  # a date label takes about an inch
    axes.legend(loc="best", fontsize="small")
    player, ladder = data.title
    title = said(t("chart.title", player=player, ladder=ladder), language) if player else ""
    if title and drawable(title):
        axes.set_title(title, fontsize="medium", parse_math=False)
    figure.tight_layout()
    return figure


def _band(axes: Axes, data: ChartData) -> None:
    """The rating's deviation as a shaded band, held between changes as the line is."""
    axes.fill_between(_days([_when(at) for at, _, _ in data.band]),
                      [low for _, low, _ in data.band], [high for _, _, high in data.band],
                      step="post", color="#3366cc", alpha=0.15, linewidth=0,
                      label=said(t("chart.band"), data.language))


def _corrections(axes: Axes, data: ChartData) -> None:
    """A mark for each instant of corrections, where the line stands once they were made,
    counted where there were several (three adjustments at once are not one)."""
    counts = Counter(at for at, _ in data.corrections)
    instants = sorted(counts)
    xs, ys = _days([_when(at) for at in instants]), [_value_at(data, at) for at in instants]
    axes.plot(xs, ys, linestyle="none", marker="^", markersize=7, color="#cc3333",
              label=said(t("chart.correction"), data.language))
    for x, y, at in zip(xs, ys, instants, strict=True):
        if counts[at] > 1:
            axes.annotate(said(t("chart.same_instant", count=counts[at]), data.language),
                          (x, y), xytext=(5, 4), textcoords="offset points",
                          fontsize="small", color="#cc3333")


def _days(times: list[datetime]) -> list[float]:
    """Instants as matplotlib's dates (days), which its date axis reads."""
    return [float(day) for day in mdates.date2num(times)]


def _date_axis(axes: Axes, xs: list[datetime], most: int) -> None:
    """Dates on the time axis (at most `most`), over at least LEAST_SPAN."""
    low, high = min(xs), max(xs)
    if high - low < LEAST_SPAN:
        middle = low + (high - low) / 2
        low, high = middle - LEAST_SPAN / 2, middle + LEAST_SPAN / 2
    else:
        pad = (high - low) / 40
        low, high = low - pad, high + pad
    axes.set_xlim(*_days([low, high]))
    locator = mdates.AutoDateLocator(minticks=3, maxticks=most)
    locator.intervald[mdates.HOURLY] = []  # never hours or less: days at the least
    locator.intervald[mdates.MINUTELY] = []
    locator.intervald[mdates.SECONDLY] = []
    axes.xaxis.set_major_locator(locator if high - low > LEAST_SPAN
                                 else mdates.DayLocator())
    axes.xaxis.set_major_formatter(mdates.DateFormatter("%Y-%m-%d"))
    for label in axes.get_xticklabels():
        label.set_fontsize("small")


def render(data: ChartData | BracketChart, fmt: str = "png",
           size: tuple[float, float] = SIZE) -> bytes:
    """The chart (or a tournament's bracket: bot/bracket_chart.py) as PNG or SVG bytes."""
    if isinstance(data, BracketChart):
        from bot import bracket_chart  # (it draws with this module's font rules)
        return bracket_chart.render(data, fmt)
    return saved(draw(data, size), fmt)
