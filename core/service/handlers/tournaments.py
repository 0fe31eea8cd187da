"""/tournament (issue 53; RULES.md, "Tournaments on a ladder"): create, join and leave,
start (seeded from the standings), ready, show, cancel; and what a result or a deadline
does to a running tournament. A tournament is one small record a ladder reads and writes
whole in the command's transaction (core.domain.tournament.record); who won its games is
read from the ladder's matches, so corrections re-derive it."""

from __future__ import annotations

import dataclasses
import unicodedata

from core.commands.reports import NO_TOURNAMENT
from core.commands.tournaments import (
    FORMATS,
    CancelTournament,
    CreateTournament,
    JoinTournament,
    LeaveTournament,
    ShowTournament,
    StartTournament,
    TournamentReady,
    same_name,
)
from core.domain.calendar import DAY
from core.domain.errors import RuleViolation, UsageError
from core.domain.model import PlayerId, Result
from core.domain.records import MatchRecord, Reply
from core.domain.tournament import progress
from core.domain.tournament.model import Format
from core.domain.tournament.record import MAX_PLAYERS, Pairing, Status, Tournament
from core.i18n import N_, Message, Text, joined, listed, t
from core.service.planning import expect
from core.service.queries.tournament import (
    bracket_chart,
    called,
    lookup,
    pairing_text,
    round_text,
    seeds_text,
    status_text,
    table_text,
)
from core.service.session import Session


def create(s: Session, cmd: CreateTournament) -> Reply:
    """A moderator opens a tournament for players to join."""
    every = s.repo.tournaments(s.ladder.id)
    if any(same_name(cmd.name, x.name) for x in every):
        raise RuleViolation(t("tournament.exists", tournament=cmd.name, ladder=s.ladder.name))
    made = Tournament(s.ladder.id, max((x.id for x in every), default=0) + 1,
                      unicodedata.normalize("NFC", cmd.name),
                      cmd.format, s.now, cmd.rounds, cmd.rated, cmd.bestof, cmd.round_hours,
                      cmd.reset)
    s.repo.save_tournament(made)
    s.audit("tournament_create", "", detail=cmd.name)
    return Reply(t("tournament.created", tournament=made.name, format=t(FORMATS[made.format]),
                   details=_details(made), join=s.said(f"/tournament join {made.name}")))


def _details(x: Tournament) -> Message:
    parts: list[Message] = []
    if x.rounds:
        parts.append(t("tournament.rounds_n", count=x.rounds))
    if x.bestof:
        parts.append(t("tournament.bestof_n", count=x.bestof))
    parts.append(t("tournament.hours_n", count=x.round_hours))
    parts.append(t(N_("tournament.rated") if x.rated else N_("tournament.unrated")))
    if x.format is Format.DOUBLE and not x.reset:
        parts.append(t("tournament.no_reset"))
    return joined(*parts, sep=", ")


def find(s: Session, name: str | None, live: bool = True) -> Tournament:
    """The tournament `name`, or the only one open or running."""
    every = s.repo.tournaments(s.ladder.id)
    if name is not None:
        for x in every:
            if same_name(name, x.name):
                return x
        raise RuleViolation(t("tournament.unknown", tournament=name, ladder=s.ladder.name))
    open_ = [x for x in every if x.live] or ([] if live else every[-1:])
    if not open_:
        raise RuleViolation(t("tournament.none", ladder=s.ladder.name))
    if len(open_) > 1:
        raise UsageError(t("tournament.which", names=listed([x.name for x in open_])))
    return open_[0]


def join(s: Session, cmd: JoinTournament) -> Reply:
    """A member joins before the start."""
    x = _before_start(s, cmd.name)
    me = s.me()
    if me.id in x.players:
        raise RuleViolation(t("tournament.already_in", tournament=x.name))
    if len(x.players) >= MAX_PLAYERS:
        raise RuleViolation(t("tournament.full", tournament=x.name, max=MAX_PLAYERS))
    x = dataclasses.replace(x, players=(*x.players, me.id))
    s.repo.save_tournament(x)
    return Reply(t("tournament.joined", name=me.name, tournament=x.name, count=len(x.players)))


def leave(s: Session, cmd: LeaveTournament) -> Reply:
    """A player leaves before the start."""
    x = _before_start(s, cmd.name)
    me = s.me()
    if me.id not in x.players:
        raise RuleViolation(t("tournament.not_in", tournament=x.name))
    x = dataclasses.replace(x, players=tuple(p for p in x.players if p != me.id))
    s.repo.save_tournament(x)
    return Reply(t("tournament.left", name=me.name, tournament=x.name, count=len(x.players)))


def _before_start(s: Session, name: str | None) -> Tournament:
    x = find(s, name)
    if x.status is not Status.OPEN:
        raise RuleViolation(t("tournament.started_already", tournament=x.name))
    return x


