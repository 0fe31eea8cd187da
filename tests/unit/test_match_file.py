"""Reading a match CSV (issue 54, CONSOLE.md): the matches a good file gives, and each bad
file refused before anything is written, naming its line and why."""

from __future__ import annotations

import pytest

from core.domain.match_file import FileMatch, FileRefused, check_shapes, read_match_file
from core.domain.model import Margin
from core.domain.settings import preset
from core.i18n import render

HEADER = "played_at,players,result,score\n"
T = "2026-01-05T10:00:00+00:00"


def test_a_file_of_every_kind_of_match() -> None:
    data = (HEADER + f"{T},alice vs bob,1,2-1\n"
            "2026-01-05T11:00:00+01:00,bob vs carol,2,0-2\n"  # (an hour east: 10:00 UTC)
            f"{T},alice+carol vs bob+dan,draw,\n"
            "\n"
            f"{T},alice > bob > carol,,\n").encode()
    at = 1767607200  # 2026-01-05T10:00:00Z
    assert read_match_file(b"\xef\xbb\xbf" + data) == [
        FileMatch(2, at, (("alice",), ("bob",)), "alice", score=(2, 1)),
        FileMatch(3, at, (("carol",), ("bob",)), "bob", score=(2, 0)),
        FileMatch(4, at, (("alice", "carol"), ("bob", "dan")), "alice", draw=True),
        FileMatch(6, at, (("alice",), ("bob",), ("carol",)), "alice")]


def test_the_optional_columns() -> None:
    data = ("played_at,players,result,margin,moves,unrated,note\n"
            f"{T},a vs b,1,Major,40,true,\"a note, with a comma\"\n").encode()
    [match] = read_match_file(data)
    assert (match.margin, match.moves, match.rated) == (Margin.MAJOR, 40, False)


def _why(data: bytes) -> tuple[int, str]:
    with pytest.raises(FileRefused) as refused:
        read_match_file(data)
    return refused.value.line, render(refused.value.reason, "en")


@pytest.mark.parametrize(("lines", "line", "why"), [
    (["played_at,players,winner\n"], 1, "Line 1: the header must name the columns "
     "played_at,players,result, and may add score,margin,moves,unrated,note, each once."),
    ([HEADER, f"{T},a vs b,1,\n", "05/01/2026,a vs b,1,\n"], 3,
     "Line 3: played_at 05/01/2026 is not an ISO 8601 time with its offset"),
    ([HEADER, "2026-01-05T10:00:00,a vs b,1,\n"], 2, "is not an ISO 8601 time with its offset"),
    ([HEADER, f"{T},a vs b,won,\n"], 2,
     "Line 2: result won is none of 1 (the first side won), 2 or draw."),
    ([HEADER, f"{T},a vs b,,\n"], 2, "a match of two sides needs its result"),
    ([HEADER, f"{T},a+b vs c+a,1,\n"], 2,
     "Line 2: a is on the line twice: a player plays on one side."),
    ([HEADER, f"{T},a > b,1,\n"], 2, "a free-for-all (names joined by \" > \") has no result"),
    ([HEADER, f"{T},a vs b vs c,1,\n"], 2, "players a vs b vs c is neither two sides"),
    ([HEADER, f"{T},a vs ,1,\n"], 2, "players a vs is neither"),
    ([HEADER, f"{T},a vs b,1,1-2\n"], 2, "score 1-2 is not the games each side won"),
    ([HEADER, f"{T},a vs b,1,\n", "2026-01-04T10:00:00+00:00,a vs b,1,\n"], 3,
     "Line 3: it is earlier than line 2: the matches go in the order played."),
    ([HEADER, f"{T},a vs b,1\n"], 2, "Line 2: 3 cells where the header has 4."),
    ([HEADER, f"{T},a vs b,1,,extra\n"], 2, "Line 2: 5 cells where the header has 4."),
    ([HEADER, f"{T},\"a vs b,1,\n"], 2, "this is not CSV"),
    ([], 1, "Line 1: the file is empty"),
])
def test_a_bad_line_is_refused_naming_it(lines: list[str], line: int, why: str) -> None:
    found, said = _why("".join(lines).encode())
    assert found == line and why in said, said


def test_a_ten_megabyte_line_is_refused_before_it_is_read() -> None:
    data = (HEADER + f"{T},a vs b,1,\n" + f"{T}," + "x" * 10_000_000 + " vs b,1,\n").encode()
    assert _why(data) == (3, "Line 3: the line is longer than 10,000 characters.")


def test_a_file_that_is_not_utf8_is_refused_at_its_line() -> None:
    data = (HEADER + f"{T},a vs b,1,\n").encode() + f"{T},Jos\xe9 vs b,1,\n".encode("latin-1")
    assert _why(data) == (3, "Line 3: the file is not UTF-8 text (a spreadsheet saves it as "
                             "\"CSV UTF-8\").")


def test_what_the_ladders_rulebook_does_not_take_is_refused_at_its_line() -> None:
    matches = read_match_file((HEADER + f"{T},a vs b,1,\n{T},a > b > c,,\n"
                               f"{T},a+b vs c+d,1,\n").encode())
    with pytest.raises(FileRefused) as refused:
        check_shapes(matches, preset("duel"), "main")
    assert render(refused.value.reason, "en") == "Line 3: main rates one-on-one games only."
    check_shapes(matches[1:2], preset("fame"), "ffa")  # (fame takes free-for-alls)
    with pytest.raises(FileRefused) as refused:
        check_shapes(matches[:1], preset("nhwc"), "rungs")
    assert refused.value.line == 2 and "needs each match's margin" in render(
        refused.value.reason, "en")
