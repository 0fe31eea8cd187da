"""The words a rulebook describes itself with (`Rulebook.summary`, for /ladder info, /help
presets and the web), from the settings in force: a custom preset (`base="duel"`,
`floor="none"`) reads as what it is."""

from __future__ import annotations

from core.domain.settings import Settings, fmt_number
from core.i18n import N_, Message, joined, listed, span, t

# The tables as a sentence names them (`/standings season` keeps the key itself)
TABLE_NAMES = {"season": N_("summary.table_season"), "week": N_("summary.table_week"),
               "ladder": N_("summary.table_ladder")}


def described(head: Message, settings: Settings, traits: list[tuple[bool, Message]]) -> Message:
    """`head` and the traits wanted, then the ladder's own limits; the last with "and"
    when the list is long (`zero-sum Elo from 1000 with K 32, ..., and rating table`)."""
    parts = [head] + [text for wanted, text in traits + ladder_traits(settings) if wanted]
    if traits and len(parts) > 2 and settings.tables:
        parts[-1] = t("summary.and", part=parts[-1])
    return joined(*parts, sep=", ")


def elo_traits(s: Settings) -> list[tuple[bool, Message]]:
    """What an Elo ladder's settings add to its formula."""
    return [
        (not s.whole, t("summary.real_ratings")),
        (bool(s.min_gain), t("summary.min_gain", gain=s.min_gain)),
        (s.floor is not None, t("summary.floor", floor=fmt_number(s.floor or 0))),
        (s.max_gap is not None, t("summary.max_gap", gap=fmt_number(s.max_gap or 0))),
        (s.no_change_gap is not None,
         t("summary.no_change_gap", gap=fmt_number(s.no_change_gap or 0))),
    ]


def k_text(settings: Settings) -> Message:
    """`K 32`, or `K 40/32/24 by rating` with bands."""
    bands = "/".join(fmt_number(k) for _, k in settings.k_bands)
    k = fmt_number(settings.k)
    return t("summary.k_bands", k=k, bands=bands) if bands else t("summary.k", k=k)


def ladder_traits(s: Settings) -> list[tuple[bool, Message]]:
    """What any rating ladder's settings add: games, calibration, tables and the rest."""
    return [
        (s.max_sides != 2, t("summary.ffa_teams") if s.teams else t("summary.ffa")),
        (bool(s.calibration), t("summary.calibration", count=s.calibration)),
        (bool(s.leagues), t("summary.leagues")),
        (s.farm_limit is not None, t("summary.anti_farming")),
        (s.series_hours is not None,
         t("summary.series", within=span(s.series_hours or 0, "hour"))),
        (s.decays, t("summary.decay")),
        (bool(s.tables), t("summary.tables", count=len(s.tables), tables=listed(
            [t(TABLE_NAMES[table]) if table in TABLE_NAMES else table for table in s.tables]))),
    ]
