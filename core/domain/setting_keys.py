"""The keys of `/ladder create` and `/ladder set`: how each value is parsed, what it
means, the values it takes, and the checks no single key can make. Every word is a
message (`core.i18n`), so `/help settings` and every refusal speak the ladder's language.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from core.domain.errors import SettingError
from core.domain.model import Result
from core.domain.numerals import is_digits
from core.domain.setting_values import (
    QUEUE_SIZES,
    BadValue,
    Range,
    bands,
    choice,
    clipped,
    or_none,
    parse_bestof,
    parse_bool,
    parse_leagues,
    parse_tables,
    parse_timezone,
    team_size,
)
from core.domain.settings import (
    LATEST_CONFIRMATION_DAYS,
    MAX_BESTOF,
    MAX_COUNT,
    MAX_DAYS,
    MAX_HOURS,
    MAX_MOVES,
    MAX_SIDES,
    PRESETS,
    RATING_LIMIT,
    START_LIMIT,
    TAU_LOWEST,
    Settings,
    format_value,
    preset,
)
from core.domain.shape import shape_refusal
from core.i18n import LANGUAGES, N_, Message, t


@dataclass(frozen=True, slots=True)
class SettingSpec:
    """How one key is parsed, what it means, and for a number the values it takes."""

    key: str
    parse: Callable[[str], Any]
    help: Message
    changeable: bool = True  # may a moderator change it after the ladder exists?
    range: Range | None = None

    def describe(self) -> Message:
        """The key's line in `/help settings`: what it means and its range."""
        if self.range is None:
            return t("help.key", key=self.key, help=self.help)
        return t("help.key_range", key=self.key, help=self.help, range=self.range.text())


# Each builder takes the code of the key's words, `key.<key>`: the key is its tail.
def _number(code: str, limits: Range, optional: bool = False) -> SettingSpec:
    parse = limits.parse
    return SettingSpec(_key(code), or_none(parse) if optional else parse, t(code),
                       range=limits)


def _plain(code: str, parse: Callable[[str], Any], **params: Any) -> SettingSpec:
    return SettingSpec(_key(code), parse, t(code, **params))


def _banded(code: str, at: Range, value: Range, example: str) -> SettingSpec:
    return SettingSpec(_key(code), bands(at, value, example),
                       t("key.banded", what=t(code), example=example,
                         at=at.text(), value=value.text()))


def _key(code: str) -> str:
    return code.removeprefix("key.")


_LATEST_HOURS = LATEST_CONFIRMATION_DAYS * 24
_RATING = Range(-START_LIMIT, START_LIMIT)
_THRESHOLD = Range(-RATING_LIMIT, RATING_LIMIT)
_GAP = Range(0, 2 * RATING_LIMIT, above=True)
_K = Range(0, 1000, above=True)
_MULTIPLIER = Range(0, 100, above=True)
_SIDES = Range(2, MAX_SIDES, whole=True)
_MOVES = Range(0, MAX_MOVES, whole=True)
_GAMES = Range(0, MAX_COUNT, whole=True)
_HOURS = Range(0, MAX_HOURS, above=True)
_WINDOW = Range(0, 365, above=True)

