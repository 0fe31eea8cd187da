"""Which ladder a command without `ladder=` is for, in a chat of several ladders.

The ladder it can only mean: the one where something waits for the asker (a report to
answer, their own report to withdraw, a challenge to answer, a queue match to ready; the
command's `waits`), else the only ladder of the chat the asker plays, else the chat's
default. Where two ladders fit, the asker is asked which, never answered on a guess.
"""

from __future__ import annotations

from collections.abc import Callable

from core.commands.base import Command
from core.commands.registry import WORD_OF
from core.domain.errors import Ambiguous
from core.domain.records import LadderInfo, PlayerInfo, UserRef
from core.i18n import either, t
from core.ports.repository import Repo

Waiting = Callable[[Repo, LadderInfo, PlayerInfo, int | None], list[int]]


def _reports_to_answer(repo: Repo, ladder: LadderInfo, me: PlayerInfo,
                       match: int | None) -> list[int]:
    return [r.id for r in repo.open_matches(ladder.id) if r.awaits(me.id) and match in (None, r.id)]


def _own_reports(repo: Repo, ladder: LadderInfo, me: PlayerInfo, match: int | None) -> list[int]:
    return [r.id for r in repo.open_matches(ladder.id)
            if r.reported_by_side_of(me.id) and match in (None, r.id)]


def _challenges_to_answer(repo: Repo, ladder: LadderInfo, me: PlayerInfo,
                          match: int | None) -> list[int]:
    return [c.id for c in repo.unfinished_challenges(ladder.id)
            if c.status == "open" and c.challenged == me.id]


def _ready_checks(repo: Repo, ladder: LadderInfo, me: PlayerInfo, match: int | None) -> list[int]:
    if ladder.settings.queue is None:
        return []
    return [m.id for m in repo.queue(ladder.id).matches
            if not m.on and me.id in m.players and me.id not in m.ready and match in (None, m.id)]


WAITS: dict[str, Waiting] = {"answer": _reports_to_answer, "own": _own_reports,
                             "challenge": _challenges_to_answer, "ready": _ready_checks}


def route(repo: Repo, chat: str, user: UserRef, cmd: Command) -> LadderInfo | None:
    """The ladder `cmd` is for, given no `ladder=`; None: the chat has none. Refused,
    naming the ladders, where two fit alike."""
    default = repo.ladder(chat, None)
    if default is None or not default.several or not cmd.routed or cmd.moderator \
            or cmd.chat_wide:
        return default
    ladders = repo.ladders(chat)
    mine = [(ladder, player) for ladder in ladders
            if (player := repo.player_for(ladder.id, user.key)) is not None
            and player.member and not player.removed]
    if cmd.waits is not None:
        waiting = [ladder for ladder, player in mine
                   if WAITS[cmd.waits](repo, ladder, player, getattr(cmd, "match_id", None))]
        if len(waiting) == 1:
            return waiting[0]
        if len(waiting) > 1:
            word = WORD_OF[type(cmd)]
            raise Ambiguous(t("route.which", count=len(waiting), choices=either(
                [f"/{word} ladder={ladder.name}" for ladder in waiting])), word,
                tuple(ladder.name for ladder in waiting))
    if len(mine) == 1:
        return mine[0][0]
    return default
