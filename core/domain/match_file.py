"""Reading a match CSV (CONSOLE.md, "`ladderbot import` and the match CSV") into matches
by name, or refusing the file before anything is written, naming the line and why.

Pure: the import (core.service) turns names into players and the matches into the
ladder's history; what a rulebook takes (teams, free-for-alls) is its own check there.
"""

from __future__ import annotations

import csv
import re
from dataclasses import dataclass
from datetime import datetime

from core.domain.calendar import parse_instant
from core.domain.errors import LadderError
from core.domain.model import Margin, Result, Timestamp
from core.domain.settings import MAX_BESTOF, MAX_MOVES, Settings
from core.domain.shape import played_refusal
from core.i18n import N_, Message, Number, t

REQUIRED = ("played_at", "players", "result")
OPTIONAL = ("score", "margin", "moves", "unrated", "note")
VERSUS, TEAMMATE, AHEAD = " vs ", "+", " > "  # between sides, in a side, in a finishing order
MAX_LINE = 10_000  # characters of a line: a match of 100 players' names fits
NAME_MOST = 64  # characters of a player's name: /claim NAME types it again
SCORE = re.compile(r"(\d{1,3})-(\d{1,3})")


class FileRefused(LadderError):
    """A match file that cannot be imported: the line (1: the header) and why."""

    def __init__(self, line: int, why: Message) -> None:
        super().__init__(t("csv.refused", line=line, why=why))
        self.line = line
        self.why = why


@dataclass(frozen=True, slots=True)
class FileMatch:
    """One line's match, its players by name: sides in finishing order (the winner's
    first unless a draw), as a Result keeps them; `reporter` the first name written."""

    line: int
    at: Timestamp
    sides: tuple[tuple[str, ...], ...]
    reporter: str
    draw: bool = False
    score: tuple[int, int] | None = None  # the winner's games first
    margin: Margin | None = None
    moves: int | None = None
    rated: bool = True


def read_match_file(data: bytes) -> list[FileMatch]:
    """Every match of a match CSV, in order; FileRefused at the first line that fails."""
    lines = _text(data).splitlines(keepends=True)
    for number, line in enumerate(lines, 1):
        if len(line) > MAX_LINE:
            raise FileRefused(number, t("csv.long_line", most=Number(MAX_LINE)))
    rows = csv.reader(lines, strict=True)
    try:
        header = [name.strip() for name in next(rows)]
    except StopIteration:
        raise FileRefused(1, t("csv.empty")) from None
    except csv.Error as error:
        raise FileRefused(1, t("csv.unreadable", error=str(error))) from None
    columns = _columns(header)
    found: list[FileMatch] = []
    while True:
        try:
            row = next(rows)
        except StopIteration:
            return found
        except csv.Error as error:
            raise FileRefused(rows.line_num, t("csv.unreadable", error=str(error))) from None
        if not any(cell.strip() for cell in row):
            continue  # (a blank line)
        match = _match(rows.line_num, dict(zip(columns, row, strict=False)), len(row),
                       len(columns))
        if found and match.at < found[-1].at:
            raise FileRefused(match.line, t("csv.out_of_order", before=found[-1].line))
        found.append(match)


def _text(data: bytes) -> str:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise FileRefused(data[:error.start].count(b"\n") + 1, t("csv.not_utf8")) from None
    return text.removeprefix("\ufeff")  # (a spreadsheet's byte-order mark)


def _columns(header: list[str]) -> list[str]:
    unknown = [name for name in header if name not in REQUIRED + OPTIONAL]
    missing = [name for name in REQUIRED if name not in header]
    if unknown or missing or len(set(header)) != len(header):
        raise FileRefused(1, t("csv.header", required=",".join(REQUIRED),
                               optional=",".join(OPTIONAL)))
    return header


