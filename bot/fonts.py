"""What the pictures' font can draw, and their resolution (bot/charts.py's charts and
bot/bracket_chart.py's brackets): user text is drawn as typed only where it can be."""

from __future__ import annotations

import functools
import unicodedata

from matplotlib import font_manager
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
