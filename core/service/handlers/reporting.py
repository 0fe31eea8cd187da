"""Reporting games: report -> pending -> confirm / dispute / automatic confirmation, or
withdrawn by the side that reported it.

A second report of the same game is answered, not recorded twice: while a report of
the same players is pending, a matching report from the other side confirms it and
any other is refused. On a ladder without confirmation, where the first report counted
at once, the other side's matching report within the ladder's confirmation window
(`confirm_hours`) is that game again, answered and not counted; a game played again
meanwhile is reported with `again` (a different result is the next game; a wrong one
is a moderator's to correct).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from core.commands.reports import ConfirmResult, DisputeResult, ReportResult, WithdrawReport
from core.domain import elo
from core.domain.bestof import score_refusal
from core.domain.calendar import HOUR
from core.domain.errors import Duplicate, NotAllowed, RuleViolation, UsageError
from core.domain.events import MatchConfirmed
from core.domain.model import Match, PlayerId, Result, Timestamp
from core.domain.records import Context, LadderInfo, MatchRecord, Reply, UserRef
from core.domain.rulebooks import choose
from core.domain.settings import Settings
from core.domain.shape import shape_refusal
from core.domain.standing import Applied, Change
from core.i18n import N_, Message, decode, encode, joined, listed, span, t
from core.ports.hints import SamePlayersRead
from core.ports.repository import Repo
from core.service.handlers import queue, tournaments
from core.service.planning import expect
from core.service.session import Session, instant, participants_text

# Pending reports are found whenever they were made; this reaches back for the rest.
DUPLICATE_WINDOW = 120


def report(s: Session, cmd: ReportResult) -> Reply:
    """Record a reported game: pending until confirmed, or at once without confirmation."""
    s.expect(_reported(s.ctx, cmd), _games(s.repo, s.ladder, s.now))
    me = s.me()
    sides = tuple(tuple(s.member(u).id for u in side) for side in cmd.sides) if cmd.sides \
        else queue.my_sides(s, me.id, cmd.loss)
    everyone = [p for side in sides for p in side]
    if len(set(everyone)) != len(everyone):  # (two accounts of one linked person, too)
        raise UsageError(t("parse.report_yourself" if everyone.count(me.id) > 1
                           else "parse.once"))
    result = Result(sides, cmd.draw, cmd.margin, cmd.moves, cmd.rated, cmd.score)
    if me.id not in result.players:
        raise NotAllowed(t("report.not_player"))
    check_shape(s, result)
    # A game reported already is answered first: its challenge is spent on that report.
    duplicate = _same_game(s, me.id, result, cmd.again)
    if duplicate is not None:
        return duplicate
    challenge = None
    if s.settings.is_position and s.settings.challenges:
        challenge = _accepted_challenge(s, result)
    if s.settings.max_gap is not None and result.rated and not s.settings.is_position:
        ratings = {p: _rating(s, p) for p in result.players}
        elo.check_gap(s.settings, result, ratings)
    counted = tournaments.counts_for(s, result, cmd.tournament)
    if counted is not None and not counted[0].rated:  # (its games are not rated)
        result = Result(result.sides, result.draw, result.margin, result.moves, False,
                        result.score)
    record = MatchRecord(
        ladder=s.ladder.id, id=s.repo.new_match_id(s.ladder.id), status="pending",
        reporter=me.id, reported_at=s.now, result=result, challenge=challenge,
    )
    what = s.describe_result(result)
    formed = queue.played(s, result)  # the match a full queue formed, if it is that one
    # the tournament game it counts for (said first: the round it may open comes after)
    counts = tournaments.link(s, counted, record.id) if counted is not None else ""
    if not s.settings.confirm:
        record, text = confirm_match(s, record, s.now)
        return Reply(joined(t("report.counted", id=record.id, result=what), counts, text,
                            formed), ladder=s.ladder.name)
    s.repo.save_match(record)
    expect(s.repo, s.ladder, record.reported_at + round(s.settings.confirm_hours * HOUR))
    if challenge is not None:
        _set_challenge(s, challenge, status="accepted", match=record.id)
    others = [p for p in result.players if result.side_of(p) != result.side_of(me.id)]
    return Reply(joined(t("report.pending", id=record.id, result=what,
                          others=participants_text(s, others),
                          within=span(s.settings.confirm_hours, "hour"),
                          confirm=s.said("/confirm", named=True),
                          dispute=s.said("/dispute", named=True)), counts, formed),
                 confirm_match=record.id)


def check_shape(s: Session, result: Result) -> None:
    """Refuse games the ladder does not rate: team games, too many sides, missing margin."""
    settings = s.settings
    if (refused := shape_refusal(settings, result, s.ladder.name)) is not None:
        raise RuleViolation(refused)
    if choose(settings).needs_margin(settings, result):
        raise UsageError(t("shape.margin"))
    if (refused := score_refusal(settings, result)) is not None:
        raise RuleViolation(refused)


def _rating(s: Session, player: PlayerId) -> float:
    state = s.repo.player_state(s.ladder.id, player)
    return state.rating if state is not None else s.settings.start


def _accepted_challenge(s: Session, result: Result) -> int:
    a, b = result.sides[0][0], result.sides[1][0]
    for challenge in s.repo.unfinished_challenges(s.ladder.id):
        pair = {challenge.challenger, challenge.challenged}
        if pair == {a, b} and challenge.status == "accepted" and challenge.match is None:
            return challenge.id
    other = b if a == s.me().id else a
    raise RuleViolation(t("report.no_challenge", name=s.name(other)))


def _set_challenge(s: Session, challenge_id: int, **changes: object) -> None:
    for challenge in s.repo.unfinished_challenges(s.ladder.id):
        if challenge.id == challenge_id:
            s.repo.save_challenge(dataclasses.replace(challenge, **changes))  # type: ignore[arg-type]
            return


def _same_outcome(a: Result, b: Result) -> bool:
    """Whether two reports tell the same result (a draw's sides in either order)."""
    if a.draw != b.draw or a.margin != b.margin or a.score != b.score:
        return False
    sides_a, sides_b = ([frozenset(side) for side in r.sides] for r in (a, b))
    return set(sides_a) == set(sides_b) if a.draw else sides_a == sides_b


def games_since(settings: Settings, now: Timestamp) -> Timestamp:
    """Since when a report's players' games are looked at for the same game."""
    return now - (DUPLICATE_WINDOW if settings.confirm else round(settings.confirm_hours * HOUR))


def _reported(ctx: Context, cmd: ReportResult) -> list[UserRef]:
    """The reporter and the users the report names."""
    return [ctx.user, *(u for side in cmd.sides for u in side)]


def _games(repo: Repo, ladder: LadderInfo, now: Timestamp) -> Callable[[list[PlayerId]], None]:
    """The read of the reported players' recent games, by their ids (`_same_game`'s)."""
    return lambda ids: repo.expect(SamePlayersRead(ladder.id, ids,
                                                   games_since(ladder.settings, now)))


def first_reads(repo: Repo, ctx: Context, cmd: ReportResult, ladder: LadderInfo) -> None:
    """What a report reads first, once its ladder is known: its players and their games
    (see Repo.expect_ladder)."""
    users = list(dict.fromkeys(u.key for u in _reported(ctx, cmd)))
    if len(users) > 1:
        repo.expect_players(ladder.id, users, _games(repo, ladder, instant(ctx, ladder)))


def _same_game(s: Session, me: PlayerId, result: Result, again: bool) -> Reply | None:
    """Answer a report of a game already reported, or None when it is a new game (as
    `again` says it is, whatever waits)."""
    if again:
        return None
    earlier = s.repo.same_players(s.ladder.id, result.players, games_since(s.settings, s.now))
    for record in earlier:
        if record.status not in ("pending", "disputed"):
            continue
        mine = record.result.side_of(me) == record.result.side_of(record.reporter)
        if record.status == "disputed":
            raise Duplicate(t("duplicate.disputed", id=record.id))
        if mine:
            raise Duplicate(t("duplicate.mine", id=record.id,
                              result=s.describe_result(record.result),
                              confirm=s.said("/confirm", named=True)))
        if _same_outcome(record.result, result):
            record, text = confirm_match(s, record, s.now)
            return Reply(joined(t("duplicate.confirms", id=record.id), text))
        raise Duplicate(t("duplicate.other", id=record.id,
                          result=s.describe_result(record.result)))
    if not s.settings.confirm:
        for record in reversed(earlier):
            if record.status != "confirmed" \
                    or record.result.side_of(me) == record.result.side_of(record.reporter):
                continue
            if _same_outcome(record.result, result):
                raise Duplicate(t("duplicate.counted", name=s.name(record.reporter),
                                  id=record.id, result=s.describe_result(record.result),
                                  at=s.when(record.reported_at)))
    return None


def confirm_match(s: Session, record: MatchRecord, at: Timestamp,
                  result: Result | None = None, quiet: bool = False
                  ) -> tuple[MatchRecord, Message]:
    """Put a reported match into the ladder; return the stored record and what changed
    (`quiet`: not the rating changes, which an import does not tell)."""
    result = result or record.result
    applied = s.append(MatchConfirmed(at, Match(record.id, record.reported_at, result,
                                                record.challenge, record.forfeit)))[0]
    assert isinstance(applied, Applied) and applied.match is not None
    effect = applied.match
    # Built directly: dataclasses.replace is slow on this, the busiest path.
    record = MatchRecord(record.ladder, record.id, "confirmed", record.reporter,
                         record.reported_at, result, record.challenge, record.forfeit, at,
                         record.disputed_at, record.voided_at, effect.note, effect.rated)
    s.repo.save_match(record)
    if record.challenge is not None:
        _set_challenge(s, record.challenge, status="played", match=record.id)
    after = tournaments.after_result(s, record)  # (a tournament's game counts, told or not)
    if quiet:
        return record, after
    return record, joined(effect_text(s, effect.rated, effect.note, effect.changes), after,
                          sep="\n")


def effect_text(s: Session, rated: bool, note: str, changes: tuple[Change, ...]) -> Message:
    """`alice 1000 -> 1016 (+16), bob 1000 -> 984 (-16).` or why nothing moved."""
    if not rated:
        return t("effect.nothing_because", note=decode(note)) if note else t("effect.nothing")
    if all(c.delta == 0 for c in changes) and note:
        return t("effect.nothing_because", note=decode(note))
    text = s.describe_changes(changes)
    return t("effect.changes_note", changes=text, note=decode(note)) if note \
        else t("effect.changes", changes=text)


# What answering a pending report says, by the answer: confirm or dispute.
_ANSWER = {"confirm": {"not_pending": N_("answer.not_pending.confirm"),
                       "not_player": N_("answer.not_player.confirm"),
                       "own_side": N_("answer.own_side.confirm"),
                       "none": N_("answer.none.confirm")},
           "dispute": {"not_pending": N_("answer.not_pending.dispute"),
                       "not_player": N_("answer.not_player.dispute"),
                       "own_side": N_("answer.own_side.dispute"),
                       "none": N_("answer.none.dispute")}}
# A match's status in words.
STATUS = {"pending": N_("status.pending"), "confirmed": N_("status.confirmed"),
          "disputed": N_("status.disputed"), "voided": N_("status.voided")}


def _waiting_for(s: Session, me: PlayerId, match_id: int | None, verb: str) -> MatchRecord:
    """The pending match `me` may confirm or dispute (`verb`)."""
    says = _ANSWER[verb]
    if match_id is not None:
        record = s.repo.match(s.ladder.id, match_id)
        if record is None:
            raise UsageError(t("match.unknown", id=match_id, ladder=s.ladder.name))
        if record.status != "pending":
            raise RuleViolation(t(says["not_pending"], id=match_id,
                                  status=t(STATUS[record.status])))
        if me not in record.result.players:
            raise NotAllowed(t(says["not_player"], id=match_id))
        if record.result.side_of(me) == record.result.side_of(record.reporter):
            raise NotAllowed(t(says["own_side"], id=match_id))
        return record
    waiting = [record for record in s.repo.open_matches(s.ladder.id) if record.awaits(me)]
    if not waiting:
        raise RuleViolation(t(says["none"]))
    # guessing could settle a game the player meant to question
    return _only(s, waiting, N_("answer.which"), verb)


def _only(s: Session, records: list[MatchRecord], which: str, verb: str) -> MatchRecord:
    """The one report of `records`, or a refusal listing them and asking which (the
    message `which`)."""
    if len(records) > 1:
        shown = [t("answer.item", id=r.id, result=s.describe_result(r.result))
                 for r in records]
        raise UsageError(t(which, count=len(records), reports=listed(shown), verb=verb,
                           id=records[0].id))
    return records[0]


def _counting_at_once(s: Session) -> None:
    """Refuse answering reports where they count at once (and none waits from before)."""
    if not s.settings.confirm and not s.repo.open_matches(s.ladder.id):
        raise RuleViolation(t("answer.at_once", ladder=s.ladder.name))


def confirm(s: Session, cmd: ConfirmResult) -> Reply:
    """The opponent confirms a pending report."""
    me = s.me()
    if not s.settings.confirm and not s.repo.open_matches(s.ladder.id):
        return Reply(t("confirm.at_once", ladder=s.ladder.name))
    record = _waiting_for(s, me.id, cmd.match_id, "confirm")
    record, text = confirm_match(s, record, s.now)
    return Reply(joined(t("confirm.done", id=record.id, result=s.describe_result(record.result)),
                        text))


def dispute(s: Session, cmd: DisputeResult) -> Reply:
    """The opponent disputes a pending report; it waits for a moderator."""
    me = s.me()
    _counting_at_once(s)
    record = _waiting_for(s, me.id, cmd.match_id, "dispute")
    # The reason as typed (decode tells a stored message from typed words), or ours.
    reason = cmd.reason or encode(t("dispute.no_reason"))
    s.repo.save_match(dataclasses.replace(record, status="disputed", disputed_at=s.now,
                                          note=reason))
    return Reply(t("dispute.done", id=record.id, result=s.describe_result(record.result),
                   reason=decode(reason)), announce=True)


def withdraw(s: Session, cmd: WithdrawReport) -> Reply:
    """The side that made a report takes it back while it waits for the opponent: it never
    counted, so it is voided, and a challenge it was played for can be reported again."""
    me = s.me()
    _counting_at_once(s)
    record = _reported_by(s, me.id, cmd.match_id)
    s.repo.save_match(dataclasses.replace(record, status="voided", voided_at=s.now,
                                          note=encode(t("note.withdrawn", name=me.name))))
    reopen_challenge(s, record)
    return Reply(t("withdraw.done", id=record.id, result=s.describe_result(record.result),
                   name=me.name))


def _reported_by(s: Session, me: PlayerId, match_id: int | None) -> MatchRecord:
    """The pending report of `me`'s side that `me` may withdraw."""
    if match_id is not None:
        record = s.repo.match(s.ladder.id, match_id)
        if record is None:
            raise UsageError(t("match.unknown", id=match_id, ladder=s.ladder.name))
        if me not in record.result.players:
            raise NotAllowed(t("withdraw.not_player", id=match_id))
        if record.status == "voided":
            raise RuleViolation(t("match.void_already", id=match_id))
        if record.status == "confirmed":
            raise RuleViolation(t("withdraw.counts", id=match_id))
        if record.status == "disputed":
            raise RuleViolation(t("withdraw.disputed", id=match_id))
        if record.result.side_of(me) != record.result.side_of(record.reporter):
            raise NotAllowed(t("withdraw.not_reporter", id=match_id))
        return record
    mine = [record for record in s.repo.open_matches(s.ladder.id)
            if record.reported_by_side_of(me)]
    if not mine:
        raise RuleViolation(t("withdraw.none"))
    return _only(s, mine, N_("withdraw.which"), "withdraw")


def reopen_challenge(s: Session, record: MatchRecord) -> None:
    """A challenge whose game was voided before it counted waits for its result again."""
    if record.challenge is None:
        return
    for challenge in s.repo.unfinished_challenges(s.ladder.id):
        if challenge.id == record.challenge:
            s.repo.save_challenge(dataclasses.replace(challenge, match=None))
