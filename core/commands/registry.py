"""Every command word once: the word a chat types, its usage lines, help and menu words,
the parser of its arguments and the commands it makes. `/help`, the text parser, Telegram's
menus and Discord's commands without options read it; the service's bus
(core.service.bus) says what runs each command.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from core.commands import h2h
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
from core.domain.errors import UsageError
from core.i18n import N_, Message, Text, joined, t


@dataclass(frozen=True, slots=True)
class Spec:
    """One command word as a chat types it."""

    word: str
    usage: tuple[str, ...]  # its forms (the command words stay in every language)
    help: str  # catalog code: what it does, for /help WORD
    menu: str  # catalog code: one line, for Telegram's menu and Discord's description
    parser: Callable[[Args], Command]
    kinds: tuple[type[Command], ...]  # the commands it makes
    reads: bool = False  # only reads: asked in a private chat too (Telegram)
    bare: Command | None = None  # the command, when the word takes no arguments
    aliases: tuple[str, ...] = ()
    personal: bool = False  # about the asker's accounts, not a chat's ladder: asked in a
    # private chat too, where it may change what it is about


def _bare(word: str, help: str, menu: str, command: Command, reads: bool = False) -> Spec:
    """A word that takes no arguments and makes one command."""
    return Spec(word, (f"/{word}",), help, menu, no_args(command), (type(command),),
                reads=reads, bare=command)


SPECS: tuple[Spec, ...] = (
    Spec("ladder", ("/ladder create NAME preset=PRESET [key=value ...]",
                    "/ladder set key=value ...", "/ladder info", "/ladder list",
                    "/ladder pin", "/ladder unpin",
                    "/ladder default NAME", "/ladder rename NEW", "/ladder delete NAME",
                    "/ladder share", "/ladder join-share CODE NAME", "/ladder unshare"),
         N_("help.ladder"), N_("menu.ladder"), parse_ladder, (
             CreateLadder, ChangeSettings, ShowLadder, ListLadders, MakeDefault, RenameLadder,
             PinStandings, UnpinStandings, DeleteLadder, ShareLadder, JoinShare, Unshare),
         reads=True),
    _bare("join", N_("help.join"), N_("menu.join"), Join()),
    _bare("leave", N_("help.leave"), N_("menu.leave"), Leave()),
    Spec("challenge", ("/challenge [@user]", "/challenge cancel [@user]"), N_("help.challenge"),
         N_("menu.challenge"), read_challenge,
         (IssueChallenge, WithdrawChallenge)),
    Spec("accept", ("/accept [@user]",), N_("help.accept"), N_("menu.accept"), read_accept,
         (AcceptChallenge,)),
    Spec("decline", ("/decline [reason]",), N_("help.decline"), N_("menu.decline"),
         read_decline, (DeclineChallenge,)),
    _bare("available", N_("help.available"), N_("menu.available"), SetAvailability(True)),
    _bare("unavailable", N_("help.unavailable"), N_("menu.unavailable"), SetAvailability(False)),
    Spec("report", ("/report win|loss|draw @user [2-1] [minor|major|overwhelming] [moves=N] "
                    "[unrated] [again]", "/report ffa @1st @2nd ...",
                    "/report teams @a @b vs @c @d [2-1] [draw]"),
         N_("help.report"), N_("menu.report"), read_report, (ReportResult,)),
    Spec("confirm", ("/confirm [MATCH_ID]",), N_("help.confirm"), N_("menu.confirm"),
         read_confirm, (ConfirmResult,)),
    Spec("dispute", ("/dispute [MATCH_ID] [reason]",), N_("help.dispute"), N_("menu.dispute"),
         read_dispute, (DisputeResult,)),
    Spec("withdraw", ("/withdraw [MATCH_ID]",), N_("help.withdraw"), N_("menu.withdraw"),
         read_withdraw, (WithdrawReport,)),
    Spec("standings", ("/standings [season|week|ladder|rating] [page=N]",),
         N_("help.standings"), N_("menu.standings"), read_standings,
         (ShowStandings,), reads=True),
    Spec("profile", ("/profile [@user]",), N_("help.profile"), N_("menu.profile"),
         read_profile, (ShowProfile,), reads=True),
    Spec("history", ("/history [@user] [page=N]",), N_("help.history"), N_("menu.history"),
         read_history, (ShowHistory,), reads=True),
    Spec("players", ("/players [page=N]",), N_("help.players"), N_("menu.players"),
         read_players, (ShowPlayers,), reads=True),
    _bare("suggest", N_("help.suggest"), N_("menu.suggest"), Suggest(), reads=True),
    Spec("queue", ("/queue", "/queue leave"), N_("help.queue"), N_("menu.queue"), read_queue,
         (JoinQueue, LeaveQueue)),
    Spec("ready", ("/ready [QUEUE_MATCH]",), N_("help.ready"), N_("menu.ready"), read_ready,
         (Ready,)),
    Spec("h2h", h2h.USAGE, h2h.HELP, h2h.MENU, h2h.read_h2h, (h2h.ShowHeadToHead,),
         reads=True),
    _bare("halloffame", N_("help.halloffame"), N_("menu.halloffame"), ShowHallOfFame(), reads=True),
    Spec("mod", ("/mod void MATCH_ID reason...", "/mod set MATCH_ID RESULT reason...",
                 "/mod adjust @user +N|-N reason...", "/mod remove @user reason...",
                 "/mod cancel CHALLENGE_ID reason...", "/mod add @user",
                 "/mod ban @user reason...", "/mod unban @user reason...",
                 "/mod season close [reason]"),
         N_("help.mod"), N_("menu.mod"), parse_mod, (
             VoidMatch, SetResult,
             AdjustRating, RemovePlayer,
             CancelChallenge, AddPlayer,
             BanPlayer, UnbanPlayer,
             CloseSeason)),
    Spec("link", ("/link", "/link CODE"), N_("help.link"), N_("menu.link"), read_link,
         (LinkAccount,), personal=True),
    Spec("unlink", ("/unlink",), N_("help.unlink"), N_("menu.unlink"),
         no_args(UnlinkAccount()), (UnlinkAccount,),
         personal=True),
    # Help reads nothing stored: the service answers it (`storeless`), before any ladder.
    Spec("help", ("/help [command]",), N_("help.help"), N_("menu.help"), read_help,
         (Help,), reads=True, aliases=("start",)),  # Telegram's /start
)


# Derived: the word (or alias) typed, the usage lines, the words a private chat takes.
WORDS: dict[str, Spec] = {w: spec for spec in SPECS for w in (spec.word, *spec.aliases)}
USAGE: dict[str, str] = {spec.word: " | ".join(spec.usage) for spec in SPECS}
READ_ONLY_WORDS: tuple[str, ...] = tuple(w for spec in SPECS if spec.reads
                                         for w in (spec.word, *spec.aliases))
PERSONAL_WORDS: tuple[str, ...] = tuple(spec.word for spec in SPECS if spec.personal)
KINDS: tuple[type[Command], ...] = tuple(dict.fromkeys(k for spec in SPECS for k in spec.kinds))
# The commands whose reply is no news for the other chats of a shared ladder: those that
# only answer their asker, and /ladder unshare (it tells them itself). The rest is.
NOT_NEWS: frozenset[type[Command]] = frozenset(
    [kind for spec in SPECS if spec.reads for kind in spec.kinds if not kind.moderator]
    + [Unshare])


def usage(word: str) -> Text:
    """The usage line of a command word (its words stay as they are in every language)."""
    return t("usage.line", line=USAGE.get(word, USAGE["help"]))


def usage_error(word: str, problem: Message, stray: str = "") -> UsageError:
    """A malformed command: the problem, then the command's usage line."""
    return UsageError(joined(problem, usage(word), sep="\n"), stray)
