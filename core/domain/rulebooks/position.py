"""`nhwc`'s family: a position ladder, rungs moved by case and margin (RULES.md §4)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from core.domain import position
from core.domain.model import Match, PlayerId, Result
from core.domain.rulebooks import rated
from core.domain.settings import Settings
from core.domain.standing import Applied, Change, MatchEffect
from core.i18n import Message, encode, t

if TYPE_CHECKING:
    from core.domain.state import LadderState


class Position(rated.EloBook):
    """Players on rungs 1..n; a match moves them by the table of cases and margins."""

    name = "position"
    table = "rung"

    @staticmethod
    def needs_margin(settings: Settings, result: Result) -> bool:
        """A rated win with no margin, where the ladder asks for one (RULES.md §4)."""
        return settings.margin_required and not result.draw and result.margin is None \
            and result.rated

    @staticmethod
    def rate(state: LadderState, match: Match, note: str) -> Applied:
        """Move the two players' rungs by their case (the rungs logged when the challenge
        was accepted, when there was one) and the result's margin."""
        result = match.result
        a, b = result.sides[0][0], result.sides[1][0]
        if not note and (a not in state.order or b not in state.order):
            note = encode(t("note.player_left"))
        if note:
            return _unrated(state, match, note)
        logged = None
        entry = state.logged.get(match.challenge_id) if match.challenge_id is not None else None
        if entry is not None:
            rungs = {entry[0]: entry[1], entry[2]: entry[3]}
            if a in rungs and b in rungs:
                logged = (rungs[a], rungs[b])
        new_order, case_a, case_b = position.moved_order(
            state.order, result, state.settings.moves_table, logged
        )
        for p in (a, b):
            state.players[p].rated_games += 1
        if not result.draw:
            state.players[a].rated_wins += 1
        reordered = state.reorder("match", new_order)
        touched = tuple(dict.fromkeys((a, b, *reordered.players)))
        own = tuple(
            Change(p, _rung_before(state, p, reordered), state.order.index(p) + 1)
            for p in (a, b)
        )
        # A player of the match who kept their rung is recorded too, so history says they
        # stayed (no record at all would read as history not yet written).
        stayed = tuple(c for c in own if c.before == c.after)
        return Applied("match", players=touched, changes=reordered.changes + stayed,
                       match=MatchEffect(match.id, True, "", own, ((a, case_a), (b, case_b))))

    @staticmethod
    def lean(settings: Settings) -> bool:
        """Never: a match moves rungs, not ratings."""
        return False

    @staticmethod
    def adjust(state: LadderState, player: PlayerId, amount: float) -> Applied:
        """Up (or down) `amount` rungs."""
        return state.reorder("adjust", position.shift(state.order, player, int(amount)))

    @staticmethod
    def seat(state: LadderState, player: PlayerId) -> Applied:
        """A newcomer, or a player back, starts on the bottom rung."""
        if player not in state.order:
            state.order.append(player)
        return Applied("join", players=(player,))

    @staticmethod
    def unseat(state: LadderState, player: PlayerId) -> Applied:
        """Everyone below moves up a rung."""
        if player not in state.order:
            return Applied("leave", players=(player,))
        index = state.order.index(player)
        below = state.order[index + 1:]
        state.order.pop(index)
        changes = tuple(Change(p, index + 2 + i, index + 1 + i) for i, p in enumerate(below))
        return Applied("leave", players=(player, *below), changes=changes)

    @staticmethod
    def summary(settings: Settings) -> Message:
        """`position ladder: challenges, rungs moved by case and margin of victory`."""
        return t("summary.position_challenges" if settings.challenges
                 else "summary.position")

    @staticmethod
    def journals(settings: Settings) -> bool:
        """Never: a match moves every rung between its players' (no undo holds them)."""
        return False


def _rung_before(state: LadderState, player: PlayerId, reordered: Applied) -> int:
    for change in reordered.changes:
        if change.player == player:
            return int(change.before)
    return state.order.index(player) + 1


def _unrated(state: LadderState, match: Match, note: str) -> Applied:
    result = match.result
    changes = tuple(
        Change(p, r, r) for p in result.players if (r := state.rung(p)) is not None
    )
    return Applied("match", players=result.players, changes=changes,
                   match=MatchEffect(match.id, False, note, changes))


RULEBOOK = Position()