_SPECS: tuple[SettingSpec, ...] = (
    _plain(N_("key.confirm"), parse_bool),
    _number(N_("key.confirm_hours"), Range(0, _LATEST_HOURS, above=True,
                                   why=t("range.why_latest", days=LATEST_CONFIRMATION_DAYS))),
    _plain(N_("key.timezone"), parse_timezone),
    _plain(N_("key.language"), choice(*LANGUAGES), languages="|".join(LANGUAGES)),
    _plain(N_("key.ffa"), choice("winner_takes_all", "placement")),
    _number(N_("key.start"), _RATING),
    _number(N_("key.k"), _K),
    _banded(N_("key.k_bands"), _THRESHOLD, _K, "2100:24,2400:16"),
    _plain(N_("key.whole"), parse_bool),
    _number(N_("key.min_gain"), Range(0, 1000, whole=True)),
    _number(N_("key.floor"), _RATING, optional=True),
    _number(N_("key.max_gap"), _GAP, optional=True),
    _number(N_("key.no_change_gap"), Range(0, 2 * RATING_LIMIT), optional=True),
    _number(N_("key.fame_base"), _K),
    _number(N_("key.k1"), _MULTIPLIER),
    _banded(N_("key.k1_bands"), _SIDES, _MULTIPLIER, "3:1.5,4:1"),
    _number(N_("key.newcomer_wins"), Range(0, MAX_COUNT, whole=True)),
    _number(N_("key.k2_newcomer"), _MULTIPLIER),
    _number(N_("key.k2"), _MULTIPLIER),
    _banded(N_("key.k2_bands"), _THRESHOLD, _MULTIPLIER, "2400:1"),
    _number(N_("key.k3"), _MULTIPLIER),
    _banded(N_("key.k3_bands"), _MOVES, _MULTIPLIER, "50:1.5,250:1"),
    _number(N_("key.k3_default"), _MULTIPLIER),
    _number(N_("key.max_sides"), _SIDES, optional=True),
    _plain(N_("key.teams"), parse_bool),
    _number(N_("key.series_hours"), Range(0, _LATEST_HOURS, above=True), optional=True),
    _plain(N_("key.bestof"), or_none(parse_bestof), max=MAX_BESTOF),
    _plain(N_("key.bestof_rating"), choice("match", "games")),
    _plain(N_("key.queue"), or_none(choice(*QUEUE_SIZES)), sizes="|".join(QUEUE_SIZES)),
    _number(N_("key.ready_seconds"), Range(10, 3600, whole=True)),
    _number(N_("key.queue_minutes"), Range(0, 7 * 24 * 60, above=True)),
    _number(N_("key.calibration"), Range(0, 1000, whole=True)),
    _plain(N_("key.leagues"), parse_leagues),
    _number(N_("key.farm_limit"), Range(1, 1000, whole=True), optional=True),
    _number(N_("key.farm_days"), _WINDOW),
    _number(N_("key.min_moves"), _MOVES, optional=True),
    _plain(N_("key.tables"), parse_tables),
    _number(N_("key.season_min_games"), _GAMES),
    _number(N_("key.week_min_games"), _GAMES),
    _number(N_("key.week_days"), _WINDOW),
    _number(N_("key.active_days"), Range(0, MAX_DAYS, above=True)),
    _number(N_("key.hall_of_fame"), Range(0, 100, whole=True)),
    _plain(N_("key.weekly_summary"), parse_bool),
    _plain(N_("key.decay"), parse_bool),
    _number(N_("key.decay_divisor"), Range(1, 1_000_000_000, whole=True)),
    _number(N_("key.decay_min"), Range(0, RATING_LIMIT, whole=True)),
    _plain(N_("key.challenges"), parse_bool),
    _number(N_("key.challenge_hours"), _HOURS),
    _number(N_("key.play_hours"), _HOURS),
    _number(N_("key.reminder_hours"), Range(0, MAX_HOURS)),
    _plain(N_("key.margin_required"), parse_bool),
    _number(N_("key.rd"), Range(1, 1000)),
    _number(N_("key.volatility"), Range(0.0001, 1, why=t("range.why_sound"))),
    _number(N_("key.tau"), Range(TAU_LOWEST, 10, why=t("range.why_tau"))),
    _number(N_("key.provisional_rd"), Range(0, 1000)),
    _plain(N_("key.period"), choice("game", "day", "week")),
    _number(N_("key.mu"), Range(-1000, 1000)),
    _number(N_("key.sigma"), Range(0.01, 1000, why=t("range.why_sound"))),
    _number(N_("key.beta"), Range(2, 1000, why=t("range.why_sound"))),
    _number(N_("key.skill_tau"), Range(0, 100)),
    _number(N_("key.display_scale"), Range(0.01, 10_000)),  # (a subnormal one made mu infinite)
    _number(N_("key.display_base"), _RATING),
)

