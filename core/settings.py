"""Ladder settings: every number of RULES.md as a named, typed, documented key.

A preset is a named set of overrides on `Settings`; a community can start from any
preset and change any key (`/ladder create main preset=duel k=24 floor=none`).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from core.errors import SettingError
from core.i18n import LANGUAGES
from core.numerals import is_digits, parse_int, parse_number

Family = Literal["rating", "position"]
Formula = Literal["classic", "fame", "zero_sum", "banded", "glicko2", "openskill"]
FfaMode = Literal["winner_takes_all", "placement"]
Period = Literal["game", "day", "week"]
Language = Literal["en", "ru", "nl"]  # core.i18n.LANGUAGES

# (threshold, value) pairs: the value of the last threshold at or below x applies;
# below the first threshold the setting's base value applies.
Bands = tuple[tuple[float, float], ...]

TABLE_NAMES = ("season", "week", "ladder")

# How late a confirmation may come: the standings keep anti-farming's game times (and
# dutch series) this much longer than their window (`core.state.FARM_SLACK`), no more.
LATEST_CONFIRMATION_DAYS = 30
# Why: what a rule looking back at a pair's games (anti-farming, series) needs.
COUNTED_RIGHT = (f"counts a game right only when it is confirmed within "
                 f"{LATEST_CONFIRMATION_DAYS} days of being played")

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



# What each rulebook sets; core/summary.py describes any settings in words.
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
        raise SettingError(
            f"there is no preset called {name!r}; choose one of: {', '.join(known)}"
        ) from None
    return Settings(preset=name, **overrides)


# ---------------------------------------------------------------- parsing key=value

# Ratings of every rating rulebook stay within +-RATING_LIMIT: a game or an adjustment
# that would take one further stops there (README, "Limits"). Far beyond any real
# ladder, it keeps every number the rules compute finite and every stored one an integer
# SQLite and PostgreSQL can hold.
RATING_LIMIT = 1_000_000
# A new player's rating and the floor stay within this, so that the fast fold's table of
# points (core/batch.py), computed around RATING_LIMIT / 2, is far above any floor.
START_LIMIT = 100_000
MAX_MOVES = 100_000  # the longest game a report may give (moves=N)
MAX_SIDES = 100  # the most sides a ladder may allow in one game
MAX_HOURS = 24 * 365  # challenge deadlines and reminders: at most a year
MAX_DAYS = 3650  # windows in days: at most ten years
MAX_COUNT = 10_000  # game counts a rule waits for (calibration, minimum games)
TIMEZONE_LENGTH = 64  # the longest IANA name is 32 characters


def _show(value: float) -> str:
    """A bound as a reply writes it: 1,000,000, 0.5."""
    return f"{int(value):,}" if float(value).is_integer() else f"{value:g}"


@dataclass(frozen=True, slots=True)
class Range:
    """The values a number setting takes: `low` to `high` (`low` itself excluded when
    `above`), whole numbers only when `whole`."""

    low: float
    high: float
    above: bool = False
    whole: bool = False
    why: str = ""  # appended to the range, where the upper bound needs a reason

    def text(self) -> str:
        """The range in words: 'a number above 0, at most 1,000'."""
        kind = "a whole number" if self.whole else "a number"
        if self.above:
            words = f"{kind} above {_show(self.low)}, at most {_show(self.high)}"
        else:
            words = f"{kind} from {_show(self.low)} to {_show(self.high)}"
        return f"{words} {self.why}" if self.why else words

    def parse(self, text: str) -> Any:
        """The value of `text`, or ValueError naming the range."""
        try:
            value: float = parse_int(text) if self.whole else parse_number(text)
        except ValueError:
            raise ValueError(f"expected {self.text()}") from None
        if value < self.low or (self.above and value == self.low) or value > self.high:
            raise ValueError(f"expected {self.text()}")
        return value


def _parse_bool(text: str) -> bool:
    low = text.lower()
    if low in ("true", "yes", "on", "1"):
        return True
    if low in ("false", "no", "off", "0"):
        return False
    raise ValueError("expected true or false")


def _optional(parse: Callable[[str], Any]) -> Callable[[str], Any]:
    def inner(text: str) -> Any:
        return None if text.lower() in ("none", "off", "no") else parse(text)

    return inner


def _choice(*options: str) -> Callable[[str], str]:
    def inner(text: str) -> str:
        if text not in options:
            raise ValueError(f"expected one of {', '.join(options)}")
        return text

    return inner


def _bands(at: Range, value: Range, example: str) -> Callable[[str], Bands]:
    def inner(text: str) -> Bands:
        if text.lower() in ("none", ""):
            return ()
        bands = []
        for part in text.split(","):
            threshold, colon, amount = part.partition(":")
            if not colon:
                raise ValueError(f"expected bands like {example}")
            try:
                bands.append((float(at.parse(threshold)), float(value.parse(amount))))
            except ValueError as error:
                raise ValueError(f"{part}: {error}") from None
        return tuple(sorted(bands))

    return inner


def _parse_tables(text: str) -> tuple[str, ...]:
    if text.lower() == "none":
        return ()
    names = tuple(dict.fromkeys(t.strip() for t in text.split(",")))
    bad = [n for n in names if n not in TABLE_NAMES]
    if bad:
        raise ValueError(f"expected tables from {', '.join(TABLE_NAMES)}")
    return names


def _parse_timezone(text: str) -> str:
    zone = "expected a time zone such as Europe/Amsterdam or UTC"
    if len(text) > TIMEZONE_LENGTH:
        raise ValueError(f"{zone} (at most {TIMEZONE_LENGTH} characters)")
    try:
        ZoneInfo(text)
    except (ZoneInfoNotFoundError, ValueError, OSError):  # OSError: a name no file can have
        raise ValueError(zone) from None
    return text


def _parse_leagues(text: str) -> tuple[tuple[float, str], ...]:
    # Only `none` fits on a chat line; named leagues are set in config.toml.
    if text.lower() == "none":
        return ()
    raise ValueError(
        "leagues can only be switched off here (leagues=none); set them in config.toml"
    )


@dataclass(frozen=True, slots=True)
class SettingSpec:
    """How one key is parsed, what it means, and for a number the values it takes."""

    key: str
    parse: Callable[[str], Any]
    help: str
    changeable: bool = True  # may a moderator change it after the ladder exists?
    range: Range | None = None

    def describe(self) -> str:
        """The key's line in `/help settings`: what it means and its range."""
        return f"{self.key}: {self.help}" + (f"; {self.range.text()}" if self.range else "")


