"""`ladderbot console` and `ladderbot export` as CONSOLE.md specifies, run as a user would.
(scripts of corrected histories: test_console_corrections.py)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.support.console import DUEL_START, ROOT, console, export, ladderbot, read_export
from tests.support.corrected_scripts import DUEL


def test_hook_smoke_script(tmp_path: Path) -> None:
    out = console(tmp_path / "l.db", "!time 2026-01-05T10:00:00+00:00\n"
                  "@mod: /ladder create main preset=duel confirm=false\n"
                  "@a: /join\n@b: /join\n@a: /report win @b\n")
    assert "bot: Match #1: a beat b. a 1000 -> 1016 (+16), b 1000 -> 984 (-16)." in out
    data = export(tmp_path / "l.db", "2026-01-05T11:00:00+00:00")
    assert {p["name"]: p["rating"] for p in data["players"]} == {"a": 1016, "b": 984}


def test_every_line_the_bot_says_starts_with_bot(tmp_path: Path) -> None:
    out = console(tmp_path / "l.db", "!time 2026-01-05T10:00:00+00:00\n"
                  "# a comment\n\n@mod: /ladder create main preset=duel\n@a: /help\n"
                  "@a: hello, just chatting\n")
    lines = out.splitlines()
    assert lines and all(line.startswith("bot: ") for line in lines)
    assert "bot: Commands:" in lines


def test_export_contract_keys(tmp_path: Path) -> None:
    db = tmp_path / "l.db"
    console(db, "!time 2026-01-05T10:00:00+00:00\n"
            "@mod: /ladder create main preset=duel confirm=false\n"
            "@alice: /join\n@bob: /join\n@alice: /report win @bob\n@bob: /report draw @alice\n")
    data = export(db, "2026-01-05T12:00:00+00:00")
    assert data["ladder"] == "main" and data["preset"] == "duel"
    assert set(data) >= {"ladder", "preset", "players", "tables", "hall_of_fame", "matches"}
    alice = data["players"][0]
    # +16, then a draw 32 apart moves round(32 * (0.5459 - 0.5)) = 1 point to bob
    assert alice == {"name": "alice", "rating": 1015, "rung": None, "games": 2,
                     "rated_games": 2, "wins": 1, "losses": 0, "draws": 1,
                     "league": "Calibration", "provisional": True}
    assert list(data["tables"]) == ["season", "week", "ladder"]
    assert data["matches"][0]["id"] == 1 and data["matches"][0]["status"] == "confirmed"
    assert data["matches"][0]["rated"] is True


def test_export_of_a_position_ladder_and_a_ladder_without_tables(tmp_path: Path) -> None:
    db = tmp_path / "l.db"
    console(db, "!time 2026-01-05T10:00:00+00:00\n"
            "@mod: /ladder create rungs preset=nhwc\n@mod: /ladder create wl preset=warlight\n"
            "@a: /join ladder=rungs\n@b: /join ladder=rungs\n@a: /join ladder=wl\n")
    rungs = export(db, "2026-01-05T11:00:00+00:00", "rungs")
    assert [(p["name"], p["rung"], p["rating"], p["league"]) for p in rungs["players"]] == \
        [("a", 1, None, None), ("b", 2, None, None)]
    assert rungs["tables"] == {}
    assert export(db, "2026-01-05T11:00:00+00:00", "wl")["players"][0]["rating"] == 1200


def test_same_script_prints_byte_identical_output_twice(tmp_path: Path) -> None:
    script = "\n".join(line for line, _ in DUEL)
    first = console(tmp_path / "one.db", script)
    second = console(tmp_path / "two.db", script)
    assert first == second
    assert first.count("bot: ") > 20


def test_ladderbot_without_arguments_prints_help() -> None:
    done = ladderbot()
    assert done.returncode == 0
    assert "ladderbot console" in done.stdout and "export" in done.stdout


def test_bad_clock_lines_are_explained_and_the_clock_never_goes_back(tmp_path: Path) -> None:
    done = ladderbot("console", "--db", str(tmp_path / "l.db"), stdin=(
        "!time 2026-01-05T10:00:00+00:00\n!time yesterday\n!time 2026-01-04T10:00:00+00:00\n"
        "what is this\n"))
    assert done.returncode == 0 and done.stdout == ""
    assert "!time needs an ISO 8601 instant" in done.stderr
    assert "never moves backwards" in done.stderr
    assert "write lines as '@NAME: TEXT'" in done.stderr


def test_export_of_an_unknown_ladder_or_database(tmp_path: Path) -> None:
    done = ladderbot("export", "--db", str(tmp_path / "none.db"), "--ladder", "main")
    assert done.returncode == 1 and "there is no database" in done.stderr
    console(tmp_path / "l.db", "!time 2026-01-05T10:00:00+00:00\n")
    done = ladderbot("export", "--db", str(tmp_path / "l.db"), "--ladder", "main")
    assert done.returncode == 1 and "no ladder called main" in done.stderr
    done = ladderbot("export", "--db", str(tmp_path / "l.db"), "--ladder", "main", "--at",
                     "yesterday")
    assert done.returncode == 2 and "'yesterday' is not an ISO 8601 instant from 1970 to " \
        "2999, such as 2026-03-01T09:00:00+00:00" in done.stderr


def test_superscript_and_foreign_digits_are_refused_and_the_script_goes_on(
        tmp_path: Path) -> None:
    # '²'.isdigit() is true and int('²') fails; int('٣') is 3: numbers are ASCII digits.
    lines = ["@bob: /confirm ²", "@alice: /withdraw ¹",
             "@alice: /report win @bob moves=²", "@mod: /mod void ² x", "@mod: /mod void ٣ x",
             "@mod: /mod adjust @bob +² x", "@mod: /ladder set channel=²",
             "@mod: /ladder set k=²", "@mod: /ladder set calibration=٣"]
    done = ladderbot("console", "--db", str(tmp_path / "l.db"), "--admin", "mod",
                     stdin=DUEL_START + "\n".join(lines) + "\n@bob: /dispute ³ x\n")
    assert done.returncode == 0 and done.stderr == ""
    replies = done.stdout.split("bot: Match #1 reported")[1].splitlines()[1:]
    assert len(replies) == 2 * 6 + 3 + 1  # a refusal and its usage; three refused settings
    assert replies[:2] == ["bot: I don't understand '²'.", "bot: Usage: /confirm [MATCH_ID]"]
    assert replies[12:15] == ["bot: channel=²: expected a Discord id (digits).",
                              "bot: k=²: expected a number above 0, at most 1,000.",
                              "bot: calibration=٣: expected a whole number from 0 to 1,000."]
    # Not a match id, so the start of a reason: the last line ran, as a dispute.
    assert replies[-1].startswith("bot: Match #1 (alice beat bob) is disputed: ³ x.")


def test_the_clock_stays_within_its_range_and_moves_ten_years_at_most(tmp_path: Path) -> None:
    done = ladderbot("console", "--db", str(tmp_path / "l.db"), stdin=(
        "!time 2026-01-05T10:00:00+00:00\n!time 9999-12-31T23:59:59+00:00\n"
        "!time 2037-01-05T10:00:00+00:00\n!time 2036-01-05T10:00:00+00:00\n"
        "!time 2030-01-05T10:00:00+00:00\n"))
    assert done.returncode == 0, done.stderr
    assert done.stderr.splitlines() == [
        "console: line 2: !time needs an ISO 8601 instant from 1970 to 2999, such as "
        "2026-03-01T09:00:00+00:00, not '9999-12-31T23:59:59+00:00'",
        "console: line 3: !time moves the clock at most 10 years at once (every day's jobs "
        "run on the way); it stays at 2026-01-05T10:00:00+00:00",
        "console: line 5: the clock never moves backwards; it stays at "
        "2036-01-05T10:00:00+00:00"]


def test_bytes_that_are_not_utf8_skip_only_their_line(tmp_path: Path) -> None:
    script = DUEL_START.encode() + b"@bob: /history \xff\xfe\n@bob: /confirm\n"
    done = subprocess.run([sys.executable, "-m", "bot.cli", "console", "--db",
                           str(tmp_path / "l.db"), "--admin", "mod"], input=script,
                          capture_output=True, timeout=120, cwd=ROOT)
    assert done.returncode == 0
    assert done.stderr.decode() == "console: line 6: not valid UTF-8; skipped\n"
    assert "alice 1000 -> 1016 (+16)" in done.stdout.decode()


def test_console_names_are_short_and_hold_no_control_characters(tmp_path: Path) -> None:
    long = "a" * 33
    done = ladderbot("console", "--db", str(tmp_path / "l.db"), "--admin", "mod", stdin=(
        DUEL_START + f"@{long}: /join\n@nul\x00l: /join\n@{'b' * 32}: /join\n"))
    assert done.returncode == 0
    assert done.stderr.splitlines() == [
        f"console: line 6: a name is at most 32 characters, none of them control characters "
        f"(not {long!r}); skipped",
        "console: line 7: a name is at most 32 characters, none of them control characters "
        "(not 'nul\\x00l'); skipped"]
    assert done.stdout.rstrip().endswith(f"bot: {'b' * 32} joined main at 1000. The first 5 "
                                         "rated games calibrate: tables list you after them.")


def test_export_at_an_earlier_instant_shows_the_ladder_as_it_stood(tmp_path: Path) -> None:
    db = tmp_path / "l.db"
    console(db, "!time 2026-01-05T10:00:00+00:00\n"
            "@mod: /ladder create main preset=duel confirm=false\n@a: /join\n@b: /join\n"
            "@a: /report win @b\n!time 2026-01-06T10:00:00+00:00\n@b: /report win @a\n")
    then = export(db, "2026-01-05T12:00:00+00:00")
    assert {p["name"]: p["rating"] for p in then["players"]} == {"a": 1016, "b": 984}
    assert [m["id"] for m in then["matches"]] == [1]



# ------------------------------------------------------------ time on the console

PART_ONE = """\
!time 2026-01-29T10:00:00+00:00
@mod: /ladder create main preset=dutch confirm=false timezone=Europe/Amsterdam
@mod: /ladder create cup preset=duel calibration=0
@mod: /ladder create rungs preset=nhwc
@a: /join
@mod: /mod adjust @a +1000 start
@a: /join ladder=cup
@b: /join ladder=cup
@a: /report win @b ladder=cup
@p1: /join ladder=rungs
@p2: /join ladder=rungs
@p2: /challenge @p1 ladder=rungs
"""

PART_TWO = """\
!time 2026-01-30T10:00:00+00:00
@a: /profile
!time 2026-01-31T12:00:00+00:00
!time 2026-02-02T10:00:00+00:00
@a: /standings
@a: /halloffame ladder=cup
@p1: /standings ladder=rungs
"""


def test_dutch_numbers_across_midnights_on_the_console(tmp_path: Path) -> None:
    out = console(tmp_path / "l.db", """\