SETTING_SPECS: dict[str, SettingSpec] = {spec.key: spec for spec in _SPECS}

# The keys by what they configure, in `/help settings`' order, with each group's title.
# A group named for a formula (fame, glicko2, openskill)
# configures that rulebook only: its keys are refused on a ladder of another (`validate`).
SETTING_GROUPS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("reports", N_("group.reports"), ("confirm", "confirm_hours", "timezone")),
    ("words", N_("group.words"), ("language",)),
    ("games", N_("group.games"),
     ("max_sides", "teams", "min_moves", "series_hours", "bestof", "bestof_rating")),
    ("queue", N_("group.queue"), ("queue", "ready_seconds", "queue_minutes")),
    ("elo", N_("group.elo"),
     ("start", "k", "k_bands", "whole", "min_gain", "floor", "max_gap", "no_change_gap", "ffa")),
    ("fame", N_("group.fame"),
     ("fame_base", "k1", "k1_bands", "newcomer_wins", "k2_newcomer", "k2", "k2_bands", "k3",
      "k3_bands", "k3_default")),
    ("glicko2", N_("group.glicko2"), ("rd", "volatility", "tau", "provisional_rd", "period")),
    ("openskill", N_("group.openskill"),
     ("mu", "sigma", "beta", "skill_tau", "display_scale", "display_base")),
    ("anti_farming", N_("group.anti_farming"), ("farm_limit", "farm_days")),
    ("tables", N_("group.tables"),
     ("calibration", "leagues", "tables", "season_min_games", "week_min_games", "week_days",
      "active_days", "hall_of_fame", "weekly_summary")),
    ("decay", N_("group.decay"), ("decay", "decay_divisor", "decay_min")),
    ("challenges", N_("group.challenges"),
     ("challenges", "challenge_hours", "play_hours", "reminder_hours", "margin_required")),
)
GROUP_OF: dict[str, str] = {key: group for group, _, keys in SETTING_GROUPS for key in keys}
# The groups that configure one formula only.
FORMULA_GROUPS = ("fame", "glicko2", "openskill")
# How a ladder rates, as a refusal of another rulebook's key says it.
_RATES = {"classic": N_("rates.classic"), "zero_sum": N_("rates.zero_sum"),
          "fame": N_("rates.fame"), "banded": N_("rates.banded"),
          "glicko2": N_("rates.glicko2"), "openskill": N_("rates.openskill")}


def parse_settings(pairs: Iterable[tuple[str, str]]) -> dict[str, Any]:
    """Parse `key=value` pairs into typed field values, refusing unknown keys."""
    changes: dict[str, Any] = {}
    for key, raw in pairs:
        spec = SETTING_SPECS.get(key)
        if spec is None:
            raise SettingError(t("setting.unknown", key=clipped(key)))
        try:
            changes[key] = spec.parse(raw)
        except BadValue as error:
            raise bad_value(key, raw, error.reason) from None
    return changes


def bad_value(key: str, raw: str, reason: Message) -> SettingError:
    """The refusal of a value a key does not take, echoing what was typed (clipped)."""
    return SettingError(t("setting.bad", key=key, value=clipped(raw), reason=reason))




# Properties of a ladder in its chat, not rules: they never enter the event log.
PROPERTIES: dict[str, str] = {"public": N_("key.public"), "channel": N_("key.channel"),
                              "mod_role": N_("key.mod_role")}


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
                properties[key] = parse_bool(raw)
            except BadValue as error:
                raise bad_value(key, raw, error.reason) from None
        elif raw.lower() in ("none", "off") and key == "mod_role":
            properties[key] = ""
        elif is_digits(raw) and len(raw) <= 20:
            properties[key] = raw
        else:
            raise bad_value(key, raw, t("value.discord_id"))
    return rules, properties


