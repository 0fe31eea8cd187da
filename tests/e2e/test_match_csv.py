"""`ladderbot export --format csv` (issue 54): a ladder's confirmed matches as the match
CSV of CONSOLE.md, each from its reporter's side, run as a user would. The expected files
are written by hand from the scripts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.cli import main
from tests.support.console import console

Capture = pytest.CaptureFixture[str]


def cli(capsys: Capture, *args: str) -> tuple[int, str, str]:
    """`ladderbot ARGS` in this process (a process of its own costs half a second):
    its exit code, what it printed and what it said on standard error."""
    capsys.readouterr()
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


SCRIPT = """!time 2026-01-05T10:00:00+00:00
@mod: /ladder create main preset=duel confirm=false
@mod: /ladder create os preset=openskill confirm=false
@alice: /join
@bob: /join
@carol: /join
@alice: /report win @bob 2-1
!time 2026-01-05T11:00:00+00:00
@bob: /report loss @carol
!time 2026-01-05T12:00:00+00:00
@carol: /report draw @alice
!time 2026-01-05T13:00:00+00:00
@alice: /report win @carol unrated moves=30
!time 2026-01-05T14:00:00+00:00
@bob: /report win @alice
@mod: /mod void 5 a mistake
@alice: /join ladder=os
@bob: /join ladder=os
@carol: /join ladder=os
@dan: /join ladder=os
@alice: /report ffa @alice @bob @carol ladder=os
!time 2026-01-05T15:00:00+00:00
@carol: /report teams @alice @bob vs @carol @dan ladder=os
"""


def _csv(capsys: Capture, db: Path, ladder: str) -> str:
    code, out, err = cli(capsys, "export", "--db", str(db), "--ladder", ladder, "--format",
                         "csv")
    assert code == 0, err
    return out


def test_a_ladders_matches_as_the_match_csv(tmp_path: Path, capsys: Capture) -> None:
    """Only confirmed matches (the void is left out), in the order played; a loss reads
    from its reporter's side (`bob vs carol,2`), a score with the first side's games
    first; the optional columns only where a match uses them (moves, unrated)."""
    db = tmp_path / "l.db"
    console(db, SCRIPT)
    assert _csv(capsys, db, "main") == (
        "played_at,players,result,score,moves,unrated\n"
        "2026-01-05T10:00:00+00:00,alice vs bob,1,2-1,,\n"
        "2026-01-05T11:00:00+00:00,bob vs carol,2,,,\n"
        "2026-01-05T12:00:00+00:00,carol vs alice,draw,,,\n"
        "2026-01-05T13:00:00+00:00,alice vs carol,1,,30,true\n")
    assert _csv(capsys, db, "os") == (
        "played_at,players,result,score\n"
        "2026-01-05T14:00:00+00:00,alice > bob > carol,,\n"
        "2026-01-05T15:00:00+00:00,carol+dan vs alice+bob,2,\n")


def test_a_name_the_csv_cannot_hold_is_refused_with_why(tmp_path: Path,
                                                        capsys: Capture) -> None:
    db = tmp_path / "l.db"
    console(db, "!time 2026-01-05T10:00:00+00:00\n"
            "@mod: /ladder create main preset=duel\n@rock+paper: /join\n")
    code, out, err = cli(capsys, "export", "--db", str(db), "--ladder", "main", "--format",
                         "csv")
    assert code == 1 and out == ""
    assert 'rock+paper cannot be written in a match CSV: a name there may not hold " vs ", ' \
        '"+" or " > "' in err


FILE = ("played_at,players,result,score\n"
        "2026-01-05T10:00:00+00:00,alice vs bob,1,\n"
        "2026-01-06T10:00:00+00:00,bob vs carol,2,\n"
        "2026-01-07T10:00:00+00:00,carol vs alice,draw,\n"
        "2026-01-08T10:00:00+00:00,dan vs alice,1,3-2\n")
REPORTED = ("!time 2026-01-05T10:00:00+00:00\n@mod: /ladder create main preset=duel "
            "confirm=false\n@alice: /join\n@bob: /join\n@carol: /join\n@dan: /join\n"
            "@alice: /report win @bob\n!time 2026-01-06T10:00:00+00:00\n"
            "@bob: /report loss @carol\n!time 2026-01-07T10:00:00+00:00\n"
            "@carol: /report draw @alice\n!time 2026-01-08T10:00:00+00:00\n"
            "@dan: /report win @alice 3-2\n")
AT = "2026-01-09T10:00:00+00:00"


def _import(capsys: Capture, db: Path, file: Path, *flags: str) -> str:
    code, out, err = cli(capsys, "import", "--db", str(db), "--ladder", "main", *flags,
                         str(file))
    assert code == 0, err
    return out


def _players(capsys: Capture, db: Path) -> list[dict[str, object]]:
    code, out, err = cli(capsys, "export", "--db", str(db), "--ladder", "main", "--at", AT)
    assert code == 0, err
    found: list[dict[str, object]] = json.loads(out)["players"]
    return found


def test_an_import_gives_what_reporting_the_matches_one_by_one_gives(
        tmp_path: Path, capsys: Capture) -> None:
    """The same four matches imported into a new ladder and reported through the console:
    the same players and ratings, and the CSV exported again is the file."""
    (tmp_path / "m.csv").write_text(FILE)
    said = _import(capsys, tmp_path / "i.db", tmp_path / "m.csv", "--preset", "duel")
    assert said.startswith("Imported 4 matches (2026-01-05T10:00:00+00:00 to "
                           "2026-01-08T10:00:00+00:00) into main.\n4 new players, nobody's "
                           "until claimed (/claim NAME): alice, bob, carol and dan.\n")
    console(tmp_path / "r.db", REPORTED)
    imported, reported = (_players(capsys, tmp_path / f"{db}.db") for db in "ir")
    assert imported == reported and len(imported) == 4
    assert _csv(capsys, tmp_path / "i.db", "main") == FILE


# Across a season's end: three games each in January (season_min_games), one in February.
SEASONS = ("played_at,players,result\n"
           "2026-01-30T10:00:00+00:00,alice vs bob,1\n"
           "2026-01-30T11:00:00+00:00,bob vs carol,1\n"
           "2026-01-31T10:00:00+00:00,carol vs alice,draw\n"
           "2026-01-31T11:00:00+00:00,alice vs bob,1\n"
           "2026-01-31T12:00:00+00:00,carol vs bob,1\n"
           "2026-01-31T13:00:00+00:00,alice vs carol,1\n"
           "2026-02-02T10:00:00+00:00,bob vs alice,1\n")
SEASONS_REPORTED = ("!time 2026-01-30T10:00:00+00:00\n@mod: /ladder create main "
                    "preset=duel confirm=false\n@alice: /join\n@bob: /join\n"
                    "@alice: /report win @bob\n!time 2026-01-30T11:00:00+00:00\n"
                    "@carol: /join\n@bob: /report win @carol\n"
                    "!time 2026-01-31T10:00:00+00:00\n@carol: /report draw @alice\n"
                    "!time 2026-01-31T11:00:00+00:00\n@alice: /report win @bob\n"
                    "!time 2026-01-31T12:00:00+00:00\n@carol: /report win @bob\n"
                    "!time 2026-01-31T13:00:00+00:00\n@alice: /report win @carol\n"
                    "!time 2026-02-02T10:00:00+00:00\n@bob: /report win @alice\n")


def test_an_import_runs_the_jobs_that_fall_between_its_matches(
        tmp_path: Path, capsys: Capture) -> None:
    """January's season closes between the 6th and the 7th match, as it does for the
    matches reported through the console: the same tables, February's season with only
    its one game (before, an imported ladder had no job planned, so its season never
    closed and alice's January stood in February's table)."""
    (tmp_path / "m.csv").write_text(SEASONS)
    _import(capsys, tmp_path / "i.db", tmp_path / "m.csv", "--preset", "duel")
    console(tmp_path / "r.db", SEASONS_REPORTED)
    at = "2026-02-03T10:00:00+00:00"
    imported, reported = (_exported(capsys, tmp_path / f"{db}.db", "main", at) for db in "ir")
    tables = imported["tables"]
    assert isinstance(tables, dict) and tables["season"] == []  # (3 games qualify)
    for key in ("players", "tables", "hall_of_fame", "matches"):
        assert imported[key] == reported[key], key


def test_a_dry_run_changes_nothing(tmp_path: Path, capsys: Capture) -> None:
    db, file = tmp_path / "r.db", tmp_path / "m.csv"
    console(db, "!time 2026-01-01T10:00:00+00:00\n@mod: /ladder create main preset=duel\n")
    file.write_text(FILE)
    before = db.read_bytes()
    said = _import(capsys, db, file, "--dry-run")
    assert "A dry run: nothing was changed. The standings it would give:\nmain: ratings\n" \
        "1. dan 1017" in said  # (alice 1016 lost to dan 1000: 32 x 0.523, 17)
    assert db.read_bytes() == before


def test_a_dry_run_makes_no_database(tmp_path: Path, capsys: Capture) -> None:
    """A dry run into a database that is not there shows its standings and leaves no
    file behind (a mistyped --db must not leave an empty database)."""
    (tmp_path / "m.csv").write_text(FILE)
    said = _import(capsys, tmp_path / "new.db", tmp_path / "m.csv", "--preset", "duel",
                   "--dry-run")
    assert "A dry run: nothing was changed." in said and "1. dan 1017" in said
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.csv"]


def test_a_refused_import_makes_no_database(tmp_path: Path, capsys: Capture) -> None:
    """An import refused into a database that is not there (no --preset for its new
    ladder) leaves no file behind: it left an empty database and its lock file, so a
    mistyped --db made both."""
    (tmp_path / "m.csv").write_text(FILE)
    code, _, err = cli(capsys, "import", "--db", str(tmp_path / "new.db"), "--ladder",
                       "main", str(tmp_path / "m.csv"))
    assert code == 1 and "name its rulebook with --preset" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.csv"]
    # (a database that was there stays, refused or not)
    _import(capsys, tmp_path / "old.db", tmp_path / "m.csv", "--preset", "duel")
    code, _, err = cli(capsys, "import", "--db", str(tmp_path / "old.db"), "--ladder",
                       "main", str(tmp_path / "m.csv"))
    assert code == 1 and "old.db" in {p.name for p in tmp_path.iterdir()}


def test_an_import_speaks_the_ladders_language(tmp_path: Path, capsys: Capture) -> None:
    """With [bot] language = "ru", the lines above the standings are Russian as the
    standings are (they were English above a Russian table)."""
    config, file = tmp_path / "config.toml", tmp_path / "m.csv"
    config.write_text('[bot]\nlanguage = "ru"\n')
    file.write_text(FILE)
    code, out, err = cli(capsys, "import", "--config", str(config), "--db",
                         str(tmp_path / "r.db"), "--ladder", "main", "--preset", "duel",
                         str(file))
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == "Импортировано 4 матча (2026-01-05T10:00:00+00:00 — " \
        "2026-01-08T10:00:00+00:00) в main."
    assert lines[2].startswith("Это импорт 1 в main") and lines[3] == "main: рейтинги"
    file.write_text(FILE.replace("2026-01-07", "2026-01-04"))
    code, _, err = cli(capsys, "import", "--config", str(config), "--db",
                       str(tmp_path / "r.db"), "--ladder", "new", "--preset", "duel",
                       str(file))
    assert code == 1 and err.startswith("ladderbot import: Строка 4: ")


def test_what_cannot_be_imported_is_refused_before_anything_is_written(
        tmp_path: Path, capsys: Capture) -> None:
    db, file = tmp_path / "r.db", tmp_path / "m.csv"
    console(db, REPORTED)
    before = db.read_bytes()
    file.write_text(FILE.replace("2026-01-07", "2026-01-04"))
    code, _, err = cli(capsys, "import", "--db", str(db), "--ladder", "other", "--preset",
                       "duel", str(file))
    assert code == 1 and "Line 4: it is earlier than line 3" in err
    file.write_text(FILE)
    code, _, err = cli(capsys, "import", "--db", str(db), "--ladder", "main", str(file))
    assert code == 1 and "main has run until 2026-01-08T10:00:00+00:00, and line 2 is at " \
        "2026-01-05T10:00:00+00:00" in err, err
    code, _, err = cli(capsys, "import", "--db", str(db), "--ladder", "new", str(file))
    assert code == 1 and "name its rulebook with --preset" in err
    file.write_text(FILE + "2026-01-09T10:00:00+00:00,alice > bob > carol,,\n")
    code, _, err = cli(capsys, "import", "--db", str(db), "--ladder", "new", "--preset",
                       "duel", str(file))
    assert code == 1 and "Line 6: new rates one-on-one games only." in err
    assert db.read_bytes() == before


HISTORY_SCRIPT = SCRIPT + """!time 2026-01-06T09:00:00+00:00
@mod: /mod set 2 @carol major a correction
@mod: /mod adjust @bob +7 a bonus
@dan: /join
@alice: /report win @dan
@mod: /ladder set k=24
!time 2026-01-09T09:00:00+00:00
@dan: /report win @bob
@mod: /mod season close a short season
@mod: /ladder set preset=warlight
@carol: /report loss @dan
@bob: /report win @alice ladder=os
"""


def _exported(capsys: Capture, db: Path, ladder: str, at: str) -> dict[str, object]:
    code, out, err = cli(capsys, "export", "--db", str(db), "--ladder", ladder, "--history",
                         "--at", at)
    assert code == 0, err
    data: dict[str, object] = json.loads(out)
    return data


@pytest.mark.parametrize("ladder", ["main", "os"])
def test_a_history_exported_and_imported_into_a_new_database_exports_the_same(
        tmp_path: Path, capsys: Capture, ladder: str) -> None:
    """Standings, tables, matches (the voided and the corrected ones), the audit and
    the log itself: the JSON form's round trip (CONSOLE.md)."""
    db, again = tmp_path / "l.db", tmp_path / "again.db"
    console(db, HISTORY_SCRIPT)
    at = "2026-01-10T00:00:00+00:00"
    first = _exported(capsys, db, ladder, at)
    assert len(first["history"]["events"]) > 5  # type: ignore[index]
    kinds = {kind for kind, _, _ in first["history"]["events"]}  # type: ignore[index]
    assert ladder == "os" or {"season", "result", "adjust", "settings", "rules"} <= kinds
    file = tmp_path / "main.json"
    file.write_text(json.dumps(first))
    code, out, err = cli(capsys, "import", "--db", str(again), "--ladder", ladder, str(file))
    assert code == 0, err
    assert out.splitlines()[0].startswith(f"Made {ladder} of the history: ")
    assert _exported(capsys, again, ladder, at) == first
    # A second time into the same ladder: refused, nothing changed.
    code, _, err = cli(capsys, "import", "--db", str(again), "--ladder", ladder, str(file))
    assert code != 0 and "has a ladder " + ladder + " already" in err
    assert _exported(capsys, again, ladder, at) == first


def test_a_file_that_is_not_a_history_is_refused(tmp_path: Path, capsys: Capture) -> None:
    db = tmp_path / "l.db"
    for text, why in [("{}", '(it has no "history"):'), ("[1", "Expecting"),
                      ('{"history": {"version": 1}}', "KeyError")]:
        file = tmp_path / "h.json"
        file.write_text(text)
        code, _, err = cli(capsys, "import", "--db", str(db), "--ladder", "main", str(file))
        assert code != 0 and "not a history" in err and why in err, err


def test_the_progress_bar_is_drawn_on_a_terminal_only(tmp_path: Path, capsys: Capture,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """A script's or a log's output stays the import's lines; a terminal gets a bar."""
    import sys
    file = tmp_path / "m.csv"
    file.write_text(FILE)
    code, _, err = cli(capsys, "import", "--db", str(tmp_path / "a.db"), "--ladder", "main",
                       "--preset", "duel", str(file))
    assert code == 0 and err == ""
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    code, _, err = cli(capsys, "import", "--db", str(tmp_path / "b.db"), "--ladder", "main",
                       "--preset", "duel", str(file))
    assert code == 0 and "/4 [" in err and "matches/s" in err  # (4 matches: at once)
