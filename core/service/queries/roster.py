"""/players: the ladder's members by name, a page at a time."""

from __future__ import annotations

from core.commands.views import ShowPlayers
from core.domain.errors import RuleViolation
from core.domain.paging import more_hint, pages, past_the_end
from core.domain.records import Paging, Reply
from core.domain.tables import calibrating
from core.i18n import Message, joined, plural, t
from core.service.queries.ladders import member_table
from core.service.session import Session, rating_text

PAGE = 20


def players(s: Session, cmd: ShowPlayers) -> Reply:
    """Members by name: rating (calibrating marked) or rung, and games played."""
    rows, total = s.repo.standings(s.ladder.id, member_table(s.settings), s.now, None)
    if not rows:
        return Reply(t("players.none", ladder=s.ladder.name, join=s.join))
    s.names(r.player for r in rows)
    ordered = sorted(rows, key=lambda r: (s.name(r.player).casefold(), r.player))
    skip = (cmd.page - 1) * PAGE
    shown = ordered[skip:skip + PAGE]
    if not shown:
        raise RuleViolation(past_the_end(cmd.page, total, PAGE))
    states = {r.player: s.repo.player_state(s.ladder.id, r.player) for r in shown}
    head = t("players.head", ladder=s.ladder.name, members=plural(total, "member"))
    lines: list[Message] = [t("table.page", head=head, page=cmd.page, pages=pages(total, PAGE))
                            if total > PAGE else head]
    for row in shown:
        state = states[row.player]
        games = plural(state.games, "game") if state is not None else ""
        where: Message
        if s.settings.is_position:
            where = t("challenge.rung", rung=int(row.value))
        elif calibrating(s.settings, row.rated_games):
            where = t("players.calibrating", rating=rating_text(row.value))
        elif row.held:
            where = t("players.provisional", rating=rating_text(row.value))
        else:
            where = rating_text(row.value)
        lines.append(t("players.row", name=s.name(row.player), where=where, games=games))
    lines += more_hint(total - skip - len(shown), s.said("/players", page=cmd.page + 1))
    paged = total > PAGE
    return Reply(joined(*lines, sep="\n"), pages=Paging(
        "players", cmd.page, total > skip + len(shown)) if paged else None)
