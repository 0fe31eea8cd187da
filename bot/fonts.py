"""What the pictures' font can draw, their resolution and their files (bot/charts.py's
charts and bot/bracket_chart.py's brackets): user text is drawn as typed only where it
can be."""

from __future__ import annotations

import functools
import io
import unicodedata

import matplotlib

matplotlib.use("Agg")  # no display here, ever; must precede pyplot

import matplotlib.pyplot as plt
from matplotlib import font_manager
from matplotlib.figure import Figure
from matplotlib.ft2font import FT2Font

DPI = 100  # so a chart's PNG is 800 x 400 pixels


@functools.cache
def _glyphs() -> frozenset[int]:
    """The characters the charts' font has."""
    return frozenset(FT2Font(font_manager.findfont(font_manager.FontProperties())).get_charmap())


def drawable(text: str) -> bool:
    """Whether the font has every character of `text`, none written right to left (which
    matplotlib would draw reversed and unjoined)."""
    glyphs = _glyphs()
    return all(ord(c) in glyphs and unicodedata.bidirectional(c) not in ("R", "AL")
               for c in text)


def saved(figure: Figure, fmt: str) -> bytes:
    """A figure as PNG or SVG bytes, closed after. Metadata left out: nothing but the
    drawing goes into the file."""
    try:
        out = io.BytesIO()
        figure.savefig(out, format=fmt, dpi=DPI,
                       metadata={"Software": None} if fmt == "png" else {"Date": None})
        return out.getvalue()
    finally:
        plt.close(figure)
