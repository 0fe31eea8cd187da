"""The command parser: every command of CONSOLE.md, and malformed input."""

import pytest

from core.commands.challenges import AcceptChallenge, DeclineChallenge, IssueChallenge
from core.commands.checks import check
from core.commands.help import Help
from core.commands.ladders import ChangeSettings, CreateLadder
from core.commands.membership import Join, Leave, SetAvailability
from core.commands.moderation import AdjustRating, CloseSeason, RemovePlayer, SetResult, VoidMatch
from core.commands.reading import parse
from core.commands.reports import ConfirmResult, DisputeResult, ReportResult, WithdrawReport
from core.commands.views import ShowHistory, ShowProfile, ShowStandings
from core.commands.words import command_word
from core.domain.errors import UnknownPlayer, UsageError
from core.domain.model import Margin
from core.domain.records import UserRef

ME = UserRef("console:me", "me")


def resolve(name: str) -> UserRef | None:
    return None if name == "ghost" else UserRef(f"console:{name}", name)


def p(text: str, reply_to: UserRef | None = None) -> object:
    parsed = parse(text, ME, resolve, reply_to)
    assert parsed is not None
    return parsed.command


def u(name: str) -> UserRef:
    return UserRef(f"console:{name}", name)


@pytest.mark.parametrize(
    ("text", "command"),
    [
        ("/join", Join()),
        ("/leave", Leave()),
        ("/challenge @bob", IssueChallenge(u("bob"))),
        ("/challenge", IssueChallenge(None)),  # an open challenge
        ("/accept", AcceptChallenge()),
        ("/accept @bob", AcceptChallenge(u("bob"))),
        ("/decline", DeclineChallenge("")),
        ("/decline I am on holiday", DeclineChallenge("I am on holiday")),
        ("/available", SetAvailability(True)),
        ("/unavailable", SetAvailability(False)),
        ("/report win @bob", ReportResult(((ME,), (u("bob"),)))),
        ("/report loss @bob major", ReportResult(((u("bob"),), (ME,)), margin=Margin.MAJOR)),
        ("/report draw @bob moves=40", ReportResult(((ME,), (u("bob"),)), draw=True, moves=40)),
        ("/report win @bob overwhelming moves=12 unrated",
         ReportResult(((ME,), (u("bob"),)), margin=Margin.OVERWHELMING, moves=12, rated=False)),
        ("/report ffa @a @b @c", ReportResult(((u("a"),), (u("b"),), (u("c"),)))),
        ("/report teams @a @b vs @c @d", ReportResult(((u("a"), u("b")), (u("c"), u("d"))))),
        ("/report teams @a @b vs @c @d draw",
         ReportResult(((u("a"), u("b")), (u("c"), u("d"))), draw=True)),
        ("/confirm", ConfirmResult()),
        ("/confirm 12", ConfirmResult(12)),
        ("/confirm #12", ConfirmResult(12)),
        ("/dispute", DisputeResult(None, "")),
        ("/dispute 3 he left early", DisputeResult(3, "he left early")),
        ("/withdraw", WithdrawReport()),
        ("/withdraw #4", WithdrawReport(4)),
        ("/standings", ShowStandings()),
        ("/standings week", ShowStandings("week")),
        ("/profile", ShowProfile()),
        ("/profile @bob", ShowProfile(u("bob"))),
        ("/history @bob", ShowHistory(u("bob"))),
        ("/mod void 3 wrong players", VoidMatch(3, "wrong players")),
        ("/mod adjust @bob +25 bonus", AdjustRating(u("bob"), 25.0, "bonus")),
        ("/mod adjust @bob -3 no-show", AdjustRating(u("bob"), -3.0, "no-show")),
        ("/mod remove @bob inactive since May", RemovePlayer(u("bob"), "inactive since May")),
        ("/mod season close", CloseSeason("")),
        ("/mod season close early end", CloseSeason("early end")),
        ("/help", Help()),
        ("/help /report", Help("report")),
        ("/ladder create main preset=duel confirm=false",
         CreateLadder("main", "duel", (("confirm", "false"),))),
        ("/ladder set ffa=placement timezone=Europe/Amsterdam",
         ChangeSettings((("ffa", "placement"), ("timezone", "Europe/Amsterdam")))),
    ],
)
def test_commands_parse(text: str, command: object) -> None:
    assert p(text) == command


