"""Ladder settings: every number of RULES.md as a named, typed, documented key.

A preset is a named set of overrides on `Settings`; a community can start from any
preset and change any key (`/ladder create main preset=duel k=24 floor=none`).
"""

from __future__ import annotations

import dataclasses
import difflib
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from core.domain.errors import SettingError
from core.i18n import t

Family = Literal["rating", "position"]
Formula = Literal["classic", "fame", "zero_sum", "banded", "glicko2", "openskill"]
FfaMode = Literal["winner_takes_all", "placement"]
Period = Literal["game", "day", "week"]
BestOfRating = Literal["match", "games"]  # a best-of-N rated as one result, or its games
Language = Literal["en", "ru", "nl"]  # core.i18n.LANGUAGES

# (threshold, value) pairs: the value of the last threshold at or below x applies;
# below the first threshold the setting's base value applies.
Bands = tuple[tuple[float, float], ...]

TABLE_NAMES = ("season", "week", "ladder")

# How late a confirmation may come: the standings keep anti-farming's game times (and
# dutch series) this much longer than their window (`core.domain.state.FARM_SLACK`), no more.
LATEST_CONFIRMATION_DAYS = 30
# Glicko-2's tau at least: below it the volatility's iteration is not sound in floats (the
# setting's range; a ladder that kept a smaller one from before is rated with this).
TAU_LOWEST = 0.01

# RULES.md section 4: rungs moved (+ is up) by case (rows 1-6) and result (columns:
# overwhelming/major/minor defeat, draw, minor/major/overwhelming victory).
NHWC_MOVES: tuple[tuple[int, ...], ...] = (
    (-3, -2, -1, -1, 0, 0, 1),
    (-2, -1, -1, 0, 0, 1, 1),
    (-1, -1, 0, 0, 1, 1, 2),
    (-1, 0, 0, 1, 1, 2, 2),
    (0, 0, 1, 1, 2, 2, 3),
    (0, 1, 1, 2, 2, 3, 3),
)

DUEL_LEAGUES: tuple[tuple[float, str], ...] = (
    (-math.inf, "Challenge Accepted"),
    (1000, "Fighter"),
    (1100, "Yard Terror"),
    (1200, "Duel Master"),
    (1300, "Grandmaster"),
)


@dataclass(frozen=True, slots=True)
class Settings:
    """All parameters of one ladder. Defaults are neutral; presets fill them in."""

    preset: str = "custom"
    family: Family = "rating"
    # --- Elo family ---
    formula: Formula = "classic"
    start: float = 1000.0
    whole: bool = True  # whole-number ratings (warlight keeps real numbers)
    k: float = 32.0
    k_bands: Bands = ()
    min_gain: int = 0
    floor: float | None = None
    max_gap: float | None = None  # rated games only up to this gap (fame: 1000)
    no_change_gap: float | None = None  # stronger player wins beyond it: nothing moves
    fame_base: float = 10.0
    k1: float = 2.0  # fame: by number of sides
    k1_bands: Bands = ((3, 1.5), (4, 1.0))
    newcomer_wins: int = 20
    k2_newcomer: float = 2.0
    k2: float = 1.5
    k2_bands: Bands = ((2400, 1.0),)
    k3: float = 2.0  # fame: by game length in moves
    k3_bands: Bands = ((50, 1.5), (250, 1.0))
    k3_default: float = 1.0
    ffa: FfaMode = "winner_takes_all"
    max_sides: int | None = None
    teams: bool = True
    series_hours: float | None = None
    # --- matches of several games (RULES.md, "Best-of-N matches") ---
    bestof: int | None = None  # a reported score must decide a best of this many
    bestof_rating: BestOfRating = "match"
    # --- the queue: full, it forms a match of two teams of this size ("2v2") ---
    queue: str | None = None
    ready_seconds: int = 120  # to press Ready once the match is formed
    queue_minutes: float = 60.0  # an entry waits this long, then lapses
    # --- Glicko-2 (RULES.md §6): start RD, volatility, τ; provisional above this RD ---
    rd: float = 350.0
    volatility: float = 0.06
    tau: float = 0.5
    provisional_rd: float = 110.0
    period: Period = "game"  # each game, or a local day's (ISO week's) games together
    # --- OpenSkill (RULES.md §7): the Plackett-Luce model's parameters, and the shown
    # rating display_scale * (mu - 3 sigma) + display_base ---
    mu: float = 25.0
    sigma: float = 25.0 / 3
    beta: float = 25.0 / 6
    skill_tau: float = 25.0 / 300
    display_scale: float = 40.0
    display_base: float = 1000.0
    # --- eligibility and tables ---
    calibration: int = 0
    calibration_league: str = "Calibration"
    leagues: tuple[tuple[float, str], ...] = ()
    farm_limit: int | None = None
    farm_days: float = 7.0
    min_moves: int | None = None
    tables: tuple[str, ...] = ()
    season_min_games: int = 3
    week_min_games: int = 2
    week_days: float = 7.0
    active_days: float = 30.0
    hall_of_fame: int = 3
    weekly_summary: bool = False
    # --- decay ---
    decay: bool = False
    decay_divisor: int = 125000
    decay_min: int = 1
    # --- position family ---
    challenges: bool = False
    challenge_hours: float = 72.0
    play_hours: float = 168.0
    reminder_hours: float = 24.0
    moves_table: tuple[tuple[int, ...], ...] = NHWC_MOVES
    margin_required: bool = True
    # --- reporting and time ---
    confirm: bool = True
    confirm_hours: float = 24.0
    timezone: str = "UTC"
    # --- words ---
    language: Language = "en"  # what every reply, announcement and page is said in

    def with_changes(self, changes: Mapping[str, Any]) -> Settings:
        """A copy with the given fields replaced."""
        return dataclasses.replace(self, **dict(changes))

    @property
    def is_position(self) -> bool:
        """True for a position (rung) ladder."""
        return self.family == "position"

    @property
    def decays(self) -> bool:
        """True when ratings decay daily (never rungs)."""
        return self.decay and not self.is_position



