"""Discord's slash commands: every command of CONSOLE.md, as typed options.

Typed options become the core's commands; options that hold several players (a
free-for-all, teams, a moderator's new result) and settings are written as the text a
chat would send and parsed by the core. Discord checks what it can itself (choices,
ranges, lengths) from the core's own limits; the core checks them again.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.discord import DiscordPlatform, user_ref
from bot.discord_sharing import named, register_sharing
from bot.discord_words import options, said
from core.commands.parsing import MAX_TEXT
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
    ListLadders,
    MakeDefault,
    PinStandings,
    Ready,
    RemovePlayer,
    ReportResult,
    ShowHistory,
    ShowLadder,
    ShowPlayers,
    ShowProfile,
    ShowStandings,
    UnbanPlayer,
    UnpinStandings,
    VoidMatch,
    WithdrawChallenge,
    WithdrawReport,
)
from core.commands.words import LADDER_LENGTH, MAX_ADJUST, MAX_PAGE, MAX_REASON, read_score
from core.domain.errors import UsageError
from core.domain.model import Margin
from core.domain.records import Reply
from core.domain.settings import MAX_BESTOF, PRESETS
from core.i18n import N_, language_of, render, t
from core.service.registry import SPECS, USAGE

PRESET = [app_commands.Choice(name=p, value=p) for p in PRESETS]
TABLE = [app_commands.Choice(name=t, value=t) for t in ("season", "week", "ladder", "rating")]
PAGE = app_commands.Range[int, 1, MAX_PAGE]
# Discord checks these itself, from the core's own limits (core/commands/checks.py checks again).
REASON = app_commands.Range[str, 1, MAX_REASON]
ADJUST = app_commands.Range[int, -MAX_ADJUST, MAX_ADJUST]
RESULT = [app_commands.Choice(name=r, value=r) for r in ("win", "loss", "draw")]
MARGIN = [app_commands.Choice(name=m.value, value=m.value) for m in Margin]
TEAM_RESULT = [app_commands.Choice(name=said("menu.choice_team1"), value="team1"),
               app_commands.Choice(name=said("menu.choice_team2"), value="team2"),
               app_commands.Choice(name=said("menu.choice_draw"), value="draw")]
NAME = app_commands.Range[str, 1, 32]  # a player's ladder name (one on no Discord server)
# Every text option has a length Discord checks (at most 6,000; one without any took a
# 6,000-character value that came back in four messages): a ladder's name, a choice, and
# text the core reads as a chat line would (at most a command's length).
LADDER = app_commands.Range[str, 1, LADDER_LENGTH]
CHOICE = app_commands.Range[str, 1, 32]
TEXT = app_commands.Range[str, 1, MAX_TEXT]
# A match's or challenge's number: Discord's integers end at 2^53 - 1 (discord-api-spec's
# Int53Type; 2^53 failed the whole bulk registration of every command).
MATCH = app_commands.Range[int, 1, 2**53 - 1]
HELP_TOPICS = [*USAGE, "settings", "presets"]  # offered as typed: more than 25 choices


def register(p: DiscordPlatform) -> None:
    """Every command of CONSOLE.md as a slash command (names documented in README)."""
    tree = p.tree
    user = user_ref

    ladder_group = app_commands.Group(name="ladder", description=said("menu.ladder"),
                                      guild_only=True)

    @ladder_group.command(name="create", description=said("menu.ladder_create"))
    @options()
    @app_commands.choices(preset=PRESET)
    async def ladder_create(i: discord.Interaction[Any], name: LADDER, preset: CHOICE,
                            options: TEXT | None = None) -> None:
        # The parser checks the name and every key=value, with its usage line.
        await p.answer(i, None, None, f"/ladder create {name} preset={preset} {options or ''}")

    @ladder_group.command(name="set", description=said("menu.ladder_set"))
    @options()
    async def ladder_set(i: discord.Interaction[Any], options: TEXT, ladder: LADDER | None = None
                         ) -> None:
        await p.answer(i, None, ladder, f"/ladder set {options}")

    @ladder_group.command(name="info", description=said("menu.ladder_info"))
    @options()
    async def ladder_info(i: discord.Interaction[Any], ladder: LADDER | None = None) -> None:
        await p.answer(i, ShowLadder(), ladder)

    @ladder_group.command(name="pin", description=said("menu.ladder_pin"))
    @options()
    async def ladder_pin(i: discord.Interaction[Any], ladder: LADDER | None = None) -> None:
        await p.answer(i, PinStandings(), ladder)

    @ladder_group.command(name="unpin", description=said("menu.ladder_unpin"))
    @options()
    async def ladder_unpin(i: discord.Interaction[Any], ladder: LADDER | None = None) -> None:
        await p.answer(i, UnpinStandings(), ladder)

    @ladder_group.command(name="list", description=said("menu.ladder_list"))
    async def ladder_list(i: discord.Interaction[Any]) -> None:
        await p.answer(i, ListLadders())

    @ladder_group.command(name="default", description=said("menu.ladder_default"))
    @options()
    async def ladder_default(i: discord.Interaction[Any], name: LADDER) -> None:
        await p.answer(i, MakeDefault(name))

    @ladder_group.command(name="rename", description=said("menu.ladder_rename"))
    @options(name=N_("menu.opt_new_name"))
    async def ladder_rename(i: discord.Interaction[Any], name: LADDER,
                            ladder: LADDER | None = None) -> None:
        await p.answer(i, None, ladder, f"/ladder rename {name}")

    @ladder_group.command(name="delete", description=said("menu.ladder_delete"))
    @options(confirm=N_("menu.opt_confirm_delete"))
    async def ladder_delete(i: discord.Interaction[Any], name: LADDER,
                            confirm: bool = False) -> None:
        await p.answer(i, None, None, f"/ladder delete {name}" + (" confirm" if confirm else ""))

    register_sharing(p, ladder_group)
    tree.add_command(ladder_group)

    def simple(name: str, description: str, command: Command) -> None:
        @app_commands.command(name=name, description=description)
        @app_commands.guild_only()
        @options()
        async def run(i: discord.Interaction[Any], ladder: LADDER | None = None) -> None:
            await p.answer(i, command, ladder)

        tree.add_command(run)

    for spec in SPECS:  # every word that takes no arguments, as the registry has it
        if spec.bare is not None:
            simple(spec.word, said(spec.menu), spec.bare)

    @tree.command(name="accept", description=said("menu.accept"))
    @app_commands.guild_only()
    @options()
    async def accept(i: discord.Interaction[Any], challenger: discord.User | None = None,
                     ladder: LADDER | None = None) -> None:
        # (a challenger named: their challenge to you, or their open challenge to anyone)
        await p.answer(i, AcceptChallenge(user(challenger) if challenger else None), ladder)

    @tree.command(name="players", description=said("menu.players"))
    @app_commands.guild_only()
    @options()
    async def players(i: discord.Interaction[Any], page: PAGE = 1,
                      ladder: LADDER | None = None) -> None:
        await p.answer(i, ShowPlayers(page), ladder)

    @tree.command(name="challenge-cancel", description=said("menu.challenge_cancel"))
    @app_commands.guild_only()
    @options(opponent=N_("menu.opt_challenged"))
    async def challenge_cancel(i: discord.Interaction[Any],
                               opponent: discord.User | None = None,
                               ladder: LADDER | None = None) -> None:
        await p.answer(i, WithdrawChallenge(user(opponent) if opponent else None), ladder)

    @tree.command(name="queue", description=said("menu.queue"))
    @app_commands.guild_only()
    @options()
    async def queue(i: discord.Interaction[Any], ladder: LADDER | None = None) -> None:
        await p.answer(i, JoinQueue(), ladder)

    @tree.command(name="queue-leave", description=said("menu.queue_leave"))
    @app_commands.guild_only()
    @options()
    async def queue_leave(i: discord.Interaction[Any], ladder: LADDER | None = None) -> None:
        await p.answer(i, LeaveQueue(), ladder)

    @tree.command(name="ready", description=said("menu.ready"))
    @app_commands.guild_only()
    @options(match=N_("menu.opt_queue_match"))
    async def ready(i: discord.Interaction[Any],
                    match: MATCH | None = None,
                    ladder: LADDER | None = None) -> None:
        await p.answer(i, Ready(match), ladder)

    @tree.command(name="challenge", description=said("menu.challenge"))
    @app_commands.guild_only()
    @options(opponent=N_("menu.opt_challenged"))
    async def challenge(i: discord.Interaction[Any], opponent: discord.User | None = None,
                        opponent_name: NAME | None = None, ladder: LADDER | None = None) -> None:
        # (no opponent: an open challenge, taken by the first /accept naming the challenger)
        them = user(opponent) if opponent else named(opponent_name) if opponent_name else None
        await p.answer(i, IssueChallenge(them), ladder)

    @tree.command(name="decline", description=said("menu.decline"))
    @app_commands.guild_only()
    @options()
    async def decline(i: discord.Interaction[Any], reason: REASON = "",
                      challenger: discord.User | None = None,
                      ladder: LADDER | None = None) -> None:
        await p.answer(i, DeclineChallenge(reason, user(challenger) if challenger else None),
                       ladder)

    @tree.command(name="report", description=said("menu.report"))
    @app_commands.guild_only()
    @options()
    @app_commands.choices(result=RESULT, margin=MARGIN)
    async def report(i: discord.Interaction[Any], result: CHOICE,
                     opponent: discord.User | None = None, opponent_name: NAME | None = None,
                     score: app_commands.Range[str, 1, 16] | None = None,
                     margin: CHOICE | None = None,
                     moves: app_commands.Range[int, 0, 100_000] | None = None,
                     unrated: bool = False, again: bool = False,
                     ladder: LADDER | None = None) -> None:
        language = language_of(i.locale.value, p.config.policy.language)
        if (opponent is None) == (opponent_name is None):  # one of the two names them
            await p.respond(i, Reply(render(t("report.one_opponent"), language), error=True))
            return
        me = (user(i.user),)
        them = (user(opponent),) if opponent is not None else (named(opponent_name or ""),)
        try:
            games = None if score is None else read_score(score.strip(), result == "draw")
            if score is not None and games is None:
                raise UsageError(t("parse.score", max=MAX_BESTOF))
        except UsageError as error:
            await p.respond(i, Reply(render(error.reason, language), error=True))
            return
        sides = (them, me) if result == "loss" else (me, them)
        await p.answer(i, ReportResult(sides, result == "draw",
                                       Margin(margin) if margin else None, moves, not unrated,
                                       again, games),
                       ladder)

    @tree.command(name="report-ffa", description=said("menu.report_ffa"))
    @app_commands.guild_only()
    @options(players=N_("menu.opt_players"))
    async def report_ffa(i: discord.Interaction[Any], players: TEXT,
                         moves: app_commands.Range[int, 0, 100_000] | None = None,
                         unrated: bool = False, ladder: LADDER | None = None) -> None:
        extra = (f" moves={moves}" if moves is not None else "") + (" unrated" if unrated else "")
        await p.answer(i, None, ladder, f"/report ffa {players}{extra}")

    @tree.command(name="report-teams", description=said("menu.report_teams"))
    @app_commands.guild_only()
    @options(team1=N_("menu.opt_team1"), team2=N_("menu.opt_team2"),
             result=N_("menu.opt_team_result"))
    @app_commands.choices(result=TEAM_RESULT)
    async def report_teams(i: discord.Interaction[Any], team1: TEXT, team2: TEXT,
                           result: CHOICE,
                           unrated: bool = False, ladder: LADDER | None = None) -> None:
        first, second = (team2, team1) if result == "team2" else (team1, team2)
        tail = (" draw" if result == "draw" else "") + (" unrated" if unrated else "")
        await p.answer(i, None, ladder, f"/report teams {first} vs {second}{tail}")

    @tree.command(name="confirm", description=said("menu.confirm"))
    @app_commands.guild_only()
    @options()
    async def confirm(i: discord.Interaction[Any], match: MATCH | None = None,
                      ladder: LADDER | None = None) -> None:
        await p.answer(i, ConfirmResult(match), ladder)

    @tree.command(name="dispute", description=said("menu.dispute"))
    @app_commands.guild_only()
    @options()
    async def dispute(i: discord.Interaction[Any], reason: REASON = "", match: MATCH | None = None,
                      ladder: LADDER | None = None) -> None:
        await p.answer(i, DisputeResult(match, reason), ladder)

    @tree.command(name="withdraw", description=said("menu.withdraw"))
    @app_commands.guild_only()
    @options()
    async def withdraw(i: discord.Interaction[Any], match: MATCH | None = None,
                       ladder: LADDER | None = None) -> None:
        await p.answer(i, WithdrawReport(match), ladder)

    @tree.command(name="standings", description=said("menu.standings"))
    @app_commands.guild_only()
    @app_commands.choices(table=TABLE)
    @options()
    async def standings(i: discord.Interaction[Any], table: CHOICE | None = None,
                        page: PAGE = 1, ladder: LADDER | None = None) -> None:
        await p.answer(i, ShowStandings(table, page), ladder)

    @tree.command(name="profile", description=said("menu.profile"))
    @app_commands.guild_only()
    @options()
    async def profile(i: discord.Interaction[Any], player: discord.User | None = None,
                      ladder: LADDER | None = None) -> None:
        await p.answer(i, ShowProfile(user(player) if player else None), ladder)

    @tree.command(name="history", description=said("menu.history"))
    @app_commands.guild_only()
    @options()
    async def history(i: discord.Interaction[Any], player: discord.User | None = None,
                      page: PAGE = 1, ladder: LADDER | None = None) -> None:
        await p.answer(i, ShowHistory(user(player) if player else None, page), ladder)

    @tree.command(name="help", description=said("menu.help"))
    @options()
    async def help_(i: discord.Interaction[Any],
                    command: app_commands.Range[str, 1, 32] | None = None) -> None:
        await p.answer(i, Help(command.strip().lstrip("/").lower() if command else None))

    @help_.autocomplete("command")
    async def help_topics(i: discord.Interaction[Any],
                          current: str) -> list[app_commands.Choice[str]]:
        # (Discord takes at most 25 choices, and there are more topics: the ones that fit)
        wanted = current.strip().lstrip("/").lower()
        return [app_commands.Choice(name=w, value=w) for w in HELP_TOPICS if wanted in w][:25]

    mod = app_commands.Group(name="mod", description=said("menu.mod"), guild_only=True)

    @mod.command(name="void", description=said("menu.mod_void"))
    @options()
    async def mod_void(i: discord.Interaction[Any], match: MATCH, reason: REASON,
                       ladder: LADDER | None = None) -> None:
        await p.answer(i, VoidMatch(match, reason), ladder)

    @mod.command(name="set", description=said("menu.mod_set"))
    @options(result=N_("menu.opt_mod_result"))
    async def mod_set(i: discord.Interaction[Any], match: MATCH, result: TEXT, reason: REASON,
                      ladder: LADDER | None = None) -> None:
        await p.answer(i, None, ladder, f"/mod set {match} {result} {reason}")

    @mod.command(name="adjust", description=said("menu.mod_adjust"))
    @options()
    async def mod_adjust(i: discord.Interaction[Any], player: discord.User,
                         amount: ADJUST, reason: REASON,
                         ladder: LADDER | None = None) -> None:
        await p.answer(i, AdjustRating(user(player), float(amount), reason), ladder)

    @mod.command(name="remove", description=said("menu.mod_remove"))
    @options()
    async def mod_remove(i: discord.Interaction[Any], player: discord.User, reason: REASON,
                         ladder: LADDER | None = None) -> None:
        await p.answer(i, RemovePlayer(user(player), reason), ladder)

    @mod.command(name="add", description=said("menu.mod_add"))
    @options()
    async def mod_add(i: discord.Interaction[Any], player: discord.User,
                      ladder: LADDER | None = None) -> None:
        await p.answer(i, AddPlayer(user(player)), ladder)

    @mod.command(name="ban", description=said("menu.mod_ban"))
    @options()
    async def mod_ban(i: discord.Interaction[Any], player: discord.User, reason: REASON,
                      ladder: LADDER | None = None) -> None:
        await p.answer(i, BanPlayer(user(player), reason), ladder)

    @mod.command(name="unban", description=said("menu.mod_unban"))
    @options()
    async def mod_unban(i: discord.Interaction[Any], player: discord.User, reason: REASON,
                        ladder: LADDER | None = None) -> None:
        await p.answer(i, UnbanPlayer(user(player), reason), ladder)

    @mod.command(name="cancel", description=said("menu.mod_cancel"))
    @options()
    async def mod_cancel(i: discord.Interaction[Any], challenge: MATCH, reason: REASON,
                         ladder: LADDER | None = None) -> None:
        await p.answer(i, None, ladder, f"/mod cancel {challenge} {reason}")

    @mod.command(name="season-close", description=said("menu.mod_season_close"))
    @options()
    async def mod_season_close(i: discord.Interaction[Any], reason: REASON = "",
                               ladder: LADDER | None = None) -> None:
        await p.answer(i, CloseSeason(reason), ladder)

    mod_void.autocomplete("match")(p.match_choices)
    mod_set.autocomplete("match")(p.match_choices)
    tree.add_command(mod)
