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
from core.commands import (
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
    Join,
    Leave,
    ListLadders,
    MakeDefault,
    RemovePlayer,
    ReportResult,
    SetAvailability,
    ShowHallOfFame,
    ShowHistory,
    ShowLadder,
    ShowPlayers,
    ShowProfile,
    ShowStandings,
    UnbanPlayer,
    VoidMatch,
    WithdrawChallenge,
    WithdrawReport,
)
from core.helptext import USAGE
from core.model import Margin
from core.records import Reply
from core.settings import PRESETS
from core.words import MAX_ADJUST, MAX_PAGE, MAX_REASON

PRESET = [app_commands.Choice(name=p, value=p) for p in PRESETS]
TABLE = [app_commands.Choice(name=t, value=t) for t in ("season", "week", "ladder", "rating")]
PAGE = app_commands.Range[int, 1, MAX_PAGE]
# Discord checks these itself, from the core's own limits (core/checks.py checks again).
REASON = app_commands.Range[str, 1, MAX_REASON]
ADJUST = app_commands.Range[int, -MAX_ADJUST, MAX_ADJUST]
RESULT = [app_commands.Choice(name=r, value=r) for r in ("win", "loss", "draw")]
MARGIN = [app_commands.Choice(name=m.value, value=m.value) for m in Margin]
TEAM_RESULT = [app_commands.Choice(name="team1 won", value="team1"),
               app_commands.Choice(name="team2 won", value="team2"),
               app_commands.Choice(name="draw", value="draw")]
HELP_TOPICS = [app_commands.Choice(name=w, value=w) for w in [*USAGE, "settings", "presets"]]
LADDER = "the ladder (default: this server's first)"


