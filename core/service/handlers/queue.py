"""A ladder's queue (issue 27): `/queue` takes a place, `/queue leave` gives it up; full,
it forms a match of two teams balanced by rating (`core.domain.teams`) with a ready check
(`/ready`, or the platforms' button) within `ready_seconds`. Who does not say ready is
dropped, the rest wait again in their places; a place lapses after `queue_minutes`.
The formed match is reported as usual, and its report closes it.

The queue is one small value a ladder (`QueueState`), read and written whole in the
command's transaction, so a race of two joins forms one match."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable

from core.commands.queue import JoinQueue, LeaveQueue, Ready
from core.commands.registry import usage_error
from core.domain.errors import RuleViolation
from core.domain.model import PlayerId, Result, Timestamp
from core.domain.records import QueueEntry, QueueMatch, QueueState, Reply
from core.domain.setting_keys import queue_fits
from core.domain.setting_values import team_size
from core.domain.teams import balanced
from core.i18n import Message, Text, joined, listed, t
from core.service.planning import expect, queue_due
from core.service.session import Session

MINUTE = 60


def join(s: Session, _cmd: JoinQueue) -> Reply:
    """Take a place in the queue, or say where the asker stands in it."""
    size = _size(s)
    me = s.me().id
    state = s.repo.queue(s.ladder.id)
    check = _check_of(state, me)
    if check is not None:
        return Reply(t("queue.in_check", id=check.id, teams=teams_text(s, check),
                       ready=s.said("/ready", named=True)),
                     private=True, ready=check.id)
    if any(e.player == me for e in state.entries):
        return Reply(waiting_text(s, state, size), private=True)
    expires = s.now + round(s.settings.queue_minutes * MINUTE)
    state = dataclasses.replace(state, entries=(*state.entries, QueueEntry(me, s.now, expires)))
    state, formed = form(s, state)
    _save(s, state)
    if formed is None:
        return Reply(joined(t("queue.joined", name=s.name(me), ladder=s.ladder.name),
                            waiting_text(s, state, size)))
    return Reply(formed_text(s, formed), ready=formed.id, notify=called(s, formed))


def leave(s: Session, _cmd: LeaveQueue) -> Reply:
    """Give up a place in the queue, or drop out of a ready check (the others wait again)."""
    _size(s)
    me = s.me().id
    state = s.repo.queue(s.ladder.id)
    if any(e.player == me for e in state.entries):
        state = dataclasses.replace(state, entries=tuple(e for e in state.entries
                                                         if e.player != me))
        s.repo.save_queue(s.ladder.id, state)
        return Reply(t("queue.left", name=s.name(me), ladder=s.ladder.name))
    check = _check_of(state, me)
    if check is None:
        raise RuleViolation(t("queue.not_in", ladder=s.ladder.name))
    # The others' time has not run out: each waits again in their place.
    state, formed = fall_through(s, state, check, [p for p in check.players if p != me])
    _save(s, state)
    said = t("queue.left_check", name=s.name(me), id=check.id)
    return Reply(_after(s, state, said, formed, len(check.teams[0])),
                 ready=formed.id if formed else None, notify=called(s, formed))


def ready(s: Session, cmd: Ready) -> Reply:
    """Say ready for the asker's formed match; the last to say it starts the match."""
    _size(s)
    me = s.me().id
    state = s.repo.queue(s.ladder.id)
    check = _check_of(state, me)
    if check is None or (cmd.match_id is not None and check.id != cmd.match_id):
        raise RuleViolation(t("queue.no_check", ladder=s.ladder.name))
    if me in check.ready:
        return Reply(_still_waiting(s, check), private=True)
    check = dataclasses.replace(check, ready=(*check.ready, me))
    if len(check.ready) == len(check.players):
        check = dataclasses.replace(check, on=True)
    state = dataclasses.replace(state, matches=tuple(
        check if m.id == check.id else m for m in state.matches))
    s.repo.save_queue(s.ladder.id, state)
    if not check.on:
        return Reply(_still_waiting(s, check), private=True)
    return Reply(t("queue.on", id=check.id, teams=teams_text(s, check),
                   report=t("queue.report_teams") if len(check.teams[0]) > 1
                   else t("queue.report_duel")))


