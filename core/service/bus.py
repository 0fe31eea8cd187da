"""The bus: what runs each command, a table by command type. A handler is typed by the
command it takes; `on` (on a ladder, in a Session), `on_chat` (on the chat's ladders as a
whole) and `storeless` (reads nothing stored: answered before any ladder) register it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from core.commands.accounts import LinkAccount, UnlinkAccount
from core.commands.base import Command
from core.commands.challenges import (
    AcceptChallenge,
    DeclineChallenge,
    IssueChallenge,
    WithdrawChallenge,
)
from core.commands.claims import ApproveClaim, ClaimPlayer, UndoImport
from core.commands.h2h import ShowHeadToHead
from core.commands.help import Help
from core.commands.ladders import (
    ChangeSettings,
    CreateLadder,
    DeleteLadder,
    ImportFile,
    JoinShare,
    ListLadders,
    MakeDefault,
    PinStandings,
    RenameLadder,
    ShareLadder,
    ShowLadder,
    SwitchRulebook,
    UnpinStandings,
    Unshare,
    WhatIf,
)
from core.commands.membership import Join, Leave, SetAvailability
from core.commands.moderation import (
    AddPlayer,
    AdjustRating,
    BanPlayer,
    CancelChallenge,
    CloseSeason,
    RemovePlayer,
    SetResult,
    UnbanPlayer,
    VoidMatch,
)
from core.commands.queue import JoinQueue, LeaveQueue, Ready
from core.commands.reports import ConfirmResult, DisputeResult, ReportResult, WithdrawReport
from core.commands.tournaments import (
    CancelTournament,
    CreateTournament,
    JoinTournament,
    LeaveTournament,
    ShowTournament,
    StartTournament,
    TournamentReady,
)
from core.commands.views import (
    ShowHallOfFame,
    ShowHistory,
    ShowPlayers,
    ShowProfile,
    ShowStandings,
    Suggest,
)
from core.domain.records import Context, LadderInfo, Reply
from core.domain.settings import Policy
from core.i18n import Message
from core.ports.repository import Repo
from core.service import chat_import, helptext, switching, whatif
from core.service.handlers import (
    challenges,
    imports,
    ladder_admin,
    live,
    membership,
    moderation,
    queue,
    reporting,
    sharing,
    tournaments,
)
from core.service.queries import h2h, ladders, profile, roster, suggest
from core.service.session import Session

C = TypeVar("C", bound=Command)


@dataclass(frozen=True, slots=True)
class Handler:
    """What runs one type of command. (The table holds every type, so its callables take
    any command; `on`, `on_chat` and `storeless` check each against its own type.)"""

    run: Callable[[Session, Any], Reply] | None = None  # on one ladder, in a Session
    chat: Callable[[Repo, Context, Any, Policy], Reply] | None = None  # the chat's ladders
    known: Callable[[Any, Policy], Message] | None = None  # from nothing stored
    # The reads it makes first, named once its ladder is known (Repo.expect_ladder).
    expects: Callable[[Repo, Context, Any, LadderInfo], None] | None = None


HANDLERS: dict[type[Command], Handler] = {}


def on(kind: type[C], run: Callable[[Session, C], Reply],
       expects: Callable[[Repo, Context, C, LadderInfo], None] | None = None) -> None:
    """`kind` runs on its ladder."""
    HANDLERS[kind] = Handler(run=run, expects=expects)


def on_chat(kind: type[C], run: Callable[[Repo, Context, C, Policy], Reply]) -> None:
    """`kind` runs on the chat's ladders as a whole (it names its ladder, or none)."""
    HANDLERS[kind] = Handler(chat=run)


def storeless(kind: type[C], answer: Callable[[C, Policy], Message]) -> None:
    """`kind` is answered from nothing stored."""
    HANDLERS[kind] = Handler(known=answer)


storeless(Help, helptext.answer)
on_chat(CreateLadder, live.create_ladder)
on_chat(ImportFile, chat_import.import_file)
on(ChangeSettings, live.change_settings)
on(ShowLadder, live.info)
on_chat(ListLadders, ladders.list_ladders)
on_chat(MakeDefault, moderation.make_default)
on(RenameLadder, ladder_admin.rename)
on(PinStandings, live.pin)
on(UnpinStandings, live.unpin)
on_chat(DeleteLadder, ladder_admin.delete)
on(ShareLadder, sharing.share)
on_chat(JoinShare, sharing.join_share)
on(Unshare, sharing.unshare)
on_chat(LinkAccount, sharing.link)
on_chat(UnlinkAccount, sharing.unlink)
on(Join, membership.join)
on(Leave, membership.leave)
on(IssueChallenge, challenges.issue)
on(WithdrawChallenge, challenges.withdraw)
on(AcceptChallenge, challenges.accept)
on(DeclineChallenge, challenges.decline)
on(SetAvailability, challenges.availability)
on(ReportResult, reporting.report, expects=reporting.first_reads)
on(ConfirmResult, reporting.confirm)
on(DisputeResult, reporting.dispute)
on(WithdrawReport, reporting.withdraw)
on(ShowStandings, ladders.standings, expects=ladders.standings_reads)
on(ShowProfile, profile.profile, expects=profile.first_reads)
on(ShowHistory, ladders.history)
on(ShowPlayers, roster.players)
on(Suggest, suggest.suggest)
on(JoinQueue, queue.join)
on(LeaveQueue, queue.leave)
on(Ready, queue.ready)
on(ShowHallOfFame, ladders.hall_of_fame)
on(ShowHeadToHead, h2h.h2h)
on(VoidMatch, moderation.void)
on(SetResult, moderation.set_result)
on(AdjustRating, moderation.adjust)
on(RemovePlayer, membership.remove)
on(CancelChallenge, challenges.cancel)
on(AddPlayer, membership.add)
on(BanPlayer, membership.ban)
on(UnbanPlayer, membership.unban)
on(CloseSeason, moderation.close_season)
on(WhatIf, whatif.whatif)
on(SwitchRulebook, switching.switch)
on(ClaimPlayer, imports.claim)
on(ApproveClaim, imports.approve_claim)
on(UndoImport, imports.undo_import)
on(CreateTournament, tournaments.create)
on(JoinTournament, tournaments.join)
on(LeaveTournament, tournaments.leave)
on(StartTournament, tournaments.start)
on(TournamentReady, tournaments.ready)
on(ShowTournament, tournaments.show)
on(CancelTournament, tournaments.cancel)
