"""`ladderbot export --format csv`: a ladder's confirmed matches as the match CSV that
`ladderbot import` reads (CONSOLE.md, "`ladderbot import` and the match CSV").

Each match is written from its reporter's side (`alice vs bob,2` is alice's report of a
loss), so that a file imported and exported again reads as it was written; the optional
columns appear only where some match uses them.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence

from core.domain.bestof import score_text
from core.domain.calendar import iso
from core.domain.errors import NoLadder, RuleViolation
from core.domain.match_file import AHEAD, TEAMMATE, VERSUS
from core.domain.model import PlayerId
from core.domain.names import ZERO_WIDTH
from core.domain.records import MatchRecord
from core.i18n import t
from core.ports.repository import Repo

COLUMNS = ("played_at", "players", "result", "score")
OPTIONAL = ("margin", "moves", "unrated")  # (in this order, after COLUMNS)


def ladder_csv(repo: Repo, chat: str, name: str | None) -> str:
    """The ladder `name` of `chat` (None: the chat's default) as the match CSV."""
    ladder = repo.ladder(chat, name)
    if ladder is None:
        raise NoLadder(t("export.no_ladder", chat=chat) if name is None
                       else t("export.unknown", ladder=name, chat=chat))
    return match_csv(repo, ladder.id)


def match_csv(repo: Repo, ladder: int) -> str:
    """The ladder's confirmed matches, in the order played, as CSV text."""
    # (as typed: the zero-width spaces that keep a shown name from being a mention go)
    names = {p: info.name.replace(ZERO_WIDTH, "") for p, info in repo.players(ladder).items()}
    for name in names.values():
        if any(mark in name for mark in (VERSUS, TEAMMATE, AHEAD)) or name != name.strip():
            raise RuleViolation(t("csv.name_unwritable", name=name))
    played = sorted((m for m in repo.matches(ladder) if m.status == "confirmed"),
                    key=lambda m: (m.reported_at, m.id))
    rows = [_row(m, names) for m in played]
    columns = [*COLUMNS, *(c for c in OPTIONAL if any(row.get(c) for row in rows))]
    out = io.StringIO()
    writer = csv.DictWriter(out, columns, extrasaction="ignore", lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return out.getvalue()


def _row(record: MatchRecord, names: dict[PlayerId, str]) -> dict[str, str]:
    result = record.result

    def side(players: Sequence[PlayerId]) -> str:
        return TEAMMATE.join(names.get(p, str(p)) for p in players)

    if len(result.sides) > 2:
        players, outcome, score = AHEAD.join(side(s) for s in result.sides), "", ""
    else:
        flipped = record.reporter in result.sides[1]  # (the reporter's side first)
        first, second = result.sides[::-1] if flipped else result.sides
        players = side(first) + VERSUS + side(second)
        outcome = "draw" if result.draw else ("2" if flipped else "1")
        games = result.score
        score = "" if games is None else score_text(games[::-1] if flipped else games)
    return {"played_at": iso(record.reported_at), "players": players, "result": outcome,
            "score": score, "margin": result.margin.value if result.margin else "",
            "moves": "" if result.moves is None else str(result.moves),
            "unrated": "" if result.rated else "true"}