def form(s: Session, state: QueueState) -> tuple[QueueState, QueueMatch | None]:
    """A match of the first players in the queue, once there are enough of them (who
    left the ladder meanwhile loses the place); its ready check falls due."""
    size = team_size(s.settings.queue or "1v1")
    entries = sorted(state.entries, key=lambda e: (e.since, e.player))
    members = s.repo.players(s.ladder.id, [e.player for e in entries])
    entries = [e for e in entries if e.player in members and members[e.player].member]
    if len(entries) < 2 * size:
        return dataclasses.replace(state, entries=tuple(entries)), None
    chosen, rest = entries[:2 * size], entries[2 * size:]
    players = [e.player for e in chosen]
    teams = balanced(players, [_rating(s, p) for p in players])
    since = {e.player: e.since for e in chosen}
    match = QueueMatch(state.next_id, s.now, teams, tuple(since[p] for p in teams[0] + teams[1]))
    return QueueState(state.next_id + 1, tuple(rest), (*_recent(s, state.matches), match)), match


def fall_through(s: Session, state: QueueState, check: QueueMatch,
                 kept: Iterable[PlayerId]) -> tuple[QueueState, QueueMatch | None]:
    """A formed match that will not be played: the `kept` wait again in their places (a
    fresh `queue_minutes` each), the others lose theirs; a match forms again if the
    queue is full once more."""
    kept = set(kept)
    back = [QueueEntry(p, since, s.now + round(s.settings.queue_minutes * MINUTE))
            for p, since in zip(check.players, check.since, strict=True) if p in kept]
    state = dataclasses.replace(state, entries=(*state.entries, *back),
                                matches=tuple(m for m in state.matches if m.id != check.id))
    return form(s, state)


def lapse(s: Session, at: Timestamp) -> Message:
    """Places whose time ran out by `at` are given up; said once for them all."""
    state = s.repo.queue(s.ladder.id)
    gone = [e.player for e in state.entries if e.expires <= at]
    if not gone:
        return ""
    state = dataclasses.replace(state, entries=tuple(e for e in state.entries
                                                     if e.expires > at))
    s.repo.save_queue(s.ladder.id, state)
    return t("queue.lapsed", names=_names(s, gone), ladder=s.ladder.name,
             minutes=_number(s.settings.queue_minutes))


def deadline(s: Session, match_id: int) -> tuple[Message, QueueMatch | None]:
    """A ready check's time ran out: the match falls through unless everyone said ready."""
    state = s.repo.queue(s.ladder.id)
    check = next((m for m in state.matches if m.id == match_id and not m.on), None)
    if check is None:
        return "", None
    state, formed = fall_through(s, state, check, check.ready)
    s.repo.save_queue(s.ladder.id, state)
    said = t("queue.check_failed", id=check.id,
             dropped=_names(s, (p for p in check.players if p not in check.ready)))
    return _after(s, state, said, formed, len(check.teams[0])), formed


def played(s: Session, result: Result) -> Message:
    """A report of a formed match's teams is that match: it closes it, and says so."""
    if s.settings.queue is None:
        return ""
    state = s.repo.queue(s.ladder.id)
    sides = {frozenset(side) for side in result.sides}
    found = next((m for m in reversed(state.matches)
                  if m.on and {frozenset(m.teams[0]), frozenset(m.teams[1])} == sides), None)
    if found is None:
        return ""
    s.repo.save_queue(s.ladder.id, dataclasses.replace(
        state, matches=tuple(m for m in state.matches if m.id != found.id)))
    return t("queue.played", id=found.id)


def my_sides(s: Session, player: PlayerId, loss: bool
             ) -> tuple[tuple[PlayerId, ...], tuple[PlayerId, ...]]:
    """The teams of the asker's latest match from the queue that is on, their own first
    (the other first for a loss): what `/report win` alone reports. Without one, the
    refusal asks for the opponent as before."""
    state = s.repo.queue(s.ladder.id) if s.settings.queue is not None else QueueState()
    found = next((m for m in reversed(state.matches) if m.on and player in m.players), None)
    if found is None:
        raise usage_error("report", t("parse.report_opponent"))
    mine, other = found.teams if player in found.teams[0] else found.teams[::-1]
    return (other, mine) if loss else (mine, other)


