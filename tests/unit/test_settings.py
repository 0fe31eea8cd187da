"""Presets and `key=value` settings."""

import pytest

from core.domain.errors import SettingError
from core.domain.setting_keys import SETTING_SPECS, describe, parse_settings, validate
from core.domain.settings import PRESETS, Settings, preset


def test_the_seven_presets_exist() -> None:
    """The five of the first release and RULES.md's §6 and §7."""
    assert sorted(PRESETS) == ["duel", "dutch", "fame", "glicko2", "nhwc", "openskill",
                               "warlight"]


@pytest.mark.parametrize(
    ("name", "start", "family"),
    [("warlight", 1200, "rating"), ("fame", 1000, "rating"), ("duel", 1000, "rating"),
     ("nhwc", 1000, "position"), ("dutch", 0, "rating")],
)
def test_presets_start_and_family(name: str, start: float, family: str) -> None:
    s = preset(name)
    assert s.family == family
    if family == "rating":
        assert s.start == start


def test_unknown_preset_lists_the_choices() -> None:
    with pytest.raises(SettingError, match="one of: warlight, fame, duel, nhwc, dutch, glicko2, "
                                           "openskill"):
        preset("chess")


def test_community_mix_duel_with_k24_and_no_floor() -> None:
    changes = parse_settings([("k", "24"), ("floor", "none"), ("confirm", "false")])
    s = validate(preset("duel").with_changes(changes))
    assert (s.k, s.floor, s.confirm) == (24.0, None, False)
    assert describe(s) == "confirm=false, k=24, floor=none"


@pytest.mark.parametrize(
    ("key", "value", "field_value"),
    [("ffa", "placement", "placement"), ("timezone", "Europe/Amsterdam", "Europe/Amsterdam"),
     ("k_bands", "2100:24,2400:16", ((2100.0, 24.0), (2400.0, 16.0))),
     ("tables", "season,week", ("season", "week")), ("series_hours", "off", None),
     ("challenge_hours", "48", 48.0), ("confirm_hours", "720", 720.0)],
)
def test_values_are_parsed(key: str, value: str, field_value: object) -> None:
    assert parse_settings([(key, value)]) == {key: field_value}


@pytest.mark.parametrize(
    ("key", "value", "message"),
    [("colour", "red", "no setting called 'colour'"),
     ("confirm", "maybe", "confirm=maybe: expected true or false"),
     ("timezone", "Mars/Olympus", "expected a time zone"),
     ("k", "-3", "expected a number above 0"),
     ("k", "nan", "k=nan"),
     ("ffa", "chaos", "expected one of winner_takes_all, placement"),
     ("tables", "monthly", "expected tables from season, week, ladder"),
     ("k_bands", "2100", "expected bands like"),
     ("calibration", "five", "expected a whole number"),
     ("confirm_hours", "721", r"expected a number above 0, at most 720 \(30 days\): anti-farming")],
)
def test_bad_values_are_refused_with_a_reason(key: str, value: str, message: str) -> None:
    with pytest.raises(SettingError, match=message):
        parse_settings([(key, value)])


def test_every_setting_key_is_a_field() -> None:
    fields = set(Settings.__dataclass_fields__)
    assert set(SETTING_SPECS) <= fields


def test_start_below_floor_is_refused() -> None:
    with pytest.raises(SettingError, match="below floor"):
        validate(preset("duel").with_changes({"start": 700.0}))
