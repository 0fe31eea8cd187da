"""Checks every command passes however it was given: parsed from text, or built from a
platform's typed options (Discord's), which skip the parser. One copy of each rule: the
parser reads words into a command, these decide whether the command makes sense."""

from __future__ import annotations

from core.commands.base import Command
from core.commands.moderation import AdjustRating, SetResult
from core.commands.reports import NO_TOURNAMENT, ReportResult
from core.commands.tournaments import NAME_LENGTH as TOURNAMENT_NAME
from core.commands.tournaments import check_tournament
from core.commands.words import MAX_ADJUST, MAX_REASON, ladder_name
from core.domain.errors import UsageError
from core.domain.records import UserRef
from core.i18n import Number, t


def check(command: Command, asker: UserRef) -> None:
    """Refuse a command beyond the limits the parser keeps (a reason's length, an
    adjustment's size) or that cannot be meant (a game against oneself, a draw won by a
    margin), with what to do instead."""
    reason = getattr(command, "reason", None)
    if isinstance(reason, str) and len(reason) > MAX_REASON:
        raise UsageError(t("check.reason_long", max=MAX_REASON, length=Number(len(reason))))
    if isinstance(command, AdjustRating) and not 0 < abs(command.amount) <= MAX_ADJUST:
        raise UsageError(t("check.adjust", max=Number(MAX_ADJUST)))
    if isinstance(command, ReportResult):
        _check_report(command, asker)
    if isinstance(command, SetResult) and command.result.draw and command.result.margin:
        raise UsageError(t("result.draw_margin"))
    check_tournament(command)


def _check_report(cmd: ReportResult, asker: UserRef) -> None:
    everyone = [u.key for side in cmd.sides for u in side]
    if len(set(everyone)) != len(everyone):
        yourself = everyone.count(asker.key) > 1
        raise UsageError(t("parse.report_yourself" if yourself else "parse.once"))
    if cmd.draw and cmd.margin is not None:
        raise UsageError(t("result.draw_margin"))
    if cmd.draw and cmd.sides and len(cmd.sides) != 2:
        raise UsageError(t("spec.draw_two"))
    chosen = cmd.tournament
    if chosen is not None and chosen.lower() != NO_TOURNAMENT and (
            len(chosen) > TOURNAMENT_NAME or ladder_name(chosen) is None):
        raise UsageError(t("tournament.bad_name", max=TOURNAMENT_NAME))
