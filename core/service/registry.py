"""Every command once (ARCHITECTURE.md, "Commands"): the word a chat types, its usage line,
help and menu words, the parser of its arguments, and for each command it makes what runs
it, who may and whether it changes anything. `/help`, the parser's and the service's
dispatch, Telegram's menus and Discord's no-argument commands are read from here, so a new
command is one entry below and its handler.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from core.commands.parse_mod import parse_ladder, parse_mod
from core.commands.parsing import (
    no_args,
    read_accept,
    read_challenge,
    read_confirm,
    read_decline,
    read_dispute,
    read_help,
    read_history,
    read_link,
    read_players,
    read_profile,
    read_queue,
    read_ready,
    read_report,
    read_standings,
    read_withdraw,
)
from core.commands.values import (
    AcceptChallenge,
    AddPlayer,
    AdjustRating,
    BanPlayer,
    CancelChallenge,
    ChangeSettings,
    CloseSeason,
    Command,
    ConfirmResult,
    CreateLadder,
    DeclineChallenge,
    DeleteLadder,
    DisputeResult,
    Help,
    IssueChallenge,
    Join,
    JoinQueue,
    JoinShare,
    Leave,
    LeaveQueue,
    LinkAccount,
    ListLadders,
    MakeDefault,
    PinStandings,
    Ready,
    RemovePlayer,
    RenameLadder,
    ReportResult,
    SetAvailability,
    SetResult,
    ShareLadder,
    ShowHallOfFame,
    ShowHistory,
    ShowLadder,
    ShowPlayers,
    ShowProfile,
    ShowStandings,
    Suggest,
    UnbanPlayer,
    UnlinkAccount,
    UnpinStandings,
    Unshare,
    VoidMatch,
    WithdrawChallenge,
    WithdrawReport,
)
from core.commands.words import Args
from core.domain.records import Context, LadderInfo, Reply
from core.domain.settings import Policy
from core.i18n import N_
from core.ports.repository import Repo
from core.service.handlers import (
    challenges,
    ladder_admin,
    live,
    membership,
    moderation,
    queue,
    reporting,
    sharing,
)
from core.service.queries import ladders as queries
from core.service.queries import profile, roster, suggest
from core.service.session import Session

# What runs a command: on its ladder (most), or on the chat's ladders as a whole.
Run = Callable[[Session, Any], Reply]
ChatRun = Callable[[Repo, Context, Any, Policy], Reply]
Expects = Callable[[Repo, Context, Any, LadderInfo], None]


@dataclass(frozen=True, slots=True)
class Action:
    """One command a word makes (`/ladder set` makes ChangeSettings) and what runs it."""

    kind: type
    run: Run | None = None  # on one ladder, in a Session
    chat: ChatRun | None = None  # on the chat's ladders: it names its ladder, or none
    moderator: bool = False
    # The reads it makes first, named once its ladder is known (Repo.expect_ladder).
    expects: Expects | None = None


@dataclass(frozen=True, slots=True)
class Spec:
    """One command word as a chat types it."""

    word: str
    usage: tuple[str, ...]  # its forms (the command words stay in every language)
    help: str  # catalog code: what it does, for /help WORD
    menu: str  # catalog code: one line, for Telegram's menu and Discord's description
    parser: Callable[[Args], Command]
    actions: tuple[Action, ...]
    reads: bool = False  # only reads: asked in a private chat too (Telegram)
    bare: Command | None = None  # the command, when the word takes no arguments
    aliases: tuple[str, ...] = ()
    personal: bool = False  # about the asker's accounts, not a chat's ladder: asked in a
    # private chat too, where it may change what it is about


def _bare(word: str, help: str, menu: str, command: Command, run: Run,
          reads: bool = False) -> Spec:
    """A word that takes no arguments and makes one command."""
    return Spec(word, (f"/{word}",), help, menu, no_args(command),
                (Action(type(command), run),), reads=reads, bare=command)


def _one(kind: type, run: Run, moderator: bool = False,
         expects: Expects | None = None) -> tuple[Action, ...]:
    return (Action(kind, run, moderator=moderator, expects=expects),)


def _mod(kind: type, run: Run) -> Action:
    return Action(kind, run, moderator=True)


SPECS: tuple[Spec, ...] = (
    Spec("ladder", ("/ladder create NAME preset=PRESET [key=value ...]",
                    "/ladder set key=value ...", "/ladder info", "/ladder list",
                    "/ladder pin", "/ladder unpin",
                    "/ladder default NAME", "/ladder rename NEW", "/ladder delete NAME",
                    "/ladder share", "/ladder join-share CODE NAME", "/ladder unshare"),
         N_("help.ladder"), N_("menu.ladder"), parse_ladder, (
             Action(CreateLadder, chat=live.create_ladder, moderator=True),
             _mod(ChangeSettings, live.change_settings),
             Action(ShowLadder, lambda s, _: live.info(s)),
             Action(ListLadders, chat=lambda repo, ctx, _, __: queries.list_ladders(repo, ctx)),
             Action(MakeDefault, chat=lambda repo, ctx, cmd, _: moderation.make_default(
                 repo, ctx, cmd), moderator=True),
             _mod(RenameLadder, ladder_admin.rename),
             _mod(PinStandings, lambda s, _: live.pin(s)),
             _mod(UnpinStandings, lambda s, _: live.unpin(s)),
             Action(DeleteLadder, chat=lambda repo, ctx, cmd, _: ladder_admin.delete(
                 repo, ctx, cmd), moderator=True),
             _mod(ShareLadder, lambda s, _: sharing.share(s)),
             Action(JoinShare, chat=sharing.join_share, moderator=True),
             _mod(Unshare, sharing.unshare)),
         reads=True),
    _bare("join", N_("help.join"), N_("menu.join"), Join(), lambda s, _: membership.join(s)),
    _bare("leave", N_("help.leave"), N_("menu.leave"), Leave(),
          lambda s, _: membership.leave(s)),
    Spec("challenge", ("/challenge [@user]", "/challenge cancel [@user]"), N_("help.challenge"),
         N_("menu.challenge"), read_challenge,
         (Action(IssueChallenge, challenges.issue), Action(WithdrawChallenge,
                                                           challenges.withdraw))),
    Spec("accept", ("/accept [@user]",), N_("help.accept"), N_("menu.accept"), read_accept,
         _one(AcceptChallenge, challenges.accept)),
    Spec("decline", ("/decline [reason]",), N_("help.decline"), N_("menu.decline"),
         read_decline, _one(DeclineChallenge, challenges.decline)),
    _bare("available", N_("help.available"), N_("menu.available"), SetAvailability(True),
          challenges.availability),
    _bare("unavailable", N_("help.unavailable"), N_("menu.unavailable"),
          SetAvailability(False), challenges.availability),
    Spec("report", ("/report win|loss|draw @user [2-1] [minor|major|overwhelming] [moves=N] "
                    "[unrated] [again]", "/report ffa @1st @2nd ...",
                    "/report teams @a @b vs @c @d [2-1] [draw]"),
         N_("help.report"), N_("menu.report"), read_report, _one(ReportResult, reporting.report,
                                                         expects=reporting.first_reads)),
    Spec("confirm", ("/confirm [MATCH_ID]",), N_("help.confirm"), N_("menu.confirm"),
         read_confirm, _one(ConfirmResult, reporting.confirm)),
    Spec("dispute", ("/dispute [MATCH_ID] [reason]",), N_("help.dispute"), N_("menu.dispute"),
         read_dispute, _one(DisputeResult, reporting.dispute)),
    Spec("withdraw", ("/withdraw [MATCH_ID]",), N_("help.withdraw"), N_("menu.withdraw"),
         read_withdraw, _one(WithdrawReport, reporting.withdraw)),
    Spec("standings", ("/standings [season|week|ladder|rating] [page=N]",),
         N_("help.standings"), N_("menu.standings"), read_standings,
         _one(ShowStandings, queries.standings, expects=queries.standings_reads), reads=True),
    Spec("profile", ("/profile [@user]",), N_("help.profile"), N_("menu.profile"),
         read_profile, _one(ShowProfile, profile.profile, expects=profile.first_reads), reads=True),
    Spec("history", ("/history [@user] [page=N]",), N_("help.history"), N_("menu.history"),
         read_history, _one(ShowHistory, queries.history), reads=True),
    Spec("players", ("/players [page=N]",), N_("help.players"), N_("menu.players"),
         read_players, _one(ShowPlayers, roster.players), reads=True),
    _bare("suggest", N_("help.suggest"), N_("menu.suggest"), Suggest(),
          lambda s, _: suggest.suggest(s), reads=True),
    Spec("queue", ("/queue", "/queue leave"), N_("help.queue"), N_("menu.queue"), read_queue,
         (Action(JoinQueue, queue.join), Action(LeaveQueue, queue.leave))),
    Spec("ready", ("/ready [QUEUE_MATCH]",), N_("help.ready"), N_("menu.ready"), read_ready,
         _one(Ready, queue.ready)),
    _bare("halloffame", N_("help.halloffame"), N_("menu.halloffame"), ShowHallOfFame(),
          lambda s, _: queries.hall_of_fame(s), reads=True),
    Spec("mod", ("/mod void MATCH_ID reason...", "/mod set MATCH_ID RESULT reason...",
                 "/mod adjust @user +N|-N reason...", "/mod remove @user reason...",
                 "/mod cancel CHALLENGE_ID reason...", "/mod add @user",
                 "/mod ban @user reason...", "/mod unban @user reason...",
                 "/mod season close [reason]"),
         N_("help.mod"), N_("menu.mod"), parse_mod, (
             _mod(VoidMatch, moderation.void), _mod(SetResult, moderation.set_result),
             _mod(AdjustRating, moderation.adjust), _mod(RemovePlayer, membership.remove),
             _mod(CancelChallenge, challenges.cancel), _mod(AddPlayer, membership.add),
             _mod(BanPlayer, membership.ban), _mod(UnbanPlayer, membership.unban),
             _mod(CloseSeason, moderation.close_season))),
    Spec("link", ("/link", "/link CODE"), N_("help.link"), N_("menu.link"), read_link,
         (Action(LinkAccount, chat=sharing.link),), personal=True),
    Spec("unlink", ("/unlink",), N_("help.unlink"), N_("menu.unlink"),
         no_args(UnlinkAccount()), (Action(UnlinkAccount, chat=sharing.unlink),),
         personal=True),
    # Help reads nothing stored: the service answers it (`storeless`), before any ladder.
    Spec("help", ("/help [command]",), N_("help.help"), N_("menu.help"), read_help,
         (Action(Help),), reads=True, aliases=("start",)),  # Telegram's /start
)

# Derived: the word (or alias) typed, and the spec of each command value.
WORDS: dict[str, Spec] = {w: spec for spec in SPECS for w in (spec.word, *spec.aliases)}
ACTIONS: dict[type, Action] = {}
for _spec in SPECS:
    for _action in _spec.actions:
        ACTIONS.setdefault(_action.kind, _action)  # (one action may have two words)
USAGE: dict[str, str] = {spec.word: " | ".join(spec.usage) for spec in SPECS}
READ_ONLY_WORDS: tuple[str, ...] = tuple(w for spec in SPECS if spec.reads
                                         for w in (spec.word, *spec.aliases))
PERSONAL_WORDS: tuple[str, ...] = tuple(spec.word for spec in SPECS if spec.personal)
# The commands whose reply is no news for the other chats of a shared ladder: those that
# only answer their asker, and /ladder unshare (it tells them itself). The rest is.
NOT_NEWS: frozenset[type] = frozenset(
    [action.kind for spec in SPECS if spec.reads for action in spec.actions
     if not action.moderator] + [Unshare])
