"""What a tournament says: a round's pairings, its table or bracket, the asker's next
game, in the ladder's words (core.service.handlers.tournaments runs the commands)."""

from __future__ import annotations

from collections.abc import Sequence

from core.commands.tournaments import FORMATS
from core.domain.errors import RuleViolation
from core.domain.model import PlayerId
from core.domain.paging import more_hint, pages, past_the_end
from core.domain.tournament import progress
from core.domain.tournament.bracket import NOBODY, Part
from core.domain.tournament.chart import BracketChart, BracketGame
from core.domain.tournament.model import Format, Outcome
from core.domain.tournament.progress import Lookup, Played
from core.domain.tournament.record import Pairing, Status, Tournament
from core.domain.tournament.standings import Line
from core.i18n import N_, Message, Number, Text, joined, render, t
from core.ports.repository import Repo
from core.service.session import Session

PARTS = {Part.WINNERS: N_("tournament.part_w"), Part.LOSERS: N_("tournament.part_l"),
         Part.FINAL: N_("tournament.part_f"), Part.RESET: N_("tournament.part_r")}
SHOWN_LINES = 20  # a table's lines in one reply (the rest: page=N)
SHOWN_SEEDS = 16  # seeds named in the start's announcement (a long line helps nobody)


def lookup(s: Session) -> Lookup:
    """What the ladder's matches say, as tournaments read them."""
    return looked_up(s.repo, s.ladder.id)


def looked_up(repo: Repo, ladder: int) -> Lookup:
    def look(match: int) -> Played | None:
        record = repo.match(ladder, match)
        return None if record is None else progress.played(record)
    return look


def points(halves: int) -> Number:
    return Number(halves / 2)


def pairing_text(s: Session, t_: Tournament, p: Pairing, look: Lookup) -> Text:
    """`3. alice – bob`, with its result once it has one."""
    if p.b is None:
        code = N_("tournament.pair_bye") if t_.format is Format.SWISS \
            else N_("tournament.pair_rest")
        return t(code, board=p.number, name=s.name(p.a))
    outcome = progress.outcome(p, look)
    a, b = s.name(p.a), s.name(p.b)
    if outcome is None:
        return t("tournament.pair", board=p.number, a=a, b=b)
    if outcome is Outcome.BOTH_FORFEIT:
        return t("tournament.pair_both_forfeit", board=p.number, a=a, b=b)
    pa, pb = outcome.points()
    code = N_("tournament.pair_forfeit") if outcome.forfeit else N_("tournament.pair_done")
    return t(code, board=p.number, a=a, b=b, score_a=points(pa), score_b=points(pb))


def round_text(s: Session, t_: Tournament, look: Lookup) -> Text:
    """Round N's pairings and its deadline."""
    games = t_.of_round(t_.round)
    s.names(p for g in games for p in g.players)
    lines = [pairing_text(s, t_, g, look) for g in games]
    assert t_.deadline is not None
    return t("tournament.round", tournament=t_.name, round=t_.round,
             rounds=progress.total_rounds(t_), due=s.when(t_.deadline),
             pairings=joined(*lines, sep="\n"))


def called(s: Session, t_: Tournament) -> tuple[str, ...]:
    """The user keys of the round's paired players: the platforms call them to it."""
    players = [p for g in t_.of_round(t_.round) if g.b is not None for p in g.players]
    found = s.repo.players(s.ladder.id, players)
    return tuple(found[p].user for p in players if p in found)


def table_text(s: Session, t_: Tournament, lines: Sequence[Line], page: int) -> Message:
    """The table (or an elimination's order) a page at a time, and how to see the next."""
    first = (page - 1) * SHOWN_LINES
    shown = lines[first:first + SHOWN_LINES]
    if page > 1 and not shown:
        raise RuleViolation(past_the_end(page, len(lines), SHOWN_LINES))
    s.names(x.player for x in shown)
    rows = [_line(s, t_, x) for x in shown]
    more = more_hint(len(lines) - first - len(shown),
                     s.said("/tournament", name=t_.name, page=page + 1))
    return joined(t("tournament.table", tournament=t_.name, lines=joined(*rows, sep="\n"),
                    page=page, pages=pages(len(lines), SHOWN_LINES)), *more, sep="\n")


