"""/standings, /profile, /history, /players, /halloffame, /suggest: what a ladder shows."""

from __future__ import annotations

from dataclasses import dataclass

from core.commands.base import Command, Spec, bare
from core.commands.params import (
    CHOICE,
    PAGE,
    Form,
    Kind,
    Param,
    user,
)
from core.commands.words import (
    TABLES,
    Args,
    quote,
    read_page,
)
from core.domain.records import UserRef
from core.i18n import N_, t


@dataclass(frozen=True, slots=True)
class ShowStandings(Command):
    """Show a table (default: the ladder's main ranking), a page of it."""

    table: str | None = None
    page: int = 1


@dataclass(frozen=True, slots=True)
class ShowProfile(Command):
    """Show a player's profile."""

    user: UserRef | None = None


@dataclass(frozen=True, slots=True)
class ShowHistory(Command):
    """Show recent matches and corrections (the ladder's, or a player's), a page of them."""

    user: UserRef | None = None
    page: int = 1


@dataclass(frozen=True, slots=True)
class ShowPlayers(Command):
    """List the ladder's members, a page of them."""

    page: int = 1


@dataclass(frozen=True, slots=True)
class ShowHallOfFame(Command):
    """Show the Hall of Fame."""


@dataclass(frozen=True, slots=True)
class Suggest(Command):
    """List fair opponents for the asker now."""


def read_standings(args: Args) -> Command:
    page = read_page(args)
    token = args.pop() if args.tokens else None
    table = token.lower() if token is not None else None
    if token is not None and table not in TABLES:
        raise args.error(t("parse.no_table", token=quote(token)), token)
    args.done()
    return ShowStandings(table, page)


def read_players(args: Args) -> Command:
    page = read_page(args)
    args.done()
    return ShowPlayers(page)


def read_profile(args: Args) -> Command:
    user = args.optional_mention()
    args.done()
    return ShowProfile(user)


def read_history(args: Args) -> Command:
    page = read_page(args)
    user = args.optional_mention()
    args.done()
    return ShowHistory(user, page)


# Its words, as /help, the parser and Telegram's menus read them.
WORDS: tuple[Spec, ...] = (
    Spec("standings", ("/standings [season|week|ladder|rating] [page=N]",),
         N_("help.standings"), N_("menu.standings"), read_standings,
         (ShowStandings,), reads=True),
    Spec("profile", ("/profile [@user]",), N_("help.profile"), N_("menu.profile"),
         read_profile, (ShowProfile,), reads=True),
    Spec("history", ("/history [@user] [page=N]",), N_("help.history"), N_("menu.history"),
         read_history, (ShowHistory,), reads=True),
    Spec("players", ("/players [page=N]",), N_("help.players"), N_("menu.players"),
         read_players, (ShowPlayers,), reads=True),
    bare("suggest", N_("help.suggest"), N_("menu.suggest"), Suggest(), reads=True),
    bare("halloffame", N_("help.halloffame"), N_("menu.halloffame"), ShowHallOfFame(), reads=True),
)

# Its typed forms (Discord's slash commands).
FORMS: tuple[Form, ...] = (
    Form(("players",), N_("menu.players"), (PAGE,), lambda v, _: ShowPlayers(v["page"])),
    Form(("standings",), N_("menu.standings"), (
        Param("table", high=CHOICE, choices=tuple(
            (t, None) for t in ("season", "week", "ladder", "rating"))), PAGE),
         lambda v, _: ShowStandings(v["table"], v["page"])),
    Form(("profile",), N_("menu.profile"), (Param("player", Kind.USER),),
         lambda v, _: ShowProfile(user(v, "player"))),
    Form(("history",), N_("menu.history"), (Param("player", Kind.USER), PAGE),
         lambda v, _: ShowHistory(user(v, "player"), v["page"])),
)