def test_mod_set_result_spec_and_reason() -> None:
    cmd = p("/mod set 4 @bob major moves=30 wrong winner reported")
    assert isinstance(cmd, SetResult)
    assert cmd.match_id == 4
    assert cmd.result.order == (u("bob"),)
    assert cmd.result.margin is Margin.MAJOR
    assert cmd.result.moves == 30
    assert cmd.reason == "wrong winner reported"
    draw = p("/mod set 4 draw unrated both agreed")
    assert isinstance(draw, SetResult)
    assert draw.result.draw and draw.result.rated is False


def test_not_a_command() -> None:
    assert parse("hello there", ME, resolve) is None
    assert parse("  ", ME, resolve) is None


def test_bot_suffix_and_case_are_ignored() -> None:
    assert command_word("/Report@LadderBot win @bob") == "report"
    assert p("/JOIN@LadderBot") == Join()


def test_ladder_option_on_any_command() -> None:
    parsed = parse("/report win @bob ladder=second", ME, resolve)
    assert parsed is not None and parsed.ladder == "second"
    assert parsed.command == ReportResult(((ME,), (u("bob"),)))


def test_reply_to_names_the_opponent() -> None:
    assert p("/report win", reply_to=u("bob")) == ReportResult(((ME,), (u("bob"),)))


def test_mention_with_trailing_punctuation() -> None:
    assert p("/challenge @bob,") == IssueChallenge(u("bob"))


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("/frobnicate", "I don't know the command /\u200bfrobnicate. /help lists the commands."),
        ("/hall", "I don't know the command /\u200bhall. Did you mean /halloffame?"),
        ("/reprot win @bob", "Did you mean /report?"),
        ("/stand", "Did you mean /standings?"),
        ("/leaderboard", "Did you mean /standings?"),
        ("/unjoin", "Did you mean /leave?"),
        ("/register", "Did you mean /join?"),
        ("/challenges", "Did you mean /profile? It lists your open reports and challenges."),
        ("/pending", "Did you mean /profile? It lists your open reports and challenges."),
        ("/report", "Say what happened"),
        ("/report win bob", "'bob' is not a player; name players as @name"),
        ("/report tie @bob", "a report starts with win, loss, draw, ffa or teams. Did you "
                             "mean draw?"),
        ("/report lost @bob", "Did you mean loss?"),
        ("/report wins @bob", "Did you mean win?"),
        ("/report xyzzy @bob", "'xyzzy': a report starts with win, loss, draw, ffa or teams.\n"),
        ("/report win @bob moves=lots", "moves=N takes a whole number"),
        ("/report win @bob moves=-3", "moves=N takes a whole number"),
        ("/report ffa @a", "Name every player in finishing order"),
        ("/report teams @a @b", "Name both teams"),
        ("/report ffa @a @b @c draw", "I don't understand 'draw'"),
        ("/report win @bob @carol", "A win, loss or draw names one opponent: a game of more "
                                    "players is /report ffa @1st @2nd ... or /report teams "
                                    "@a @b vs @c @d."),
        ("/challenge bob", "I don't understand 'bob'"),
        ("/confirm soon", "I don't understand 'soon'"),
        ("/standings monthly", "There is no table called 'monthly'"),
        ("/mod", "Say what to do"),
        ("/mod void", "Give the match id"),
        ("/mod void 3", "Moderator actions need a reason"),
        ("/mod set 3 wrong", "Say the new result"),
        ("/mod adjust @bob 25 bonus", "Give the change as +N or -N"),
        ("/mod adjust @bob +0 nothing", "Give the change as +N or -N"),
        ("/mod adjust @bob +999999 big", "Give the change as +N or -N, at most 10,000 "),
        ("/mod season open", "Did you mean /mod season close"),
        ("/mod ban @bob", "Moderator actions need a reason"),
        ("/mod kick @bob", "I don't know /mod kick"),
        ("/ladder create", "Name the new ladder"),
        ("/ladder create main", "Say which rulebook"),
        ("/ladder create ma!n preset=duel", "A ladder name is 1-32 letters"),
        ("/ladder create main preset=duel k", "Settings are written key=value"),
        ("/ladder set", "Give at least one key=value"),
        ("/ladder destroy", "I don't know /ladder destroy"),
        ("/join now", "I don't understand 'now'"),
        ("/dispute " + "x" * 400, "Keep the reason under 300 characters"),
    ],
)
def test_malformed_commands_get_their_usage(text: str, problem: str) -> None:
    with pytest.raises(UsageError) as refused:
        parse(text, ME, resolve)
    message = str(refused.value)
    assert problem in message
    if "I don't know the command" not in message:
        assert "Usage: /" in message


