"""Every command as a form of typed options (Discord's slash commands): its path, its
parameters (core.commands.params) and what the values make, a command or the chat line
the text parser reads. The adapters derive their menus from these and restate none; the
checks run in the command, whichever way it came (core.commands.checks).
"""

from __future__ import annotations

from core.commands import h2h
from core.commands.params import (
    CHOICE,
    CODE,
    LADDER_NAME,
    LAST_ID,
    MOVES,
    NAME_LENGTH,
    OPTIONAL_MATCH,
    OPTIONAL_REASON,
    PAGE,
    PLAYER,
    REASON,
    UNRATED,
    Form,
    Kind,
    Param,
    Values,
    const,
    user,
)
from core.commands.parsing import MAX_TEXT
from core.commands.registry import SPECS
from core.commands.values import (
    AcceptChallenge,
    AddPlayer,
    AdjustRating,
    BanPlayer,
    CloseSeason,
    Command,
    ConfirmResult,
    DeclineChallenge,
    DisputeResult,
    Help,
    IssueChallenge,
    JoinQueue,
    LeaveQueue,
    LinkAccount,
    ListLadders,
    MakeDefault,
    PinStandings,
    Ready,
    RemovePlayer,
    ReportResult,
    ShareLadder,
    ShowHistory,
    ShowLadder,
    ShowPlayers,
    ShowProfile,
    ShowStandings,
    UnbanPlayer,
    UnlinkAccount,
    UnpinStandings,
    Unshare,
    VoidMatch,
    WithdrawChallenge,
    WithdrawReport,
)
from core.commands.words import (
    LADDER_LENGTH,
    MAX_ADJUST,
    read_score,
)
from core.domain.errors import UsageError
from core.domain.model import Margin
from core.domain.records import UserRef, named
from core.domain.settings import MAX_BESTOF, PRESETS
from core.i18n import N_, t


def _report(values: Values, asker: UserRef) -> Command:
    """`/report result opponent ...` from its options."""
    opponent, name = user(values, "opponent"), values.get("opponent_name")
    if (opponent is None) == (name is None):  # one of the two names them
        raise UsageError(t("report.one_opponent"))
    result, score = values["result"], values.get("score")
    games = None if score is None else read_score(score.strip(), result == "draw")
    if score is not None and games is None:
        raise UsageError(t("parse.score", max=MAX_BESTOF))
    them = (opponent or named(name or ""),)
    sides = (them, (asker,)) if result == "loss" else ((asker,), them)
    margin = values.get("margin")
    return ReportResult(sides, result == "draw", Margin(margin) if margin else None,
                        values.get("moves"), not values["unrated"], values["again"], games)


def _report_ffa(values: Values, _: UserRef) -> str:
    moves = values.get("moves")
    return (f"/report ffa {values['players']}"
            + (f" moves={moves}" if moves is not None else "")
            + (" unrated" if values["unrated"] else ""))


def _report_teams(values: Values, _: UserRef) -> str:
    result, team1, team2 = values["result"], values["team1"], values["team2"]
    first, second = (team2, team1) if result == "team2" else (team1, team2)
    tail = (" draw" if result == "draw" else "") + (" unrated" if values["unrated"] else "")
    return f"/report teams {first} vs {second}{tail}"


def _help(values: Values, _: UserRef) -> Command:
    topic = values.get("command")
    return Help(topic.strip().lstrip("/").lower() if topic else None)