def _number(key: str, limits: Range, text: str, optional: bool = False) -> SettingSpec:
    parse = limits.parse
    return SettingSpec(key, _optional(parse) if optional else parse, text, range=limits)


def _banded(key: str, at: Range, value: Range, example: str, text: str) -> SettingSpec:
    return SettingSpec(key, _bands(at, value, example),
                       f"{text}, e.g. {example}; thresholds {at.text()}, values {value.text()}")


_LATEST_HOURS = LATEST_CONFIRMATION_DAYS * 24
_WHY_LATEST = f"({LATEST_CONFIRMATION_DAYS} days): anti-farming {COUNTED_RIGHT}"
_RATING = Range(-START_LIMIT, START_LIMIT)
_THRESHOLD = Range(-RATING_LIMIT, RATING_LIMIT)
_GAP = Range(0, 2 * RATING_LIMIT, above=True)
_K = Range(0, 1000, above=True)
_MULTIPLIER = Range(0, 100, above=True)
_SIDES = Range(2, MAX_SIDES, whole=True)
_MOVES = Range(0, MAX_MOVES, whole=True)
_GAMES = Range(0, MAX_COUNT, whole=True)
_HOURS = Range(0, MAX_HOURS, above=True)

_SPECS: tuple[SettingSpec, ...] = (
    SettingSpec("confirm", _parse_bool, "reports wait for the opponent's /confirm (true|false)"),
    _number("confirm_hours", Range(0, _LATEST_HOURS, above=True, why=_WHY_LATEST),
            "hours after which a pending report is confirmed automatically"),
    SettingSpec("timezone", _parse_timezone,
                "time zone of the ladder's day and month (daily jobs run at 00:00 in it)"),
    SettingSpec("language", _choice(*LANGUAGES),
                f"the language the ladder speaks: its replies, announcements, help and web "
                f"pages ({'|'.join(LANGUAGES)})"),
    SettingSpec("ffa", _choice("winner_takes_all", "placement"),
                "free-for-all rating mode: winner_takes_all or placement"),
    _number("start", _RATING, "rating of a new player"),
    _number("k", _K, "K factor of the Elo update"),
    _banded("k_bands", _THRESHOLD, _K, "2100:24,2400:16",
            "K by the player's rating (below the first: k)"),
    SettingSpec("whole", _parse_bool, "keep ratings as whole numbers (true|false)"),
    _number("min_gain", Range(0, 1000, whole=True), "smallest gain for a winner"),
    _number("floor", _RATING, "no rating falls below this (none: no floor)", optional=True),
    _number("max_gap", _GAP, "refuse rated games between players further apart (none: no "
            "limit)", optional=True),
    _number("no_change_gap", Range(0, 2 * RATING_LIMIT),
            "beyond this gap a win by the stronger player changes nothing (none: off)",
            optional=True),
    _number("fame_base", _K, "fame: base of the multiplied K"),
    _number("k1", _MULTIPLIER, "fame: multiplier for a two-sided game"),
    _banded("k1_bands", _SIDES, _MULTIPLIER, "3:1.5,4:1", "fame: multiplier by number of sides"),
    _number("newcomer_wins", Range(0, MAX_COUNT, whole=True),
            "fame: a player with at most this many rated wins is a newcomer"),
    _number("k2_newcomer", _MULTIPLIER, "fame: multiplier for a newcomer"),
    _number("k2", _MULTIPLIER, "fame: multiplier for an experienced player"),
    _banded("k2_bands", _THRESHOLD, _MULTIPLIER, "2400:1",
            "fame: experienced multiplier by rating"),
    _number("k3", _MULTIPLIER, "fame: multiplier for the shortest games"),
    _banded("k3_bands", _MOVES, _MULTIPLIER, "50:1.5,250:1", "fame: multiplier by moves"),
    _number("k3_default", _MULTIPLIER, "fame: multiplier when a report gives no length"),
    _number("max_sides", _SIDES, "most sides in one game (2: one-on-one only; none: any)",
            optional=True),
    SettingSpec("teams", _parse_bool, "allow team games (true|false)"),
    _number("series_hours", Range(0, _LATEST_HOURS, above=True),
            "games of one pair within this many hours form a series (none: off)",
            optional=True),
    _number("calibration", Range(0, 1000, whole=True),
            "rated games a newcomer plays before appearing in tables"),
    SettingSpec("leagues", _parse_leagues, "league names by rating (none: no leagues)"),
    _number("farm_limit", Range(1, 1000, whole=True),
            "rated games of one pair allowed per farm_days before more are unrated",
            optional=True),
    _number("farm_days", Range(0, 365, above=True), "anti-farming window in days"),
    _number("min_moves", _MOVES, "games shorter than this many moves are unrated (none: off)",
            optional=True),
    SettingSpec("tables", _parse_tables,
                "tables kept: season,week,ladder (none: only the ranking)"),
    _number("season_min_games", _GAMES,
            "rated games in the month to be listed in the season table"),
    _number("week_min_games", _GAMES, "rated games in the window to be listed in the week table"),
    _number("week_days", Range(0, 365, above=True), "length of the rolling week in days"),
    _number("active_days", Range(0, MAX_DAYS, above=True),
            "the ladder table lists players who played within this many days"),
    _number("hall_of_fame", Range(0, 100, whole=True),
            "places entering the Hall of Fame per season"),
    SettingSpec("weekly_summary", _parse_bool, "post the week's top movers every Monday"),
    SettingSpec("decay", _parse_bool, "daily decay at 00:00 (true|false)"),
    _number("decay_divisor", Range(1, 1_000_000_000, whole=True),
            "daily decay is max(decay_min, floor(R*R/decay_divisor))"),
    _number("decay_min", Range(0, RATING_LIMIT, whole=True),
            "smallest daily decay of a rating above 0"),
    SettingSpec("challenges", _parse_bool, "players challenge each other before playing"),
    _number("challenge_hours", _HOURS, "hours to answer a challenge before it is a forfeit"),
    _number("play_hours", _HOURS,
            "hours to play an accepted challenge before it lapses (no result, both free)"),
    _number("reminder_hours", Range(0, MAX_HOURS),
            "remind the players this many hours before a challenge's deadline (0: never)"),
    SettingSpec("margin_required", _parse_bool,
                "position ladders: a win must say minor, major or overwhelming"),
    _number("rd", Range(1, 1000), "glicko2: rating deviation of a new player (the most "
            "an RD grows to)"),
    _number("volatility", Range(0, 1, above=True), "glicko2: volatility of a new player"),
    _number("tau", Range(0, 10, above=True), "glicko2: how fast volatility may change"),
    _number("provisional_rd", Range(0, 1000), "glicko2: provisional (in no table) while the "
            "RD is above this"),
    SettingSpec("period", _choice("game", "day", "week"),
                "glicko2: a rating period: each game at once, or every game of a local day "
                "or ISO week rated together when it closes at 00:00"),
    _number("mu", Range(-1000, 1000), "openskill: mu of a new player"),
    _number("sigma", Range(0, 1000, above=True), "openskill: sigma of a new player"),
    _number("beta", Range(0, 1000, above=True), "openskill: the model's beta"),
    _number("skill_tau", Range(0, 100), "openskill: sigma added before each game (tau)"),
    _number("display_scale", Range(0, 10_000, above=True),
            "openskill: shown rating is display_scale x (mu - 3 sigma) + display_base"),
    _number("display_base", _RATING, "openskill: the shown rating's base"),
)