# What each rulebook sets; core/domain/summary.py describes any settings in words, and
# core/domain/setting_keys.py says what every key means and parses its value.
PRESETS: dict[str, dict[str, Any]] = {
    "warlight": dict(formula="classic", start=1200.0, whole=False, k=32.0),
    "fame": dict(formula="fame", start=1000.0, max_gap=1000.0),
    "duel": dict(
        formula="zero_sum",
        start=1000.0,
        k=32.0,
        min_gain=1,
        floor=800.0,
        max_sides=2,
        teams=False,
        calibration=5,
        leagues=DUEL_LEAGUES,
        farm_limit=4,
        min_moves=2,
        tables=TABLE_NAMES,
    ),
    "nhwc": dict(family="position", max_sides=2, teams=False, challenges=True),
    "dutch": dict(
        formula="banded",
        start=0.0,
        k=32.0,
        k_bands=((2100, 24.0), (2400, 16.0)),
        floor=0.0,
        no_change_gap=719.0,
        max_sides=2,
        teams=False,
        series_hours=24.0,
        decay=True,
    ),
    "glicko2": dict(formula="glicko2", start=1500.0, whole=False, max_sides=2, teams=False),
    "openskill": dict(formula="openskill", start=1000.0, whole=False),
}


def preset(name: str, known: Iterable[str] = PRESETS) -> Settings:
    """The settings of a named preset."""
    try:
        overrides = PRESETS[name]
    except KeyError:
        guess = next(iter(difflib.get_close_matches(name[:40].lower(), list(known), n=1)), None)
        raise SettingError(t("setting.no_preset", name=name[:40], presets=", ".join(known),
                             hint=t("parse.did_you_mean_word", guess=guess) if guess else "")
                           ) from None
    return Settings(preset=name, **overrides)


# ---------------------------------------------------------------- parsing key=value

# Ratings of every rating rulebook stay within +-RATING_LIMIT: a game or an adjustment
# that would take one further stops there (README, "Limits"). Far beyond any real
# ladder, it keeps every number the rules compute finite and every stored one an integer
# SQLite and PostgreSQL can hold.
RATING_LIMIT = 1_000_000
# A new player's rating and the floor stay within this, so that the fast fold's table of
# points (core/domain/batch.py), computed around RATING_LIMIT / 2, is far above any floor.
START_LIMIT = 100_000
MAX_BESTOF = 99  # the longest best-of-N a ladder may play
MAX_MOVES = 100_000  # the longest game a report may give (moves=N)
MAX_SIDES = 100  # the most sides a ladder may allow in one game
MAX_HOURS = 24 * 365  # challenge deadlines and reminders: at most a year
MAX_DAYS = 3650  # windows in days: at most ten years
MAX_COUNT = 10_000  # game counts a rule waits for (calibration, minimum games)
TIMEZONE_LENGTH = 64  # the longest IANA name is 32 characters


def format_value(value: Any) -> str:
    """A setting value written the way `key=value` accepts it."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return fmt_number(value)
    if isinstance(value, tuple):
        if not value:
            return "none"
        if all(isinstance(v, str) for v in value):
            return ",".join(value)
        return ",".join(f"{format_value(a)}:{format_value(b)}" for a, b in value)
    return str(value)


def fmt_number(value: float) -> str:
    """A number without a needless `.0`."""
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def band_value(base: float, bands: Bands, x: float) -> float:
    """The value of `bands` at `x` (see `Bands`)."""
    value = base
    for threshold, band in bands:
        if x >= threshold:
            value = band
        else:
            break
    return value


@dataclass(frozen=True, slots=True)
class Policy:
    """What a bot's configuration adds: defaults for new ladders and custom presets."""

    defaults: tuple[tuple[str, Any], ...] = ()
    presets: tuple[tuple[str, Settings], ...] = ()
    web_url: str = ""  # where the public pages are served, for links in replies
    language: Language = "en"  # new ladders' language, and replies where no ladder is

    def settings_for(self, name: str) -> Settings:
        """The settings a new ladder of preset `name` starts from, defaults applied."""
        custom = dict(self.presets)
        base = custom[name] if name in custom else preset(name, self.preset_names)
        return base.with_changes(dict(self.defaults)) if self.defaults else base

    @property
    def preset_names(self) -> list[str]:
        """Every preset this bot offers."""
        return [*PRESETS, *(n for n, _ in self.presets if n not in PRESETS)]