def validate(settings: Settings, given: Iterable[str] = ()) -> Settings:
    """Check combinations no single key can check, and that the keys `given` configure
    this ladder's rulebook; return the settings unchanged."""
    for key in given:
        group = GROUP_OF.get(key)
        if group in FORMULA_GROUPS and (settings.is_position or settings.formula != group):
            rates = t("rates.position") if settings.is_position else t(_RATES[settings.formula])
            raise SettingError(t("setting.wrong_rulebook", key=key, group=group, rates=rates))
        if group == "challenges" and key != "challenges" and not settings.challenges:
            raise SettingError(t("setting.no_challenges", key=key))
    if settings.family == "rating" and settings.formula in ("fame", "zero_sum", "banded") \
            and not settings.whole:
        raise SettingError(t("setting.whole_only", formula=settings.formula))
    if settings.floor is not None and settings.start < settings.floor:
        raise SettingError(t("setting.start_below_floor", start=format_value(settings.start),
                             floor=format_value(settings.floor)))
    if settings.period != "game" and settings.formula != "glicko2":  # (kept from a preset)
        raise SettingError(t("setting.period_glicko"))
    if "season" in settings.tables and settings.family == "position":
        raise SettingError(t("setting.no_season_position"))
    if settings.bestof_rating == "games" and (settings.is_position or settings.formula
                                              in ("fame", "glicko2", "openskill")):
        raise SettingError(t("setting.bestof_games"))
    _check_queue(settings)
    return settings


def _check_queue(settings: Settings) -> None:
    """A queue forms matches of two teams balanced by rating: a rating ladder that
    rates such a match (a team game, for more than one a side)."""
    if settings.queue is None:
        return
    if settings.is_position:
        raise SettingError(t("setting.queue_position"))
    if not queue_fits(settings, team_size(settings.queue)):
        raise SettingError(t("setting.queue_teams", queue=settings.queue))


def queue_fits(settings: Settings, size: int) -> bool:
    """Whether the ladder rates the matches of a queue of `size` a side."""
    sample = Result((tuple(range(size)), tuple(range(size, 2 * size))))
    return shape_refusal(settings, sample, "") is None


def describe(settings: Settings) -> str:
    """A one-line summary of the settings that differ from the preset (`key=value`, as
    they are written in every language)."""
    base = preset(settings.preset) if settings.preset in PRESETS else Settings()
    diffs = []
    for spec in _SPECS:
        value = getattr(settings, spec.key)
        if value != getattr(base, spec.key):
            diffs.append(f"{spec.key}={format_value(value)}")
    return ", ".join(diffs)


# What a switch of rulebook keeps of a ladder's settings (`/ladder set preset=`, and the
# what-if of one): how its community reports, speaks, queues and keeps its tables. No
# preset sets these and no rulebook reads them; everything else is the new preset's.
KEPT_ON_SWITCH = ("confirm", "confirm_hours", "timezone", "language", "queue",
                  "ready_seconds", "queue_minutes", "bestof", "season_min_games",
                  "week_min_games", "week_days", "active_days", "hall_of_fame",
                  "weekly_summary", "challenge_hours", "play_hours", "reminder_hours",
                  "margin_required")


def switched(ladder: Settings, to: Settings, options: Iterable[tuple[str, str]],
             refused: str) -> Settings:
    """The settings `to` (a preset's) with what a switch keeps of `ladder`'s, then the
    `key=value` rule options; a ladder property among them is refused (`refused` says
    it, naming the key)."""
    rules, properties = split_properties(options)
    if properties:
        raise SettingError(t(refused, key=next(iter(properties))))
    changes = parse_settings(rules)
    kept = to.with_changes({key: getattr(ladder, key) for key in KEPT_ON_SWITCH})
    return validate(kept.with_changes(changes), changes)
