"""`/h2h`: two players' record against each other (wins, losses, draws, the rating their
games moved) and a page of those games, newest first."""

from __future__ import annotations

from core.commands.h2h import ShowHeadToHead
from core.domain.errors import RuleViolation
from core.domain.model import PlayerId, Result
from core.domain.records import MatchRecord, Reply
from core.i18n import Message, joined, plural, t
from core.service.queries.ladders import match_text
from core.service.session import Session, signed

H2H_PAGE = 5  # games a page


def h2h(s: Session, cmd: ShowHeadToHead) -> Reply:
    """The record of the pair, told from the first one's side, and a page of games."""
    first_user, second_user = cmd.pair(s.ctx.user)
    if first_user.key == second_user.key:
        raise RuleViolation(t("h2h.same"))
    players = []
    for named in (first_user, second_user):
        found = s.player(named)
        if found is None:
            return Reply(t("history.never_played", name=named.name, ladder=s.ladder.name))
        players.append(found.id)
    first, second = players
    games = [m for m in s.repo.matches(s.ladder.id, player=first)
             if _opposed(m.result, first, second)]
    if not games:
        return Reply(t("h2h.none", first=s.name(first), second=s.name(second),
                       ladder=s.ladder.name))
    skip = (cmd.page - 1) * H2H_PAGE
    shown = games[skip:skip + H2H_PAGE]
    if not shown:
        raise RuleViolation(t("history.no_page", page=cmd.page))
    title = t("h2h.title", first=s.name(first), second=s.name(second), ladder=s.ladder.name)
    if cmd.page > 1:
        title = t("h2h.title_page", first=s.name(first), second=s.name(second),
                  ladder=s.ladder.name, page=cmd.page)
    lines: list[Message] = [title]
    counted = [m for m in games if m.status == "confirmed"]
    lines.append(_record(s, counted, first, second))
    lines += [match_text(s, m) for m in shown]
    if len(games) > skip + H2H_PAGE:
        lines.append(t("history.older", command=s.said(
            "/h2h", player=f"@{s.name(first)}", other=f"@{s.name(second)}",
            page=cmd.page + 1)))
    return Reply(joined(*lines, sep="\n"))


def _opposed(result: Result, first: PlayerId, second: PlayerId) -> bool:
    """Whether the two played on different sides of this game."""
    sides = [n for n, side in enumerate(result.sides) if first in side or second in side]
    return len(sides) == 2


def _place(result: Result, player: PlayerId) -> int:
    return next(n for n, side in enumerate(result.sides) if player in side)


def _record(s: Session, counted: list[MatchRecord], first: PlayerId,
            second: PlayerId) -> Message:
    """`3 games: alice 2 wins, bob 1 win, 0 draws`, and what the rated ones moved."""
    draws = sum(m.result.draw for m in counted)
    won = sum(not m.result.draw and _place(m.result, first) < _place(m.result, second)
              for m in counted)
    record = t("h2h.record", games=plural(len(counted), "game"), first=s.name(first),
               first_wins=plural(won, "win"), second=s.name(second),
               second_wins=plural(len(counted) - won - draws, "win"),
               draws=plural(draws, "draw"))
    if s.settings.is_position or not any(m.rated for m in counted):
        return record  # (rungs are places, not points exchanged)
    # (each player's stored changes read once, not each game's: one read a player)
    rated = {m.id for m in counted if m.rated}
    moved = {player: sum(c.after - c.before for c in s.repo.changes(s.ladder.id, player)
                         if c.kind == "match" and c.match in rated)
             for player in (first, second)}
    return joined(record, t("h2h.moved", first=s.name(first), first_moved=signed(moved[first]),
                            second=s.name(second), second_moved=signed(moved[second])),
                  sep="\n")
