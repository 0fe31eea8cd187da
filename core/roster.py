"""/players: the ladder's members by name, a page at a time."""

from __future__ import annotations

from core.commands import ShowPlayers
from core.errors import RuleViolation
from core.i18n import plural
from core.paging import more_hint, pages, past_the_end
from core.queries import member_table
from core.records import Reply
from core.session import Session, rating_text
from core.tables import calibrating

PAGE = 20


def players(s: Session, cmd: ShowPlayers) -> Reply:
    """Members by name: rating (calibrating marked) or rung, and games played."""
    rows, total = s.repo.standings(s.ladder.id, member_table(s.settings), s.now, None)
    if not rows:
        return Reply(f"No one has joined {s.ladder.name} yet: {s.join}")
    s.names(r.player for r in rows)
    ordered = sorted(rows, key=lambda r: (s.name(r.player).casefold(), r.player))
    skip = (cmd.page - 1) * PAGE
    shown = ordered[skip:skip + PAGE]
    if not shown:
        raise RuleViolation(past_the_end(cmd.page, total, PAGE))
    states = {r.player: s.repo.player_state(s.ladder.id, r.player) for r in shown}
    lines = [f"{s.ladder.name}: {plural(total, 'member')}"
             + (f", page {cmd.page} of {pages(total, PAGE)}" if total > PAGE else "")]
    for row in shown:
        state = states[row.player]
        games = plural(state.games, "game") if state is not None else ""
        if s.settings.is_position:
            where = f"rung {int(row.value)}"
        else:
            where = rating_text(row.value)
            if calibrating(s.settings, row.rated_games):
                where += " (calibrating)"
            elif row.held:
                where += " (provisional)"
        lines.append(f"{s.name(row.player)}: {where}, {games}")
    lines += more_hint(total - skip - len(shown), s.said(f"/players page={cmd.page + 1}"))
    return Reply("\n".join(lines))