SETTING_SPECS: dict[str, SettingSpec] = {spec.key: spec for spec in _SPECS}

# The keys by what they configure, in `/help settings`' order. A group named for a
# formula (fame, glicko2, openskill) configures that rulebook only: its keys are refused
# on a ladder of another (`validate`).
SETTING_GROUPS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("reports", "Reports and time", ("confirm", "confirm_hours", "timezone")),
    ("words", "Language", ("language",)),
    ("games", "Games", ("max_sides", "teams", "min_moves", "series_hours")),
    ("elo", "Ratings (start: every rulebook of ratings; the others: Elo's)",
     ("start", "k", "k_bands", "whole", "min_gain", "floor", "max_gap", "no_change_gap",
      "ffa")),
    ("fame", "Fame's multipliers",
     ("fame_base", "k1", "k1_bands", "newcomer_wins", "k2_newcomer", "k2", "k2_bands", "k3",
      "k3_bands", "k3_default")),
    ("glicko2", "Glicko-2", ("rd", "volatility", "tau", "provisional_rd", "period")),
    ("openskill", "OpenSkill",
     ("mu", "sigma", "beta", "skill_tau", "display_scale", "display_base")),
    ("anti_farming", "Anti-farming", ("farm_limit", "farm_days")),
    ("tables", "Tables and seasons",
     ("calibration", "leagues", "tables", "season_min_games", "week_min_games", "week_days",
      "active_days", "hall_of_fame", "weekly_summary")),
    ("decay", "Decay", ("decay", "decay_divisor", "decay_min")),
    ("challenges", "Challenges (position ladders)",
     ("challenges", "challenge_hours", "play_hours", "reminder_hours", "margin_required")),
)
GROUP_OF: dict[str, str] = {key: group for group, _, keys in SETTING_GROUPS for key in keys}
# The groups that configure one formula only.
FORMULA_GROUPS = ("fame", "glicko2", "openskill")
_RATES = {"classic": "Elo", "zero_sum": "zero-sum Elo", "fame": "fame's Elo",
          "banded": "banded Elo", "glicko2": "Glicko-2", "openskill": "OpenSkill"}


