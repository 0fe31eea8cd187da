"""The words a rulebook describes itself with (`Rulebook.summary`, for /ladder info, /help
presets and the web), from the settings in force: a custom preset (`base="duel"`,
`floor="none"`) reads as what it is."""

from __future__ import annotations

from core.settings import Settings, fmt_number


def described(head: str, settings: Settings, traits: list[tuple[bool, str]]) -> str:
    """`head` and the traits wanted, then the ladder's own limits; the last with "and"
    when the list is long (`zero-sum Elo from 1000 with K 32, ..., and rating table`)."""
    parts = [head] + [text for wanted, text in traits + ladder_traits(settings) if wanted]
    if traits and len(parts) > 2 and settings.tables:
        parts[-1] = "and " + parts[-1]
    return ", ".join(parts)


def elo_traits(s: Settings) -> list[tuple[bool, str]]:
    """What an Elo ladder's settings add to its formula."""
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


def k_text(settings: Settings) -> str:
    """`K 32`, or `K 40/32/24 by rating` with bands."""
    bands = "/".join(fmt_number(k) for _, k in settings.k_bands)
    return f"K {fmt_number(settings.k)}" + (f"/{bands} by rating" if bands else "")


def ladder_traits(s: Settings) -> list[tuple[bool, str]]:
    """What any rating ladder's settings add: games, calibration, tables and the rest."""
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
