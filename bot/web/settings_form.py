"""The moderator page's settings form (issue 55): every key `/ladder set` takes for this
ladder, grouped as `/help settings` groups them, each with its value, meaning and range in
the ladder's language. What the form changed is sent as `/ladder set`'s own typed command
(`ChangeSettings`), so its refusals are the chat's, in the same words.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from core.commands.ladders import ChangeSettings
from core.domain.records import LadderInfo
from core.domain.setting_keys import (
    FORMULA_GROUPS,
    PROPERTIES,
    SETTING_GROUPS,
    SETTING_SPECS,
)
from core.domain.setting_values import parse_bool
from core.domain.settings import Settings, format_value
from core.i18n import render, t
from core.service.session import DISCORD

FIELD = "set."  # a field's name: FIELD + its key
MOST_VALUE = 200  # characters a field may hold (the longest, `leagues`, needs ~100)


def _groups(settings: Settings) -> list[tuple[str, tuple[str, ...]]]:
    """The groups of keys this ladder takes (a formula's keys only on its own ladder, as
    `/ladder set` refuses the others), each with its title's code."""
    return [(title, keys) for group, title, keys in SETTING_GROUPS
            if group not in FORMULA_GROUPS
            or (not settings.is_position and settings.formula == group)]


def current(ladder: LadderInfo) -> dict[str, str]:
    """Every key of the form with its value as `key=value` writes it."""
    values = {key: format_value(getattr(ladder.settings, key))
              for _, keys in _groups(ladder.settings) for key in keys}
    for key in _properties(ladder):
        value = getattr(ladder, key)
        values[key] = format_value(None if value == "" else value)
    return values


def fields(ladder: LadderInfo) -> list[dict[str, Any]]:
    """The form's groups, each a title and its fields (key, value, meaning, range, and
    whether it is a yes/no), in the ladder's language."""
    language, values = ladder.settings.language, current(ladder)
    shown = []
    for title, keys in _groups(ladder.settings):
        shown.append({"title": render(t(title), language), "fields": [
            {"key": key, "value": values[key], "help": render(SETTING_SPECS[key].help, language),
             "range": render(spec_range.text(), language)
             if (spec_range := SETTING_SPECS[key].range) else "",
             "yes_no": SETTING_SPECS[key].parse is parse_bool}
            for key in keys if SETTING_SPECS[key].changeable]})
    shown.append({"title": render(t("help.properties"), language), "fields": [
        {"key": key, "value": values[key], "help": render(t(code), language), "range": "",
         "yes_no": key == "public"} for key, code in _properties(ladder).items()]})
    return shown


def _properties(ladder: LadderInfo) -> dict[str, str]:
    """The ladder's properties in its chat, with their meanings' codes: a channel and a
    moderators' role are Discord's."""
    if ladder.chat.startswith(DISCORD):
        return PROPERTIES
    return {key: code for key, code in PROPERTIES.items() if key not in DISCORD_ONLY}


DISCORD_ONLY = ("channel", "mod_role")


def changed(ladder: LadderInfo, form: Mapping[str, str]) -> ChangeSettings | None:
    """`/ladder set` with the values the form changed (an emptied field: none), or None
    when the form names a key it does not show (a forged form)."""
    values = current(ladder)
    options = []
    for name, raw in form.items():
        if not name.startswith(FIELD):
            continue
        key = name.removeprefix(FIELD)
        if key not in values:
            return None
        typed = " ".join(raw.split())[:MOST_VALUE] or "none"
        if typed != values[key]:
            options.append((key, typed))
    return ChangeSettings(tuple(options))