def parse_settings(pairs: Iterable[tuple[str, str]]) -> dict[str, Any]:
    """Parse `key=value` pairs into typed field values, refusing unknown keys."""
    changes: dict[str, Any] = {}
    for key, raw in pairs:
        spec = SETTING_SPECS.get(key)
        if spec is None:
            raise SettingError(
                f"there is no setting called {key!r}; `/help settings` lists them"
            )
        try:
            changes[key] = spec.parse(raw)
        except ValueError as error:
            # Every parser words its ValueError for the user ("expected ...").
            raise SettingError(f"{key}={_clip(raw)}: {error}") from None
    return changes


def _clip(raw: str) -> str:
    """A typed value as a refusal echoes it: at most 40 characters."""
    return raw if len(raw) <= 40 else raw[:40] + "..."


# Properties of a ladder in its chat, not rules: they never enter the event log.
PROPERTIES: dict[str, str] = {
    "public": "show the ladder on the bot's web pages, to anyone with the link (true|false)",
    "channel": "the channel id announcements go to (Discord; default: where it was created)",
    "mod_role": "members of this role id moderate the ladder, besides administrators (none: off)",
}


def split_properties(
    pairs: Iterable[tuple[str, str]]
) -> tuple[list[tuple[str, str]], dict[str, Any]]:
    """Separate `key=value` pairs into rule settings and typed ladder properties."""
    rules: list[tuple[str, str]] = []
    properties: dict[str, Any] = {}
    for key, raw in pairs:
        if key not in PROPERTIES:
            rules.append((key, raw))
        elif key == "public":
            try:
                properties[key] = _parse_bool(raw)
            except ValueError as error:
                raise SettingError(f"{key}={raw}: {error}") from None
        elif raw.lower() in ("none", "off") and key == "mod_role":
            properties[key] = ""
        elif is_digits(raw) and len(raw) <= 20:
            properties[key] = raw
        else:
            raise SettingError(f"{key}={raw}: expected a Discord id (digits)")
    return rules, properties


