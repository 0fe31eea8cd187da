"""`ladderbot export --format csv` (issue 54): a ladder's confirmed matches as the match
CSV of CONSOLE.md, each from its reporter's side, run as a user would. The expected files
are written by hand from the scripts."""

from __future__ import annotations

from pathlib import Path

from tests.support.console import console, ladderbot

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


def _csv(db: Path, ladder: str) -> str:
    done = ladderbot("export", "--db", str(db), "--ladder", ladder, "--format", "csv")
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_a_ladders_matches_as_the_match_csv(tmp_path: Path) -> None:
    """Only confirmed matches (the void is left out), in the order played; a loss reads
    from its reporter's side (`bob vs carol,2`), a score with the first side's games
    first; the optional columns only where a match uses them (moves, unrated)."""
    db = tmp_path / "l.db"
    console(db, SCRIPT)
    assert _csv(db, "main") == (
        "played_at,players,result,score,moves,unrated\n"
        "2026-01-05T10:00:00+00:00,alice vs bob,1,2-1,,\n"
        "2026-01-05T11:00:00+00:00,bob vs carol,2,,,\n"
        "2026-01-05T12:00:00+00:00,carol vs alice,draw,,,\n"
        "2026-01-05T13:00:00+00:00,alice vs carol,1,,30,true\n")
    assert _csv(db, "os") == (
        "played_at,players,result,score\n"
        "2026-01-05T14:00:00+00:00,alice > bob > carol,,\n"
        "2026-01-05T15:00:00+00:00,carol+dan vs alice+bob,2,\n")


def test_a_name_the_csv_cannot_hold_is_refused_with_why(tmp_path: Path) -> None:
    db = tmp_path / "l.db"
    console(db, "!time 2026-01-05T10:00:00+00:00\n"
            "@mod: /ladder create main preset=duel\n@rock+paper: /join\n")
    done = ladderbot("export", "--db", str(db), "--ladder", "main", "--format", "csv")
    assert done.returncode == 1 and done.stdout == ""
    assert 'rock+paper cannot be written in a match CSV: a name there may not hold " vs ", ' \
        '"+" or " > "' in done.stderr