def _line(s: Session, t_: Tournament, x: Line) -> Text:
    name = s.name(x.player)
    if t_.format.eliminates:
        return t("tournament.line_bracket", place=x.place, name=name, won=x.score // 2)
    first, second = x.tiebreaks
    code = N_("tournament.line_swiss") if t_.format is Format.SWISS \
        else N_("tournament.line_rr")
    return t(code, place=x.place, name=name, score=points(x.score), first=points(first),
             second=Number(second / 4))


def bracket_text(s: Session, t_: Tournament, look: Lookup) -> Message:
    """The bracket's games so far, round by round, as text (W1, L2, F)."""
    rows: list[Message] = []
    for f in progress.filled(t_, look):
        if not f.playable:
            continue
        assert f.a is not None and f.b is not None
        won: Message = t("tournament.to_play") if f.winner is None else \
            t("tournament.both_out") if f.winner == NOBODY else s.name(f.winner)
        final = f.slot.part in (Part.FINAL, Part.RESET)  # (one game: no stage number)
        code = N_("tournament.bracket_final") if final else N_("tournament.bracket_game")
        rows.append(t(code, part=t(PARTS[f.slot.part]), stage=f.slot.stage,
                      game=f.slot.number, a=s.name(f.a), b=s.name(f.b), winner=won))
    return joined(*rows, sep="\n")


def status_text(s: Session, t_: Tournament, page: int) -> Message:
    """/tournament NAME: where it stands, and the asker's next game."""
    look = lookup(s)
    kind = t(FORMATS[t_.format])
    if t_.status is Status.OPEN:
        s.names(t_.players)
        names = joined(*(s.name(p) for p in t_.players), sep=", ")
        return t("tournament.open_status", tournament=t_.name, format=kind,
                 count=len(t_.players), names=names, join=s.said("/tournament join"))
    if t_.status is Status.CANCELLED:
        return t("tournament.cancelled_status", tournament=t_.name, reason=t_.reason or "")
    lines = progress.standings(t_, look)
    parts: list[Message] = [table_text(s, t_, lines, page)]
    if t_.format.eliminates:
        parts.append(bracket_text(s, t_, look))
    if t_.status is Status.RUNNING:
        parts.append(round_text(s, t_, look))
        mine = _my_game(s, t_, look)
        if mine is not None:  # (first: a big round's pairings run on for screens)
            parts.insert(0, mine)
    else:
        winner = progress.champion(t_, look)
        parts.insert(0, t("tournament.over", tournament=t_.name,
                          winner=s.name(winner) if winner is not None else "-"))
    return joined(*parts, sep="\n\n")


def _my_game(s: Session, t_: Tournament, look: Lookup) -> Text | None:
    me = s.repo.player_for(s.ladder.id, s.ctx.user.key)
    if me is None:
        return None
    for p in t_.of_round(t_.round):
        if me.id in p.players and p.b is not None and progress.outcome(p, look) is None:
            other = p.b if p.a == me.id else p.a
            assert other is not None and t_.deadline is not None
            return t("tournament.your_game", round=t_.round, opponent=s.name(other),
                     due=s.when(t_.deadline))
    return None


def seeds_text(s: Session, t_: Tournament) -> Message:
    """`1. ann, 2. bob, ...`: the first SHOWN_SEEDS, then how many more and where."""
    shown = t_.players[:SHOWN_SEEDS]
    s.names(shown)
    seeds = joined(*(t("tournament.seed", seed=i + 1, name=s.name(p))
                     for i, p in enumerate(shown)), sep=", ")
    rest = len(t_.players) - len(shown)
    if not rest:
        return seeds
    return t("tournament.seeds_more", seeds=seeds, count=rest,
             command=s.said("/tournament", name=t_.name))


def bracket_chart(s: Session, t_: Tournament) -> BracketChart | None:
    """The bracket as a picture's data (elimination, once started)."""
    if not t_.format.eliminates or t_.status not in (Status.RUNNING, Status.FINISHED):
        return None
    seed = {p: i + 1 for i, p in enumerate(t_.players)}
    s.names(t_.players)
    games = []
    for f in progress.filled(t_, lookup(s)):
        if f.slot.part is Part.RESET and f.a == NOBODY:
            continue
        if NOBODY in (f.a, f.b) and f.slot.part is not Part.WINNERS:
            continue  # (a walkover in the losers' bracket: nobody to show)
        part = {Part.WINNERS: "w", Part.LOSERS: "l"}.get(f.slot.part, "f")
        won = None if f.winner in (None, NOBODY) else 0 if f.winner == f.a else 1
        games.append(BracketGame(
            part, f.slot.stage - 1, _shown(s, f.a), _shown(s, f.b), won,
            seed.get(f.a or 0, 0), seed.get(f.b or 0, 0)))
    language = s.settings.language
    labels = (render(t("tournament.part_winners"), language),
              render(t("tournament.part_losers"), language),
              render(t("tournament.part_final"), language))
    return BracketChart(t_.name, tuple(games), labels, f"{s.ladder.name}-{t_.name}")


def _shown(s: Session, player: PlayerId | None) -> str:
    if player is None:
        return ""
    return "-" if player == NOBODY else s.name(player)
