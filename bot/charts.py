"""Drawing a player's chart with matplotlib (Agg): PNG for chats, SVG for the web.

Drawing takes tens of milliseconds, so adapters call `render` through
`asyncio.to_thread`: the event loop never waits on it. No user text goes into the
picture (titles and names stay in the surrounding message or page).
"""

from __future__ import annotations

import io
from datetime import UTC, datetime

import matplotlib

matplotlib.use("Agg")  # no display here, ever; must precede pyplot

import matplotlib.dates as mdates
import matplotlib.pyplot as plt

from core.records import ChartData

SIZE = (8.0, 4.0)  # inches
DPI = 100  # so a PNG is 800 x 400 pixels


def _when(at: int) -> datetime:
    return datetime.fromtimestamp(at, UTC)


def render(data: ChartData, fmt: str = "png") -> bytes:
    """The chart as PNG or SVG bytes."""
    figure, axes = plt.subplots(figsize=SIZE, dpi=DPI)
    try:
        xs = [_when(t) for t, _ in data.points]
        axes.plot(xs, [v for _, v in data.points], color="#3366cc", linewidth=1.6,
                  drawstyle="steps-post", label=data.ylabel)
        if data.matches:
            axes.plot([_when(t) for t, _ in data.matches], [v for _, v in data.matches],
                      linestyle="none", marker="o", markersize=4, color="#3366cc",
                      label="rated match")
        for at, _season in data.seasons:
            axes.axvline(_when(at), color="#999999", linestyle="--", linewidth=0.8)
        if data.corrections:
            low = min(v for _, v in data.points)
            axes.plot([_when(t) for t, _ in data.corrections], [low] * len(data.corrections),
                      linestyle="none", marker="^", markersize=7, color="#cc3333",
                      label="correction")
        if data.inverted:
            axes.invert_yaxis()
        axes.set_ylabel(data.ylabel)
        axes.grid(True, alpha=0.3)
        axes.xaxis.set_major_formatter(mdates.ConciseDateFormatter(
            mdates.AutoDateLocator()))
        if data.matches or data.corrections:
            axes.legend(loc="best", fontsize="small")
        figure.tight_layout()
        out = io.BytesIO()
        # Metadata left out: nothing but the drawing goes into the file.
        figure.savefig(out, format=fmt, dpi=DPI,
                       metadata={"Software": None} if fmt == "png" else {"Date": None})
        return out.getvalue()
    finally:
        plt.close(figure)