def start(s: Session, cmd: StartTournament) -> Reply:
    """Seed from the standings (rating, or rung; then who joined the ladder first) and
    open round 1."""
    x = _before_start(s, cmd.name)
    members = s.repo.players(s.ladder.id, list(x.players))
    playing = [p for p in x.players if p in members and members[p].member]
    if len(playing) < 2:
        raise RuleViolation(t("tournament.too_few", tournament=x.name, count=len(playing)))
    x = progress.start(x, _seeded(s, playing), s.now, lookup(s))
    s.repo.save_tournament(x)
    s.audit("tournament_start", "", detail=x.name)
    return _news(s, x, t("tournament.started", tournament=x.name, count=len(x.players),
                         seeds=seeds_text(s, x)))


def _seeded(s: Session, players: list[PlayerId]) -> list[PlayerId]:
    """The players in the ladder's order: by rating, or rung; ties by who joined first
    (player ids are given in joining order)."""
    state = s.repo.state(s.ladder.id)
    if s.settings.is_position:
        rung = {p: i for i, p in enumerate(state.order)}
        return sorted(players, key=lambda p: (rung.get(p, len(rung)), p))
    return sorted(players, key=lambda p: (-state.players[p].rating, p))


def _news(s: Session, x: Tournament, said: Message) -> Reply:
    """A reply that opens a round calls its players; one that ends it names the winner."""
    look = lookup(s)
    if x.status is Status.FINISHED:
        return Reply(joined(said, finished_text(s, x)), announce=True)
    expect(s.repo, s.ladder, x.deadline or s.now)
    return Reply(joined(said, round_text(s, x, look), sep="\n"), announce=True,
                 notify=called(s, x))


def finished_text(s: Session, x: Tournament) -> Message:
    """The end, its winner and the final table's first page."""
    look = lookup(s)
    winner = progress.champion(x, look)
    said = t("tournament.finished_none", tournament=x.name) if winner is None \
        else t("tournament.finished", tournament=x.name, winner=s.name(winner))
    return joined(said, table_text(s, x, progress.standings(x, look), 1), sep="\n")


def ready(s: Session, cmd: TournamentReady) -> Reply:
    """A player says ready for their game of the round."""
    x = find(s, cmd.name)
    me = s.me()
    look = lookup(s)
    mine = [p for p in x.of_round(x.round) if me.id in p.players and p.b is not None
            and progress.outcome(p, look) is None] if x.status is Status.RUNNING else []
    if not mine:
        raise RuleViolation(t("tournament.no_game", tournament=x.name))
    game = mine[0]
    if me.id not in game.ready:
        game = dataclasses.replace(game, ready=(*game.ready, me.id))
        x = dataclasses.replace(x, pairings=tuple(game if (p.round, p.number) == (
            game.round, game.number) else p for p in x.pairings))
        s.repo.save_tournament(x)
    other = game.b if game.a == me.id else game.a
    assert other is not None and x.deadline is not None
    return Reply(t("tournament.ready_said", name=me.name, tournament=x.name, round=x.round,
                   opponent=s.name(other), due=s.when(x.deadline)))


def show(s: Session, cmd: ShowTournament) -> Reply:
    """The table or bracket now, and the asker's next game."""
    x = find(s, cmd.name, live=False)
    return Reply(status_text(s, x, cmd.page), chart=bracket_chart(s, x))


def cancel(s: Session, cmd: CancelTournament) -> Reply:
    """A moderator cancels a tournament, with a reason."""
    x = find(s, cmd.name)
    x = dataclasses.replace(x, status=Status.CANCELLED, deadline=None, reason=cmd.reason)
    s.repo.save_tournament(x)
    s.audit("tournament_cancel", cmd.reason, detail=x.name)
    return Reply(t("tournament.cancelled", tournament=x.name, reason=cmd.reason),
                 announce=True)