LADDER_FORMS: tuple[Form, ...] = (
    Form(("ladder", "create"), N_("menu.ladder_create"), (
        LADDER_NAME,
        Param("preset", high=CHOICE, required=True, choices=tuple((p, None) for p in PRESETS)),
        Param("options", high=MAX_TEXT)),
        # (the parser checks the name and every key=value, with its usage line)
        lambda v, _: f"/ladder create {v['name']} preset={v['preset']} {v['options'] or ''}",
        ladder=False),
    Form(("ladder", "set"), N_("menu.ladder_set"), (Param("options", high=MAX_TEXT,
                                                          required=True),),
         lambda v, _: f"/ladder set {v['options']}"),
    Form(("ladder", "info"), N_("menu.ladder_info"), (), const(ShowLadder())),
    Form(("ladder", "pin"), N_("menu.ladder_pin"), (), const(PinStandings())),
    Form(("ladder", "unpin"), N_("menu.ladder_unpin"), (), const(UnpinStandings())),
    Form(("ladder", "list"), N_("menu.ladder_list"), (), const(ListLadders()), ladder=False),
    Form(("ladder", "default"), N_("menu.ladder_default"), (LADDER_NAME,),
         lambda v, _: MakeDefault(v["name"]), ladder=False),
    Form(("ladder", "rename"), N_("menu.ladder_rename"),
         (Param("name", high=LADDER_LENGTH, required=True, help=N_("menu.opt_new_name")),),
         lambda v, _: f"/ladder rename {v['name']}"),
    Form(("ladder", "delete"), N_("menu.ladder_delete"), (
        LADDER_NAME, Param("confirm", Kind.BOOL, default=False,
                           help=N_("menu.opt_confirm_delete"))),
         lambda v, _: f"/ladder delete {v['name']}" + (" confirm" if v["confirm"] else ""),
         ladder=False),
    Form(("ladder", "share"), N_("menu.ladder_share"), (), const(ShareLadder())),
    Form(("ladder", "join-share"), N_("menu.ladder_join_share"), (
        Param("code", high=CODE, required=True, help=N_("menu.opt_share_code")),
        Param("name", high=LADDER_LENGTH, required=True, help=N_("menu.opt_share_name"))),
         lambda v, _: f"/ladder join-share {v['code'].strip()} {v['name'].strip()}",
         ladder=False),
    Form(("ladder", "unshare"), N_("menu.ladder_unshare"), (), const(Unshare())),
)

ACCOUNT_FORMS: tuple[Form, ...] = (
    Form(("link",), N_("menu.link"), (Param("code", high=CODE,
                                            help=N_("menu.opt_link_code")),),
         lambda v, _: LinkAccount(v["code"].strip() if v["code"] else None), ladder=False),
    Form(("unlink",), N_("menu.unlink"), (), const(UnlinkAccount()), ladder=False),
)

PLAY_FORMS: tuple[Form, ...] = (
    Form(("accept",), N_("menu.accept"), (Param("challenger", Kind.USER),),
         # (a challenger named: their challenge to you, or their open challenge to anyone)
         lambda v, _: AcceptChallenge(user(v, "challenger"))),
    Form(("players",), N_("menu.players"), (PAGE,), lambda v, _: ShowPlayers(v["page"])),
    Form(("challenge-cancel",), N_("menu.challenge_cancel"),
         (Param("opponent", Kind.USER, help=N_("menu.opt_challenged")),),
         lambda v, _: WithdrawChallenge(user(v, "opponent"))),
    Form(("queue",), N_("menu.queue"), (), const(JoinQueue())),
    Form(("queue-leave",), N_("menu.queue_leave"), (), const(LeaveQueue())),
    Form(("ready",), N_("menu.ready"), (
        Param("match", Kind.INT, high=LAST_ID, help=N_("menu.opt_queue_match")),),
         lambda v, _: Ready(v["match"])),
    Form(("challenge",), N_("menu.challenge"), (
        Param("opponent", Kind.USER, help=N_("menu.opt_challenged")),
        Param("opponent_name", high=NAME_LENGTH)),
         # (no opponent: an open challenge, taken by the first /accept naming the challenger)
         lambda v, _: IssueChallenge(user(v, "opponent") or (
             named(v["opponent_name"]) if v["opponent_name"] else None))),
    Form(("decline",), N_("menu.decline"), (OPTIONAL_REASON, Param("challenger", Kind.USER)),
         lambda v, _: DeclineChallenge(v["reason"], user(v, "challenger"))),
    Form(("report",), N_("menu.report"), (
        Param("result", high=CHOICE, required=True,
              choices=(("win", None), ("loss", None), ("draw", None))),
        Param("opponent", Kind.USER), Param("opponent_name", high=NAME_LENGTH),
        Param("score", high=16), Param("margin", high=CHOICE,
                                       choices=tuple((m.value, None) for m in Margin)),
        MOVES, UNRATED, Param("again", Kind.BOOL, default=False)), _report),
    Form(("report-ffa",), N_("menu.report_ffa"), (
        Param("players", high=MAX_TEXT, required=True, help=N_("menu.opt_players")),
        MOVES, UNRATED), _report_ffa),
    Form(("report-teams",), N_("menu.report_teams"), (
        Param("team1", high=MAX_TEXT, required=True, help=N_("menu.opt_team1")),
        Param("team2", high=MAX_TEXT, required=True, help=N_("menu.opt_team2")),
        Param("result", high=CHOICE, required=True, help=N_("menu.opt_team_result"),
              choices=(("team1", N_("menu.choice_team1")), ("team2", N_("menu.choice_team2")),
                       ("draw", N_("menu.choice_draw")))),
        UNRATED), _report_teams),
    Form(("confirm",), N_("menu.confirm"), (OPTIONAL_MATCH,),
         lambda v, _: ConfirmResult(v["match"])),
    Form(("dispute",), N_("menu.dispute"), (OPTIONAL_REASON, OPTIONAL_MATCH),
         lambda v, _: DisputeResult(v["match"], v["reason"])),
    Form(("withdraw",), N_("menu.withdraw"), (OPTIONAL_MATCH,),
         lambda v, _: WithdrawReport(v["match"])),
    Form(("standings",), N_("menu.standings"), (
        Param("table", high=CHOICE, choices=tuple(
            (t, None) for t in ("season", "week", "ladder", "rating"))), PAGE),
         lambda v, _: ShowStandings(v["table"], v["page"])),
    Form(("profile",), N_("menu.profile"), (Param("player", Kind.USER),),
         lambda v, _: ShowProfile(user(v, "player"))),
    Form(("history",), N_("menu.history"), (Param("player", Kind.USER), PAGE),
         lambda v, _: ShowHistory(user(v, "player"), v["page"])),
    h2h.FORM,
    Form(("help",), N_("menu.help"), (Param("command", high=32, complete="topics"),), _help,
         ladder=False, guild_only=False),
)

