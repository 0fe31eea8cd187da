"""How each kind of setting's value is read: numbers within their range, choices, yes
or no, bands, tables, time zones, best-of-N, leagues and queue sizes, each refused with
what it takes (core.domain.setting_keys says which key reads which)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from core.domain.numerals import parse_int, parse_number
from core.domain.settings import (
    MAX_BESTOF,
    TABLE_NAMES,
    TIMEZONE_LENGTH,
    Bands,
)
from core.i18n import N_, Message, Number, joined, t


class BadValue(ValueError):
    """A value a key does not take, and why (a clause: "expected true or false")."""

    def __init__(self, reason: Message) -> None:
        super().__init__(str(reason))
        self.reason = reason


@dataclass(frozen=True, slots=True)
class Range:
    """The values a number setting takes: `low` to `high` (`low` itself excluded when
    `above`), whole numbers only when `whole`."""

    low: float
    high: float
    above: bool = False
    whole: bool = False
    why: Message = ""  # said after the range, where the upper bound needs a reason

    def text(self) -> Message:
        """The range in words: 'a number above 0, at most 1,000'."""
        code = {(False, False): N_("range.from"), (False, True): N_("range.above"),
                (True, False): N_("range.whole_from"), (True, True): N_("range.whole_above")}
        return joined(t(code[self.whole, self.above], low=Number(self.low),
                        high=Number(self.high)), self.why)

    def parse(self, text: str) -> Any:
        """The value of `text`, or BadValue naming the range."""
        try:
            value: float = parse_int(text) if self.whole else parse_number(text)
        except ValueError:
            raise BadValue(t("value.range", range=self.text())) from None
        if value < self.low or (self.above and value == self.low) or value > self.high:
            raise BadValue(t("value.range", range=self.text()))
        return value


def parse_bool(text: str) -> bool:
    low = text.lower()
    if low in ("true", "yes", "on", "1"):
        return True
    if low in ("false", "no", "off", "0"):
        return False
    raise BadValue(t("value.bool"))


parse_bool = parse_bool  # (a key's bool, for the keys read elsewhere: champion_role)


def or_none(parse: Callable[[str], Any]) -> Callable[[str], Any]:
    def inner(text: str) -> Any:
        return None if text.lower() in ("none", "off", "no") else parse(text)

    return inner


def choice(*options: str) -> Callable[[str], str]:
    def inner(text: str) -> str:
        if text not in options:
            raise BadValue(t("value.one_of", options=", ".join(options)))
        return text

    return inner


def bands(at: Range, value: Range, example: str) -> Callable[[str], Bands]:
    def inner(text: str) -> Bands:
        if text.lower() in ("none", ""):
            return ()
        bands = []
        for part in text.split(","):
            threshold, colon, amount = part.partition(":")
            if not colon:
                raise BadValue(t("value.bands", example=example))
            try:
                bands.append((float(at.parse(threshold)), float(value.parse(amount))))
            except BadValue as error:
                raise BadValue(t("value.in_part", part=clipped(part), reason=error.reason)
                               ) from None
        return tuple(sorted(bands))

    return inner


def parse_tables(text: str) -> tuple[str, ...]:
    if text.lower() == "none":
        return ()
    names = tuple(dict.fromkeys(t.strip() for t in text.split(",")))
    if any(n not in TABLE_NAMES for n in names):
        raise BadValue(t("value.tables", tables=", ".join(TABLE_NAMES)))
    return names


def parse_timezone(text: str) -> str:
    if len(text) > TIMEZONE_LENGTH:
        raise BadValue(t("value.timezone_long", length=TIMEZONE_LENGTH))
    try:
        ZoneInfo(text)
    except (ZoneInfoNotFoundError, ValueError, OSError):  # OSError: a name no file can have
        raise BadValue(t("value.timezone")) from None
    return text


def parse_bestof(text: str) -> int:
    try:
        value = parse_int(text)
    except ValueError:
        value = 0
    if value < 3 or value > MAX_BESTOF or value % 2 == 0:
        raise BadValue(t("value.bestof", max=MAX_BESTOF))
    return value


QUEUE_SIZES = tuple(f"{n}v{n}" for n in range(1, 6))


def team_size(queue: str) -> int:
    """The players of one team in a queue's match: 2 for `2v2`."""
    return int(queue.partition("v")[0])


def parse_leagues(text: str) -> tuple[tuple[float, str], ...]:
    # Only `none` fits on a chat line; named leagues are set in config.toml.
    if text.lower() == "none":
        return ()
    raise BadValue(t("value.leagues"))


def clipped(raw: str) -> str:
    """A typed value as a refusal echoes it: at most 40 characters."""
    return raw if len(raw) <= 40 else raw[:40] + "..."