# ---- words


def called(s: Session, match: QueueMatch | None) -> tuple[str, ...]:
    """The user keys of a formed match's players: the platforms call them to it."""
    if match is None:
        return ()
    found = s.repo.players(s.ladder.id, list(match.players))
    return tuple(found[p].user for p in match.players if p in found)


def _after(s: Session, state: QueueState, said: Message, formed: QueueMatch | None,
           size: int) -> Message:
    """What a failed match says next: who waits now (unless a new match took them all),
    and the match formed again, on a line of its own."""
    waiting = waiting_text(s, state, size) if formed is None or state.entries else ""
    return joined(joined(said, waiting), formed_text(s, formed) if formed else "", sep="\n")


def formed_text(s: Session, match: QueueMatch) -> Message:
    """`Queue match #3 on main: @a @b vs @c @d (mean ratings ...). Say /ready (or press
    Ready) within 120 seconds.`"""
    return t("queue.formed", id=match.id, ladder=s.ladder.name, teams=teams_text(s, match),
             seconds=s.settings.ready_seconds, ready=s.said("/ready", named=True))


def teams_text(s: Session, match: QueueMatch) -> Text:
    """`@a @b vs @c @d`, each team's mean rating after it."""
    s.names(match.players)
    first, second = (" ".join(f"@{s.name(p)}" for p in team) for team in match.teams)
    means = [round(sum(_rating(s, p) for p in team) / len(team)) for team in match.teams]
    return t("queue.teams", first=first, second=second, a=means[0], b=means[1])


def waiting_text(s: Session, state: QueueState, size: int) -> Message:
    """`Waiting in main's queue (3 of 4): alice, bob, cat.`"""
    players = [e.player for e in sorted(state.entries, key=lambda e: (e.since, e.player))]
    if not players:
        return t("queue.empty", ladder=s.ladder.name, needed=2 * size)
    return t("queue.waiting", ladder=s.ladder.name, have=len(players), needed=2 * size,
             names=_names(s, players))


def _still_waiting(s: Session, check: QueueMatch) -> Message:
    waiting = [p for p in check.players if p not in check.ready]
    return t("queue.ready_noted", id=check.id, have=len(check.ready),
             total=len(check.players), names=_names(s, waiting))


def _names(s: Session, players: Iterable[PlayerId]) -> Message:
    players = list(players)
    s.names(players)
    return listed([s.name(p) for p in players])


def _number(value: float) -> str:
    return f"{value:g}"


# ---- reading and keeping the state


def _save(s: Session, state: QueueState) -> None:
    """Keep the queue a command changed, and wake the ladder for its first job (once,
    with the earliest: `expect` only ever moves the wake-up earlier, from the ladder as
    the command began). A job's changes are planned again by the catch-up itself."""
    s.repo.save_queue(s.ladder.id, state)
    dues = [due for due, _, _ in queue_due(state, s.settings.ready_seconds)]
    if dues:
        expect(s.repo, s.ladder, min(dues))


def _size(s: Session) -> int:
    """The team size of the ladder's queue, or a refusal where it has none."""
    if s.settings.queue is None:  # (what a moderator can set here, said)
        if s.settings.is_position:
            raise RuleViolation(t("setting.queue_position"))
        raise RuleViolation(t("queue.off" if queue_fits(s.settings, 2) else "queue.off_duels",
                              ladder=s.ladder.name))
    return team_size(s.settings.queue)


def _check_of(state: QueueState, player: PlayerId) -> QueueMatch | None:
    """The player's formed match still in its ready check."""
    return next((m for m in state.matches if not m.on and player in m.players), None)


def _recent(s: Session, matches: Iterable[QueueMatch]) -> tuple[QueueMatch, ...]:
    """The formed matches worth keeping: in their ready check, or on and within the
    ladder's `play_hours` (an older one was never reported: nothing waits for it)."""
    keep = s.now - round(s.settings.play_hours * 3600)
    return tuple(m for m in matches if not m.on or m.formed_at >= keep)


def _rating(s: Session, player: PlayerId) -> float:
    state = s.repo.player_state(s.ladder.id, player)
    return state.rating if state is not None else s.settings.start