# ------------------------------------------------------------------ results
def counts_for(s: Session, result: Result, chosen: str | None = None
               ) -> tuple[Tournament, Pairing] | None:
    """The running tournament game a report of `result` counts for, if any: the one
    `chosen` names (NO_TOURNAMENT: none), else the only one pairing the two; refused
    where two could, or where it cannot count."""
    if chosen is not None and chosen.lower() == NO_TOURNAMENT:
        return None
    if (not s.ladder.contested and chosen is None) or not result.is_duel:
        return None
    a, b = result.sides[0][0], result.sides[1][0]
    look = lookup(s)
    every = [x for x in s.repo.tournaments(s.ladder.id)
             if chosen is None or same_name(chosen, x.name)]
    if chosen is not None and not every:
        raise RuleViolation(t("tournament.unknown", tournament=chosen, ladder=s.ladder.name))
    found = [(x, game) for x in every
             if (game := progress.open_pairing(x, a, b, look)) is not None]
    if chosen is not None and not found:
        raise RuleViolation(t("tournament.not_paired", tournament=every[0].name,
                              a=s.name(a), b=s.name(b)))
    if len(found) > 1:
        raise UsageError(t("tournament.which_game",
                           names=listed([x.name for x, _ in found])))
    if not found:
        return None
    x, game = found[0]
    if result.draw and x.format.eliminates:
        raise RuleViolation(t("tournament.draw_refused", tournament=x.name))
    if x.bestof and (result.score is None or result.score[0] != x.bestof // 2 + 1):
        # (a match of the tournament is decided: its winner took the most games)
        raise RuleViolation(t("tournament.bestof_score", tournament=x.name, count=x.bestof))
    return x, game


def link(s: Session, found: tuple[Tournament, Pairing], match: int) -> Text:
    """Count a reported match for its tournament game; what the reply says about it."""
    x, game = found
    linked = dataclasses.replace(game, match=match)
    s.repo.save_tournament(dataclasses.replace(x, pairings=tuple(
        linked if p == game else p for p in x.pairings)))
    return t("tournament.counted", tournament=x.name, round=game.round)


def after_result(s: Session, record: MatchRecord, corrected: bool = False) -> Message:
    """A result (or its correction) may finish a round, open the next, end a tournament,
    or (elimination) re-open games a changed winner moved: what it says of each."""
    if not s.ladder.contested and not corrected:  # (a correction may touch a finished one)
        return ""
    said: list[Message] = []
    look = lookup(s)
    for x in s.repo.tournaments(s.ladder.id):
        if x.status not in (Status.RUNNING, Status.FINISHED) or \
                not any(p.match == record.id for p in x.pairings):
            continue
        ended = x.status is Status.FINISHED
        x, moved = progress.reconciled(x, s.now, look)
        if moved:
            said.append(t("tournament.reopened", tournament=x.name, games=joined(
                *(pairing_text(s, x, p, look) for p in moved), sep="; ")))
            if ended:  # (it runs again: its round's deadline is new)
                expect(s.repo, s.ladder, x.deadline or s.now)
                said.append(round_text(s, x, look))
                s.calls += called(s, x)
        elif ended:  # (its table or winner may have changed: never silently)
            said.append(t("tournament.rederived", tournament=x.name, result=finished_text(s, x)))
        x, news = moved_on(s, x)
        s.repo.save_tournament(x)
        said += news
    return joined(*said, sep="\n") if said else ""  # (an empty join still takes a line)


def moved_on(s: Session, x: Tournament) -> tuple[Tournament, list[Message]]:
    """Open rounds while the one being played is over: what each opening says."""
    look = lookup(s)
    said: list[Message] = []
    while x.status is Status.RUNNING and progress.round_over(x, look):
        x = progress.open_next(x, s.now, look)
        if x.status is Status.FINISHED:
            said.append(finished_text(s, x))
        else:
            expect(s.repo, s.ladder, x.deadline or s.now)
            said.append(round_text(s, x, look))
            s.calls += called(s, x)
    return x, said


# ------------------------------------------------------------------ time
def _running(s: Session, ref: int) -> Tournament | None:
    for x in s.repo.tournaments(s.ladder.id):
        if x.id == ref and x.status is Status.RUNNING:
            return x
    return None


def deadline(s: Session, ref: int) -> tuple[Message, tuple[str, ...]]:
    """A round's deadline: its unplayed games forfeited (RULES.md), then the next round
    opened; what it says, and whom it calls."""
    x = _running(s, ref)
    if x is None or x.deadline is None or x.deadline > s.now:
        return "", ()
    look = lookup(s)
    x, done = progress.forfeits(x, look)
    said: list[Message] = []
    if done:
        said.append(t("tournament.forfeits", tournament=x.name, round=x.round, games=joined(
            *(pairing_text(s, x, p, look) for p in done), sep="\n")))
    if not progress.round_over(x, look):
        # (a report still waits: the round ends once it is settled, a day more at most)
        x = dataclasses.replace(x, deadline=s.now + DAY)
    x, news = moved_on(s, x)
    s.repo.save_tournament(x)
    return joined(*said, *news, sep="\n"), tuple(dict.fromkeys(s.calls))


def remind(s: Session, ref: int) -> Message:
    """A day before a round's deadline: the games still to play."""
    x = _running(s, ref)
    if x is None or x.reminded or x.deadline is None:
        return ""
    look = lookup(s)
    left = [p for p in x.of_round(x.round) if p.b is not None
            and progress.outcome(p, look) is None and not progress.waiting(p, look)]
    s.repo.save_tournament(dataclasses.replace(x, reminded=True))
    if not left:
        return ""
    return t("tournament.reminder", tournament=x.name, round=x.round, due=s.when(x.deadline),
             games=joined(*(pairing_text(s, x, p, look) for p in left), sep="\n"),
             ready=s.said("/tournament ready"))
