"""`/suggest`: up to five opponents who would make a fair game for the asker now."""

from __future__ import annotations

from core.commands.views import Suggest
from core.domain import elo
from core.domain.errors import RatingGapTooLarge
from core.domain.model import PlayerId, Result, pair_key
from core.domain.records import Reply
from core.domain.rulebooks import choose
from core.domain.state import LadderState
from core.i18n import Text, series, t
from core.service.session import Session

SUGGESTED = 5  # opponents a reply names


def suggest(s: Session, _cmd: Suggest) -> Reply:
    """The asker's fairest opponents now: nearest in rating (in rungs on a position
    ladder), leaving out whom they cannot fairly play now (see `_playable`)."""
    me = s.me()
    state = s.repo.state(s.ladder.id)
    busy = {p for c in s.repo.unfinished_challenges(s.ladder.id)
            for p in (c.challenger, c.challenged)}
    if me.id in busy:
        return Reply(t("suggest.busy", name=me.name, ladder=s.ladder.name), private=True)
    by_rung = choose(s.settings).table == "rung"
    players = s.repo.players(s.ladder.id)
    others = [p for p, info in players.items()
              if p != me.id and info.member and info.available and p not in busy
              and _playable(s, state, me.id, p, by_rung)]
    chosen = _nearest(state, me.id, others, by_rung)[:SUGGESTED]
    if not chosen:
        return Reply(t("suggest.none", name=me.name, ladder=s.ladder.name), private=True)
    s.names(chosen)
    return Reply(t("suggest.list", name=me.name, ladder=s.ladder.name,
                   opponents=series([_shown(s, state, p, by_rung) for p in chosen])),
                 private=True)


def _playable(s: Session, state: LadderState, me: PlayerId, other: PlayerId,
              by_rung: bool) -> bool:
    """Whether a rated game against `other` now would count and move something: not
    farmed (anti-farming), within the ladder's rating gap, and not beyond dutch's gap
    where the stronger player's win moves nothing."""
    if state.farmed(pair_key(me, other), s.now):
        return False
    if by_rung or me not in state.players or other not in state.players:
        return True  # (a position ladder: anyone may challenge anyone)
    mine, theirs = state.players[me].rating, state.players[other].rating
    try:
        elo.check_gap(s.settings, Result(((me,), (other,))), {me: mine, other: theirs})
    except RatingGapTooLarge:
        return False
    stronger_wins = 1.0 if mine >= theirs else 0.0
    return not elo.no_change(s.settings, mine, theirs, stronger_wins)


def _nearest(state: LadderState, me: PlayerId, others: list[PlayerId], by_rung: bool
             ) -> list[PlayerId]:
    """Nearest first: by rung (one above before one below: a game to climb by), else
    by rating; ties by who joined first."""
    if by_rung and me in state.order:
        rung = {p: i for i, p in enumerate(state.order)}
        mine = rung[me]
        return sorted((p for p in others if p in rung),
                      key=lambda p: (abs(rung[p] - mine), rung[p] > mine, p))
    mine_rating = state.players[me].rating if me in state.players else state.settings.start
    return sorted(others, key=lambda p: (abs(_rating(state, p) - mine_rating), p))


def _rating(state: LadderState, player: PlayerId) -> float:
    known = state.players.get(player)
    return known.rating if known is not None else state.settings.start


def _shown(s: Session, state: LadderState, player: PlayerId, by_rung: bool) -> Text:
    """`bob (1016)`, `bob (1464 ±303)`, or `bob (rung 3)`."""
    if by_rung:
        return t("suggest.rung", name=s.name(player), rung=state.order.index(player) + 1)
    book = choose(s.settings)
    known = state.players.get(player)
    shown = book.shown(s.settings, known) if known is not None else f"{s.settings.start:g}"
    return t("suggest.rating", name=s.name(player), rating=shown)