MOD_FORMS: tuple[Form, ...] = (
    Form(("mod", "void"), N_("menu.mod_void"),
         (Param("match", Kind.INT, high=LAST_ID, required=True, complete="matches"), REASON),
         lambda v, _: VoidMatch(v["match"], v["reason"])),
    Form(("mod", "set"), N_("menu.mod_set"), (
        Param("match", Kind.INT, high=LAST_ID, required=True, complete="matches"),
        Param("result", high=MAX_TEXT, required=True, help=N_("menu.opt_mod_result")), REASON),
         lambda v, _: f"/mod set {v['match']} {v['result']} {v['reason']}"),
    Form(("mod", "adjust"), N_("menu.mod_adjust"), (
        PLAYER, Param("amount", Kind.INT, low=-MAX_ADJUST, high=MAX_ADJUST, required=True),
        REASON), lambda v, _: AdjustRating(v["player"], float(v["amount"]), v["reason"])),
    Form(("mod", "remove"), N_("menu.mod_remove"), (PLAYER, REASON),
         lambda v, _: RemovePlayer(v["player"], v["reason"])),
    Form(("mod", "add"), N_("menu.mod_add"), (PLAYER,), lambda v, _: AddPlayer(v["player"])),
    Form(("mod", "ban"), N_("menu.mod_ban"), (PLAYER, REASON),
         lambda v, _: BanPlayer(v["player"], v["reason"])),
    Form(("mod", "unban"), N_("menu.mod_unban"), (PLAYER, REASON),
         lambda v, _: UnbanPlayer(v["player"], v["reason"])),
    Form(("mod", "cancel"), N_("menu.mod_cancel"), (
        Param("challenge", Kind.INT, high=LAST_ID, required=True), REASON),
         lambda v, _: f"/mod cancel {v['challenge']} {v['reason']}"),
    Form(("mod", "season-close"), N_("menu.mod_season_close"), (OPTIONAL_REASON,),
         lambda v, _: CloseSeason(v["reason"])),
)


def _bare_forms() -> tuple[Form, ...]:
    """Every word that takes no arguments, as the registry has it."""
    return tuple(Form((spec.word,), spec.menu, (), const(spec.bare))
                 for spec in SPECS if spec.bare is not None)


# Every typed command, in the order a menu lists them.
FORMS: tuple[Form, ...] = (*ACCOUNT_FORMS, *LADDER_FORMS, *_bare_forms(), *PLAY_FORMS,
                           *MOD_FORMS)