def register(p: DiscordPlatform) -> None:
    """Every command of CONSOLE.md as a slash command (names documented in README)."""
    tree = p.tree
    user = user_ref

    ladder_group = app_commands.Group(name="ladder", description="Create and set up ladders",
                                      guild_only=True)

    @ladder_group.command(name="create", description="Create a ladder (moderators)")
    @app_commands.describe(name="ladder name", preset="rulebook",
                           options="settings as key=value, separated by spaces")
    @app_commands.choices(preset=PRESET)
    async def ladder_create(i: discord.Interaction[Any], name: str, preset: str,
                            options: str = "") -> None:
        # The parser checks the name and every key=value, with its usage line.
        await p.answer(i, None, None, f"/ladder create {name} preset={preset} {options}")

    @ladder_group.command(name="set", description="Change ladder settings (moderators)")
    @app_commands.describe(options="settings as key=value, separated by spaces")
    async def ladder_set(i: discord.Interaction[Any], options: str, ladder: str | None = None
                         ) -> None:
        await p.answer(i, None, ladder, f"/ladder set {options}")

    @ladder_group.command(name="info", description="The ladder's rulebook and settings")
    async def ladder_info(i: discord.Interaction[Any], ladder: str | None = None) -> None:
        await p.answer(i, ShowLadder(), ladder)

    @ladder_group.command(name="list", description="This server's ladders")
    async def ladder_list(i: discord.Interaction[Any]) -> None:
        await p.answer(i, ListLadders())

    @ladder_group.command(name="default", description="Make a ladder the default (moderators)")
    async def ladder_default(i: discord.Interaction[Any], name: str) -> None:
        await p.answer(i, MakeDefault(name))

    @ladder_group.command(name="rename", description="Rename the ladder (moderators)")
    async def ladder_rename(i: discord.Interaction[Any], name: str,
                            ladder: str | None = None) -> None:
        await p.answer(i, None, ladder, f"/ladder rename {name}")

    @ladder_group.command(name="delete", description="Delete a ladder for good (moderators)")
    @app_commands.describe(confirm="delete it now (its export is written to a file first)")
    async def ladder_delete(i: discord.Interaction[Any], name: str,
                            confirm: bool = False) -> None:
        await p.answer(i, None, None, f"/ladder delete {name}" + (" confirm" if confirm else ""))

    tree.add_command(ladder_group)

    def simple(name: str, description: str, command: Command) -> None:
        @app_commands.command(name=name, description=description)
        @app_commands.guild_only()
        @app_commands.describe(ladder=LADDER)
        async def run(i: discord.Interaction[Any], ladder: str | None = None) -> None:
            await p.answer(i, command, ladder)

        tree.add_command(run)

    simple("join", "Join the ladder", Join())
    simple("leave", "Leave the ladder", Leave())
    simple("available", "Mark yourself available for challenges", SetAvailability(True))
    simple("unavailable", "Mark yourself unavailable: you may decline challenges",
           SetAvailability(False))
    simple("accept", "Accept your oldest open challenge", AcceptChallenge())
    simple("halloffame", "The Hall of Fame", ShowHallOfFame())

    @tree.command(name="players", description="The ladder's members by name")
    @app_commands.guild_only()
    async def players(i: discord.Interaction[Any], page: PAGE = 1,
                      ladder: str | None = None) -> None:
        await p.answer(i, ShowPlayers(page), ladder)

    @tree.command(name="challenge-cancel", description="Take back your unanswered challenge")
    @app_commands.guild_only()
    async def challenge_cancel(i: discord.Interaction[Any],
                               opponent: discord.User | None = None,
                               ladder: str | None = None) -> None:
        await p.answer(i, WithdrawChallenge(user(opponent) if opponent else None), ladder)

    @tree.command(name="challenge", description="Challenge a player")
    @app_commands.guild_only()
    async def challenge(i: discord.Interaction[Any], opponent: discord.User,
                        ladder: str | None = None) -> None:
        await p.answer(i, IssueChallenge(user(opponent)), ladder)

    @tree.command(name="decline", description="Decline a challenge (only for a valid reason)")
    @app_commands.guild_only()
    async def decline(i: discord.Interaction[Any], reason: REASON = "",
                      challenger: discord.User | None = None,
                      ladder: str | None = None) -> None:
        await p.answer(i, DeclineChallenge(reason, user(challenger) if challenger else None),
                       ladder)

    @tree.command(name="report", description="Report a game you played")
    @app_commands.guild_only()
    @app_commands.describe(result="your result", opponent="who you played",
                           margin="how clearly (position ladders)",
                           moves="length of the game in moves", unrated="record without rating",
                           again="another game, though it matches one just reported")
    @app_commands.choices(result=RESULT, margin=MARGIN)
    async def report(i: discord.Interaction[Any], result: str, opponent: discord.User,
                     margin: str | None = None,
                     moves: app_commands.Range[int, 0, 100_000] | None = None,
                     unrated: bool = False, again: bool = False,
                     ladder: str | None = None) -> None:
        me, them = (user(i.user),), (user(opponent),)
        if result == "draw" and margin is not None:
            await p.respond(i, Reply("A draw carries no margin.", error=True))
            return
        sides = (them, me) if result == "loss" else (me, them)
        await p.answer(i, ReportResult(sides, result == "draw",
                                       Margin(margin) if margin else None, moves, not unrated,
                                       again),
                       ladder)

    @tree.command(name="report-ffa", description="Report a free-for-all in finishing order")
    @app_commands.guild_only()
    @app_commands.describe(players="mentions in finishing order, the winner first")
    async def report_ffa(i: discord.Interaction[Any], players: str,
                         moves: app_commands.Range[int, 0, 100_000] | None = None,
                         unrated: bool = False, ladder: str | None = None) -> None:
        extra = (f" moves={moves}" if moves is not None else "") + (" unrated" if unrated else "")
        await p.answer(i, None, ladder, f"/report ffa {players}{extra}")

    @tree.command(name="report-teams", description="Report a team game")
    @app_commands.guild_only()
    @app_commands.describe(team1="mentions of the first team", team2="mentions of the second",
                           result="who won")
    @app_commands.choices(result=TEAM_RESULT)
    async def report_teams(i: discord.Interaction[Any], team1: str, team2: str, result: str,
                           unrated: bool = False, ladder: str | None = None) -> None:
        first, second = (team2, team1) if result == "team2" else (team1, team2)
        tail = (" draw" if result == "draw" else "") + (" unrated" if unrated else "")
        await p.answer(i, None, ladder, f"/report teams {first} vs {second}{tail}")

    @tree.command(name="confirm", description="Confirm a report your opponent made")
    @app_commands.guild_only()
    async def confirm(i: discord.Interaction[Any], match: int | None = None,
                      ladder: str | None = None) -> None:
        await p.answer(i, ConfirmResult(match), ladder)

    @tree.command(name="dispute", description="Dispute a report; a moderator decides")
    @app_commands.guild_only()
    async def dispute(i: discord.Interaction[Any], reason: REASON = "", match: int | None = None,
                      ladder: str | None = None) -> None:
        await p.answer(i, DisputeResult(match, reason), ladder)

    @tree.command(name="withdraw", description="Take back a report of yours still waiting")
    @app_commands.guild_only()
    async def withdraw(i: discord.Interaction[Any], match: int | None = None,
                       ladder: str | None = None) -> None:
        await p.answer(i, WithdrawReport(match), ladder)

    @tree.command(name="standings", description="The ladder's table")
    @app_commands.guild_only()
    @app_commands.choices(table=TABLE)
    async def standings(i: discord.Interaction[Any], table: str | None = None,
                        page: PAGE = 1, ladder: str | None = None) -> None:
        await p.answer(i, ShowStandings(table, page), ladder)

    @tree.command(name="profile", description="A player's rating, record and corrections")
    @app_commands.guild_only()
    async def profile(i: discord.Interaction[Any], player: discord.User | None = None,
                      ladder: str | None = None) -> None:
        await p.answer(i, ShowProfile(user(player) if player else None), ladder)

    @tree.command(name="history", description="Recent matches and corrections")
    @app_commands.guild_only()
    async def history(i: discord.Interaction[Any], player: discord.User | None = None,
                      page: PAGE = 1, ladder: str | None = None) -> None:
        await p.answer(i, ShowHistory(user(player) if player else None, page), ladder)

    @tree.command(name="help", description="The commands, or how one works")
    @app_commands.choices(command=HELP_TOPICS)
    async def help_(i: discord.Interaction[Any], command: str | None = None) -> None:
        await p.answer(i, Help(command))

    mod = app_commands.Group(name="mod", description="Moderator corrections", guild_only=True)

    @mod.command(name="void", description="Void a match")
    async def mod_void(i: discord.Interaction[Any], match: int, reason: REASON,
                       ladder: str | None = None) -> None:
        await p.answer(i, VoidMatch(match, reason), ladder)

    @mod.command(name="set", description="Change or decide a match's result")
    @app_commands.describe(result="the winner as a mention (all players in order for a "
                                  "free-for-all), or draw; a margin may follow")
    async def mod_set(i: discord.Interaction[Any], match: int, result: str, reason: REASON,
                      ladder: str | None = None) -> None:
        await p.answer(i, None, ladder, f"/mod set {match} {result} {reason}")

    @mod.command(name="adjust", description="Move a rating by points, or rungs")
    async def mod_adjust(i: discord.Interaction[Any], player: discord.User,
                         amount: ADJUST, reason: REASON,
                         ladder: str | None = None) -> None:
        await p.answer(i, AdjustRating(user(player), float(amount), reason), ladder)

    @mod.command(name="remove", description="Take a player off the ladder (they may rejoin)")
    async def mod_remove(i: discord.Interaction[Any], player: discord.User, reason: REASON,
                         ladder: str | None = None) -> None:
        await p.answer(i, RemovePlayer(user(player), reason), ladder)

    @mod.command(name="add", description="Put a player on the ladder, as their /join would")
    async def mod_add(i: discord.Interaction[Any], player: discord.User,
                      ladder: str | None = None) -> None:
        await p.answer(i, AddPlayer(user(player)), ladder)

    @mod.command(name="ban", description="Take a player off and keep them off (record stays)")
    async def mod_ban(i: discord.Interaction[Any], player: discord.User, reason: REASON,
                      ladder: str | None = None) -> None:
        await p.answer(i, BanPlayer(user(player), reason), ladder)

    @mod.command(name="unban", description="Let a banned player join again")
    async def mod_unban(i: discord.Interaction[Any], player: discord.User, reason: REASON,
                        ladder: str | None = None) -> None:
        await p.answer(i, UnbanPlayer(user(player), reason), ladder)

    @mod.command(name="cancel", description="Cancel an unfinished challenge")
    async def mod_cancel(i: discord.Interaction[Any], challenge: int, reason: REASON,
                         ladder: str | None = None) -> None:
        await p.answer(i, None, ladder, f"/mod cancel {challenge} {reason}")

    @mod.command(name="season-close", description="Close the season now")
    async def mod_season_close(i: discord.Interaction[Any], reason: REASON = "",
                               ladder: str | None = None) -> None:
        await p.answer(i, CloseSeason(reason), ladder)

    mod_void.autocomplete("match")(p.match_choices)
    mod_set.autocomplete("match")(p.match_choices)
    tree.add_command(mod)