def _match(line: int, cells: dict[str, str], count: int, expected: int) -> FileMatch:
    if count != expected:
        raise FileRefused(line, t("csv.cells", cells=count, expected=expected))
    value = {k: v.strip() for k, v in cells.items()}
    at = _instant(line, value["played_at"])
    sides, ffa = _sides(line, value["players"])
    names = [name for side in sides for name in side]
    if (long := next((name for name in names if len(name) > NAME_MOST), None)) is not None:
        raise FileRefused(line, t("csv.name_long", name=long[:NAME_MOST] + "…",
                                  most=Number(NAME_MOST)))
    if len(set(names)) != len(names):
        twice = next(name for name in names if names.count(name) > 1)
        raise FileRefused(line, t("csv.twice", name=twice))
    result = value["result"].lower()
    if ffa and result:
        raise FileRefused(line, t("csv.result_ffa", result=value["result"]))
    if not ffa and result not in ("1", "2", "draw"):
        raise FileRefused(line, t("csv.result", result=value["result"]) if result
                          else t("csv.result_missing"))
    if result == "2":
        sides = sides[::-1]
    draw = result == "draw"
    score = _score(line, value.get("score", ""), result, ffa)
    return FileMatch(line, at, sides, names[0], draw, score,
                     _margin(line, value.get("margin", ""), draw),
                     _moves(line, value.get("moves", "")),
                     not _flag(line, value.get("unrated", "")))


def _instant(line: int, raw: str) -> Timestamp:
    """`played_at`: as the bot reads any instant, but with its offset written."""
    try:
        if datetime.fromisoformat(raw).tzinfo is not None:
            return parse_instant(raw)
    except ValueError:
        pass
    raise FileRefused(line, t("csv.played_at", value=raw))


def _sides(line: int, raw: str) -> tuple[tuple[tuple[str, ...], ...], bool]:
    """The sides as written, and whether they are a free-for-all's finishing order."""
    ffa = AHEAD in raw
    if ffa and VERSUS in raw:
        raise FileRefused(line, t("csv.players", value=raw))
    parts = raw.split(AHEAD) if ffa else raw.split(VERSUS)
    sides = tuple(tuple(name.strip() for name in part.split(TEAMMATE)) for part in parts)
    if len(sides) < 2 or (not ffa and len(sides) != 2) or \
            any(not name for side in sides for name in side) or \
            (ffa and any(len(side) > 1 for side in sides)):
        raise FileRefused(line, t("csv.players", value=raw))
    return sides, ffa


def _score(line: int, raw: str, result: str, ffa: bool) -> tuple[int, int] | None:
    """The score written with the first side's games first, kept the winner's first."""
    if not raw:
        return None
    found = SCORE.fullmatch(raw)
    if ffa or found is None:
        raise FileRefused(line, t("csv.score", value=raw, max=MAX_BESTOF))
    first, second = int(found[1]), int(found[2])
    agrees = {"1": first > second, "2": second > first, "draw": first == second}[result]
    if not agrees or max(first, second) > MAX_BESTOF:
        raise FileRefused(line, t("csv.score", value=raw, max=MAX_BESTOF))
    return (second, first) if result == "2" else (first, second)


def _margin(line: int, raw: str, draw: bool) -> Margin | None:
    if not raw:
        return None
    try:
        margin = Margin(raw.lower())
    except ValueError:
        raise FileRefused(line, t("csv.margin", value=raw)) from None
    if draw:
        raise FileRefused(line, t("result.draw_margin"))
    return margin


def _moves(line: int, raw: str) -> int | None:
    if not raw:
        return None
    if not raw.isascii() or not raw.isdigit() or not 0 < int(raw) <= MAX_MOVES:
        raise FileRefused(line, t("csv.moves", value=raw, most=Number(MAX_MOVES)))
    return int(raw)


def _flag(line: int, raw: str) -> bool:
    if raw.lower() in ("", "false"):
        return False
    if raw.lower() == "true":
        return True
    raise FileRefused(line, t("csv.unrated", value=raw))


def check_shapes(matches: list[FileMatch], settings: Settings, ladder: str) -> None:
    """Refuse, at its line, the first match the ladder's rulebook does not take (a team
    game where it has none, a free-for-all on a one-on-one ladder, a score it cannot)."""
    seen: set[tuple[object, ...]] = set()  # shapes taken (a long file has a few)
    for match in matches:
        shape = (tuple(len(side) for side in match.sides), match.draw, match.margin,
                 match.moves, match.rated, match.score)
        if shape in seen:
            continue
        seen.add(shape)
        ids = {name: i for i, name in enumerate(name for side in match.sides for name in side)}
        result = Result(tuple(tuple(ids[name] for name in side) for side in match.sides),
                        match.draw, match.margin, match.moves, match.rated, match.score)
        refusal = played_refusal(settings, result, ladder, N_("csv.margin_needed"))
        if refusal is not None:
            raise FileRefused(match.line, refusal)