!time 2026-01-05T10:00:00+00:00
@mod: /ladder create main preset=dutch confirm=false
@a: /join
@mod: /mod adjust @a +1000 start
!time 2026-01-06T00:00:00+00:00
@a: /profile
!time 2026-01-07T00:00:00+00:00
@a: /profile
!time 2026-01-08T00:00:00+00:00
@a: /profile
""")
    ratings = [line.split("rating ")[1].split(",")[0] for line in out.splitlines()
               if "a on main: rating" in line]
    assert ratings == ["992", "985", "978"]


def test_a_script_split_in_two_runs_ends_as_one_run(tmp_path: Path) -> None:
    split, whole = tmp_path / "split.db", tmp_path / "whole.db"
    console(split, PART_ONE)
    second = console(split, PART_TWO)
    console(whole, PART_ONE + PART_TWO)
    at = "2026-02-03T00:00:00+00:00"
    for ladder in ("main", "cup", "rungs"):
        assert read_export(split, at, ladder) == read_export(whole, at, ladder)
    # what fell due on the way was announced: the auto-confirmation, the reminder, the
    # forfeit and the season close
    assert "is confirmed: no answer within 24 hours" in second
    assert "runs out at" in second and "a forfeit (minor defeat)" in second
    assert "Season 2026-01 of cup is closed" in second
    # the second part again: the reads answer the same, nothing is applied twice
    before = {ladder: read_export(split, at, ladder) for ladder in ("main", "cup", "rungs")}
    again = console(split, PART_TWO)
    assert "closed" not in again and "forfeit" not in again and "confirmed" not in again
    assert {ladder: read_export(split, at, ladder) for ladder in ("main", "cup", "rungs")} == before


async def test_an_unexpected_error_is_apologised_for_and_the_script_goes_on(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    from bot import console as console_module
    from bot.text import APOLOGY
    from core.service.dispatch import handle
    from storage.sqlite.store import SqliteStore

    real = handle  # (what bot.console calls)

    def failing(repo: Any, ctx: Any, text: str, *rest: Any) -> Any:
        if text == "/standings":
            raise OverflowError("math range error")
        return real(repo, ctx, text, *rest)

    monkeypatch.setattr(console_module, "handle", failing)
    out, err = io.StringIO(), io.StringIO()
    async with SqliteStore(":memory:") as store:
        chat = console_module.Console(store, ["mod"], out, err)
        await chat.run(["!time 2026-01-05T10:00:00+00:00",
                        "@mod: /ladder create main preset=warlight",
                        "@alice: /standings", "@alice: /join"])
    said = out.getvalue().splitlines()
    assert said[-2:] == [f"bot: {APOLOGY}", "bot: alice joined main at 1200."]
    assert err.getvalue().startswith("console: line 3: unexpected error\nTraceback")
    assert "OverflowError: math range error" in err.getvalue()


def test_a_second_session_says_where_the_databases_clock_stands(tmp_path: Path) -> None:
    # A later session's `!time` to an earlier instant was accepted without a word, and
    # its lines were stamped at the database's later clock.
    db = str(tmp_path / "l.db")
    first = ladderbot("console", "--db", db, "--admin=mod", stdin=DUEL_START +
                      "!time 2026-01-09T12:00:00+00:00\n")
    assert first.returncode == 0 and "clock stands" not in first.stderr  # (a new file)
    again = ladderbot("console", "--db", db, "--admin=mod",
                      stdin="!time 2026-01-06T10:00:00+00:00\n@alice: /profile\n")
    assert again.stderr.splitlines()[:2] == [
        "console: this database's clock stands at 2026-01-09T12:00:00+00:00; lines before a "
        "!time run at the real time, and !time never goes back",
        "console: line 1: the clock never moves backwards; it stays where this database's "
        "clock stands, 2026-01-09T12:00:00+00:00"]
    # (and stays there, simulated: the real date would have closed the seasons between)
    assert "alice on main" in again.stdout and "closed" not in again.stdout
