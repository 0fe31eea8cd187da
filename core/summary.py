"""A rulebook described from the settings in force, for /ladder info, /help presets and
the web: a custom preset (`base="duel"`, `floor="none"`) reads as what it is."""

from __future__ import annotations

from core.rulebooks import choose
from core.settings import Settings, fmt_number

_FORMULAS = {
    "classic": "classic Elo",
    "fame": "pairwise Elo",
    "zero_sum": "zero-sum Elo",
    "banded": "Elo",
}


def rulebook_summary(settings: Settings) -> str:
    """`zero-sum Elo from 1000 with K 32, minimum gain 1, floor 800, ...`."""
    if settings.is_position:
        head = "position ladder: " + ("challenges, " if settings.challenges else "")
        return head + "rungs moved by case and margin of victory"
    own = choose(settings).summary(settings)
    if own:  # a rating system that describes itself; the ladder's own limits after it
        return ", ".join([own] + [text for wanted, text in _traits(settings) if wanted])
    parts = [f"{_FORMULAS.get(settings.formula, 'Elo')} from {fmt_number(settings.start)} "
             f"with {_k_text(settings)}"]
    parts += [text for wanted, text in _elo_traits(settings) + _traits(settings) if wanted]
    if len(parts) > 2 and settings.tables:
        parts[-1] = "and " + parts[-1]
    return ", ".join(parts)


def _k_text(settings: Settings) -> str:
    if settings.formula == "fame":
        return "multipliers for sides, experience and game length"
    bands = "/".join(fmt_number(k) for _, k in settings.k_bands)
    return f"K {fmt_number(settings.k)}" + (f"/{bands} by rating" if bands else "")


def _elo_traits(s: Settings) -> list[tuple[bool, str]]:
    return [
        (not s.whole, "real-number ratings"),
        (bool(s.min_gain), f"minimum gain {s.min_gain}"),
        (s.floor is not None, f"floor {fmt_number(s.floor or 0)}"),
        (s.max_gap is not None,
         f"games over {fmt_number(s.max_gap or 0)} points apart are refused"),
        (s.no_change_gap is not None,
         f"the {fmt_number(s.no_change_gap or 0)} rule (beyond that gap the stronger "
         "player's win moves nothing)"),
    ]


def _traits(s: Settings) -> list[tuple[bool, str]]:
    tables = list(s.tables)
    table_text = (", ".join(tables[:-1]) + " and " + tables[-1] if len(tables) > 1
                  else "".join(tables)) + (" tables" if len(tables) > 1 else " table")
    return [
        (s.max_sides != 2, "free-for-all and team games" if s.teams else "free-for-all games"),
        (bool(s.calibration), f"{s.calibration} calibration game"
         + ("s" if s.calibration != 1 else "")),
        (bool(s.leagues), "leagues"),
        (s.farm_limit is not None, "anti-farming"),
        (s.series_hours is not None,
         f"series of games within {fmt_number(s.series_hours or 0)} hours"),
        (s.decays, "daily decay"),
        (bool(tables), table_text),
    ]