@pytest.mark.parametrize(
    ("text", "shown", "not_shown"),
    [
        ("/mod adjust @bob +1e9 why", "Usage: /mod adjust @user +N|-N reason...\n", "/mod void"),
        ("/ladder set", "/ladder set key=value ... | /ladder set preset=PRESET", "create"),
        ("/report loss @bob moves=-1", "Usage: /report win|loss|draw @user", "/report ffa"),
        ("/tournament join a b c", "Usage: /tournament join|leave|start|ready [NAME]\n",
         "create"),
        ("/mod frobnicate", "/mod void MATCH_ID reason... | /mod set", "\0"),  # (all forms)
    ],
)
def test_a_usage_line_names_the_forms_the_command_began(text: str, shown: str,
                                                        not_shown: str) -> None:
    # (a mistyped `/mod adjust` is told its own form, not all eleven of /mod)
    with pytest.raises(UsageError) as refused:
        parse(text, ME, resolve)
    message = str(refused.value) + "\n"
    assert shown in message
    assert not_shown not in message


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("/report draw @bob major", "A draw carries no margin"),
        ("/report teams @a vs @a", "Each player can appear only once"),
        ("/report win @me", "You cannot report a game against yourself"),
        ("/mod set 3 draw major oops", "A draw carries no margin"),
    ],
)
def test_commands_that_cannot_be_meant_are_refused_by_their_checks(text: str,
                                                                    problem: str) -> None:
    # (parsed, they are judged by core.commands.checks, as a command from typed options is)
    with pytest.raises(UsageError, match=problem):
        parsed = parse(text, ME, resolve)
        assert parsed is not None
        check(parsed.command, ME)


def test_unknown_mention_is_told_to_join() -> None:
    with pytest.raises(UnknownPlayer, match="ask @ghost to /join first"):
        parse("/report win @ghost", ME, resolve)


def test_text_over_2000_characters_is_refused() -> None:
    with pytest.raises(UsageError, match="2,001 characters long; commands are limited to 2,000"):
        parse("/report win @bob " + "x" * 1984, ME, resolve)
    # exactly 2,000 is read (and then judged on its content)
    with pytest.raises(UsageError, match="I don't understand"):
        parse("/report win @bob " + "x" * 1983, ME, resolve)


def test_every_command_word_has_help_and_a_usage_line() -> None:
    from core.commands.registry import SPECS, USAGE
    from core.i18n import render
    from core.service.helptext import help_text

    for spec in SPECS:
        text = render(help_text(spec.word), "en")
        assert USAGE[spec.word] in text and text.splitlines()[0] != render(
            help_text("nosuchword"), "en"), spec.word
