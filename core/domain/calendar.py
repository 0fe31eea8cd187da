"""Local days and months of a ladder's time zone, from timestamps passed in.

Nothing here reads a clock. Daily jobs run at 00:00 local time; a day's start is the
first instant whose local date is that day, which also covers zones where midnight
is skipped by a daylight-saving change.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from functools import lru_cache
from zoneinfo import ZoneInfo

import numpy as np
import numpy.typing as npt

from core.domain.model import Timestamp

DAY = 86_400
HOUR = 3_600


@lru_cache(maxsize=64)
def zone(name: str) -> ZoneInfo:
    """The ZoneInfo of a time zone name (cached)."""
    return ZoneInfo(name)


def local(at: Timestamp, tz: str) -> datetime:
    """The local date and time of an instant."""
    return datetime.fromtimestamp(at, zone(tz))


_EPOCH_DAY = date(1970, 1, 1).toordinal()


def local_day(at: Timestamp, tz: str) -> int:
    """The local date of an instant, as a day number (`date.toordinal`)."""
    return local(at, tz).date().toordinal()


def local_days(times: npt.NDArray[np.int64], tz: str) -> npt.NDArray[np.int64]:
    """`local_day` of many instants at once: by the UTC offset of their hour where it
    holds all hour long, by `local_day` itself in an hour with a clock change."""
    hours, where = np.unique(times // HOUR, return_inverse=True)
    place = zone(tz)
    starts: list[int] = []
    ends: list[int] = []
    for hour in hours.tolist():
        for found, at in ((starts, hour * HOUR), (ends, hour * HOUR + HOUR - 1)):
            offset = datetime.fromtimestamp(at, place).utcoffset()
            found.append(int(offset.total_seconds()) if offset is not None else 0)
    first = np.asarray(starts, dtype=np.int64)
    days = (times + first[where]) // DAY + _EPOCH_DAY
    for i in np.flatnonzero((first != np.asarray(ends, dtype=np.int64))[where]).tolist():
        days[i] = local_day(int(times[i]), tz)
    return days


def month_label(at: Timestamp, tz: str) -> str:
    """The local calendar month of an instant, as YYYY-MM."""
    return local(at, tz).strftime("%Y-%m")


def next_month(label: str) -> str:
    """The month after a YYYY-MM label."""
    year, month = int(label[:4]), int(label[5:7])
    return f"{year + month // 12:04d}-{month % 12 + 1:02d}"


# The seasons that follow early closes within one month: 2026-01b, 2026-01c, ...
_SUFFIXES = "bcdefghijklmnopqrstuvwxyz"


def season_after(label: str, at: Timestamp, tz: str) -> str:
    """The label of the season that starts when season `label` closes at `at`.

    RULES.md, "Seasons after an early close": the new season is labelled like the month
    it runs in, with a letter after an early close in that month (`2026-01b`), so no
    label is used twice; it still ends on the 1st.
    """
    month = month_label(at, tz)
    if label[:7] != month:  # closed on (or caught up after) the 1st
        return month
    suffix = label[7:]
    if not suffix:
        return month + _SUFFIXES[0]
    place = _SUFFIXES.find(suffix)
    if 0 <= place < len(_SUFFIXES) - 1:
        return month + _SUFFIXES[place + 1]
    count = int(suffix[1:] or "1") + 1 if suffix.startswith("z") else 2
    return f"{month}z{count}"  # past 25 early closes in a month: 2026-01z2, z3, ...


def season_month(label: str) -> str:
    """The calendar month (YYYY-MM) a season label runs in."""
    return label[:7]


def previous_month(label: str) -> str:
    """The month before a YYYY-MM label."""
    year, month = int(label[:4]), int(label[5:7])
    return f"{year - 1:04d}-12" if month == 1 else f"{year:04d}-{month - 1:02d}"


def day_start(day: date, tz: str) -> Timestamp:
    """The instant local `day` begins (00:00, or the first instant after a skipped midnight)."""
    instant = int(datetime(day.year, day.month, day.day, tzinfo=zone(tz)).timestamp())
    # With fold=0 a skipped midnight maps to the instant just after the gap; if the
    # offset change makes it land on the previous local day, step forward an hour.
    while local(instant, tz).date() < day:
        instant += HOUR
    return instant


def midnights(after: Timestamp, upto: Timestamp, tz: str) -> list[tuple[Timestamp, date]]:
    """Every local day start in (after, upto], with its date, in time order."""
    found: list[tuple[Timestamp, date]] = []
    day = local(after, tz).date()
    while True:
        day = day + timedelta(days=1)
        start = day_start(day, tz)
        if start > upto:
            return found
        if start > after:
            found.append((start, day))


def iso(at: Timestamp) -> str:
    """An instant as ISO 8601 in UTC, to the second."""
    return datetime.fromtimestamp(at, UTC).isoformat()


# The instants the bot reads (the console's `!time`, `export --at`): from 1970 to the end
# of 2999, so that every date computed from them (the next midnight in any time zone, the
# next month) exists; Python's dates end with 9999.
LATEST_INSTANT: Timestamp = 32_503_680_000  # 3000-01-01T00:00:00Z
INSTANTS = "from 1970 to 2999"


def parse_instant(text: str) -> Timestamp:
    """Read an ISO 8601 instant; one without an offset is taken as UTC. ValueError for
    anything else, and for an instant outside INSTANTS."""
    parsed = datetime.fromisoformat(text.strip())
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=UTC)
    at = int(parsed.timestamp())
    if not 0 <= at < LATEST_INSTANT:
        raise ValueError(f"an instant {INSTANTS}")
    return at
