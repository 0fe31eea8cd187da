"""What a pair's earlier games decide: anti-farming's recent games and the dutch
series, kept for a window and forgotten after it, and the notes of a game left unrated.
"""

from __future__ import annotations

import bisect

from core.domain.calendar import DAY, HOUR
from core.domain.ladder_fields import LadderFields
from core.domain.model import PlayerId, Result, Timestamp, pair_key
from core.domain.settings import LATEST_CONFIRMATION_DAYS, Settings
from core.domain.standing import (
    UNRATED_NOTE,
)
from core.i18n import N_, encode, span, t

# Anti-farming looks back `farm_days`, a dutch series lasts `series_hours`. Game times
# and series are kept this much longer, so that a match confirmed up to 30 days after it
# was played is still counted right (`confirm_hours` goes no further)...
FARM_SLACK = LATEST_CONFIRMATION_DAYS * DAY
# ...and every this many events, pairs with no game that recent and series that old are
# forgotten: without it, every pair that ever played would be kept for good. A prune
# costs what it forgets (see `DueQueue`), so it runs often: a recent correction that
# rolls back across one restores, then forgets again, a thousand events' worth of pairs.
FARM_PRUNE_EVERY = 1_000



class PairMemory(LadderFields):
    """The recent games of each pair and the open series, for the rules that count a
    game by its pair's earlier ones."""

    __slots__ = ()

    def farmed(self, pair: tuple[PlayerId, PlayerId], played_at: Timestamp) -> str:
        """Why anti-farming leaves a rated game of `pair` (`pair_key`) at `played_at`
        unrated, or '': the one copy of the rule, for every way of folding a match."""
        settings = self.settings
        times = self.farm.get(pair) if settings.farm_limit is not None else None
        if not times:  # most pairs have no recent game
            return ""
        since = played_at - settings.farm_days * DAY
        recent = bisect.bisect_right(times, played_at) - bisect.bisect_right(times, since)
        if settings.farm_limit is None or recent < settings.farm_limit:
            return ""
        return encode(t("note.farmed", count=recent, within=span(settings.farm_days, "day")))

    def remember_pair(self, a: PlayerId, b: PlayerId, played_at: Timestamp) -> None:
        """Keep the time of a pair's rated game for anti-farming."""
        pair = pair_key(a, b)
        times = self.farm.get(pair)
        if times is None:
            times = self.farm[pair] = [played_at]
        else:
            bisect.insort(times, played_at)
            cutoff = times[-1] - self.settings.farm_days * DAY - FARM_SLACK
            if times[0] < cutoff:
                del times[: bisect.bisect_left(times, cutoff)]
        if times[-1] == played_at:
            self.farm_due.push(played_at, pair)

    def _prune(self) -> None:
        """Forget pairs whose newest rated game, and series whose first game, is past
        the horizon (at fixed event numbers, so every way of folding the log prunes
        alike). The journal keeps the pairs forgotten, so a correction can still roll
        back across it; a ladder with series journals nothing."""
        settings = self.settings
        cutoff = self.at - settings.farm_days * DAY - FARM_SLACK
        farm = self.farm
        gone: dict[tuple[PlayerId, PlayerId], list[Timestamp]] = {}
        for pair in self.farm_due.pop_until(cutoff):
            times = farm.get(pair)
            if times is not None and times[-1] <= cutoff:
                gone[pair] = farm.pop(pair)
        if gone and self.undo and self.undo[-1].seq == self.seq:
            self.undo[-1].pruned = gone
        if self.series_due and settings.series_hours is not None:
            over = self.at - settings.series_hours * HOUR - FARM_SLACK
            series = self.series
            for pair in self.series_due.pop_until(over):
                kept = series.get(pair)
                if kept is not None and kept.first_at <= over:
                    del series[pair]


def unrated_note(settings: Settings, rated: bool, moves: int | None) -> str:
    """Why the report or the game's length leaves a match unrated ('' if neither)."""
    if not rated:
        return UNRATED_NOTE
    if too_short(settings, moves):
        return encode(t("note.too_short", count=settings.min_moves or 0))
    return ""


def too_short(settings: Settings, moves: int | None) -> bool:
    """Whether a game of `moves` moves (None: not given) is too short to be rated."""
    return settings.min_moves is not None and moves is not None and moves < settings.min_moves


# The rules `pair_rule` names, in words.
PAIR_RULES = {"anti-farming": N_("rule.anti_farming"), "the series": N_("rule.series")}


def pair_rule(settings: Settings, result: Result) -> str:
    """The rule that counts this rated game by its pair's earlier games ('anti-farming',
    'the series'), or '' where none does. The standings keep those games only
    `FARM_SLACK` past the rule's window, so such a game must be confirmed within
    `LATEST_CONFIRMATION_DAYS` of being played to be counted right."""
    if not result.is_duel or not result.rated or too_short(settings, result.moves):
        return ""
    if settings.farm_limit is not None:
        return "anti-farming"
    if settings.series_hours is not None and not settings.is_position:
        return "the series"
    return ""