def validate(settings: Settings, given: Iterable[str] = ()) -> Settings:
    """Check combinations no single key can check, and that the keys `given` configure
    this ladder's rulebook; return the settings unchanged."""
    for key in given:
        group = GROUP_OF.get(key)
        if group in FORMULA_GROUPS and (settings.is_position or settings.formula != group):
            rates = "by rungs" if settings.is_position else f"by {_RATES[settings.formula]}"
            raise SettingError(f"{key}= configures the {group} rulebook, and this ladder "
                               f"rates {rates}: `/help settings` says what each key is for")
    if settings.family == "rating" and settings.formula in ("fame", "zero_sum", "banded") \
            and not settings.whole:
        raise SettingError(f"the {settings.formula} formula keeps whole-number ratings")
    if settings.floor is not None and settings.start < settings.floor:
        raise SettingError(
            f"start={fmt_number(settings.start)} is below floor={fmt_number(settings.floor)}"
        )
    if settings.period != "game" and settings.formula != "glicko2":  # (kept from a preset)
        raise SettingError("period= configures the glicko2 rulebook only")
    if "season" in settings.tables and settings.family == "position":
        raise SettingError("a position ladder keeps no season table")
    return settings


def describe(settings: Settings) -> str:
    """A one-line summary of the settings that differ from the preset."""
    base = preset(settings.preset) if settings.preset in PRESETS else Settings()
    diffs = []
    for spec in _SPECS:
        value = getattr(settings, spec.key)
        if value != getattr(base, spec.key):
            diffs.append(f"{spec.key}={format_value(value)}")
    return ", ".join(diffs)


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
