"""/tournament: tournaments seeded from the ladder (RULES.md, "Tournaments on a ladder")."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

from core.commands.base import Command, Spec
from core.commands.params import PAGE, REASON, Build, Form, Kind, Param
from core.commands.words import Args, ladder_name, quote, read_page, read_reason
from core.domain.errors import UsageError
from core.domain.numerals import is_digits
from core.domain.settings import MAX_BESTOF
from core.domain.tournament.model import Format
from core.domain.tournament.record import ROUND_HOURS
from core.i18n import N_, Number, t

NAME_LENGTH = 24  # a tournament's name (it goes into Telegram's 64-byte buttons' data)
MAX_ROUNDS = 20
MAX_ROUND_HOURS = 24 * 14


@dataclass(frozen=True, slots=True)
class CreateTournament(Command):
    """Create a tournament on the ladder, open for players to join."""

    moderator = True
    reschedules = True

    name: str = ""
    format: Format = Format.SWISS
    rounds: int | None = None
    rated: bool = True
    bestof: int | None = None
    round_hours: int = ROUND_HOURS
    reset: bool = True


@dataclass(frozen=True, slots=True)
class JoinTournament(Command):
    """Join a tournament before it starts."""

    name: str | None = None


@dataclass(frozen=True, slots=True)
class LeaveTournament(Command):
    """Leave a tournament before it starts."""

    name: str | None = None


@dataclass(frozen=True, slots=True)
class StartTournament(Command):
    """Seed a tournament from the standings and open its first round."""

    moderator = True
    reschedules = True

    name: str | None = None


@dataclass(frozen=True, slots=True)
class TournamentReady(Command):
    """Say ready for one's game of the round (a deadline's forfeit goes to who did)."""

    name: str | None = None


@dataclass(frozen=True, slots=True)
class ShowTournament(Command):
    """A tournament's table or bracket now, and the asker's next game."""

    name: str | None = None
    page: int = 1


@dataclass(frozen=True, slots=True)
class CancelTournament(Command):
    """Cancel a tournament, with a reason (audited)."""

    moderator = True
    reschedules = True

    name: str = ""
    reason: str = ""


_Named = type[JoinTournament | LeaveTournament | StartTournament | TournamentReady]
_SUB: dict[str, _Named] = {"join": JoinTournament, "leave": LeaveTournament,
                           "start": StartTournament, "ready": TournamentReady}
_NAMED = (CreateTournament, JoinTournament, LeaveTournament, StartTournament, TournamentReady,
          ShowTournament, CancelTournament)
_OPTIONS = ("format", "rounds", "rated", "bestof", "round_hours", "reset")


def read_tournament(args: Args) -> Command:
    word = (args.peek() or "").lower()
    if word == "create":
        args.pop()
        return _read_create(args)
    if word == "cancel":
        args.pop()
        name = _name(args, required=True)
        assert name is not None
        return CancelTournament(name, read_reason(args))
    if word in _SUB:
        args.pop()
        name = _name(args, required=False)
        args.done()
        return _SUB[word](name)
    page = read_page(args)
    name = _name(args, required=False)
    args.done()
    return ShowTournament(name, page)


def _name(args: Args, required: bool) -> str | None:
    """A tournament's name: the next word, or `tournament=NAME` anywhere."""
    for token in list(args.tokens):
        if token.lower().startswith("tournament="):
            args.tokens.remove(token)
            return token.split("=", 1)[1]
    following = args.peek()
    if following is not None and "=" not in following:
        return args.pop()
    if required:
        raise args.error(t("tournament.name_needed"))
    return None


def _read_create(args: Args) -> Command:
    name = _name(args, required=True)
    assert name is not None
    values: dict[str, str] = {}
    for token in list(args.tokens):
        key, eq, value = token.partition("=")
        if not eq or key.lower() not in _OPTIONS:
            raise args.stray(token)
        values[key.lower()] = value
        args.tokens.remove(token)
    return build_create(name, values)


def build_create(name: str, values: dict[str, str]) -> CreateTournament:
    """A /tournament create from its options as typed (text or a platform's form)."""
    try:
        fmt = Format(values.get("format", "swiss").lower())
    except ValueError:
        raise UsageError(t("tournament.format", value=quote(values["format"]))) from None
    return CreateTournament(
        name, fmt, _number(values, "rounds", 1, MAX_ROUNDS), _flag(values, "rated", True),
        _number(values, "bestof", 1, MAX_BESTOF),
        _number(values, "round_hours", 1, MAX_ROUND_HOURS) or ROUND_HOURS,
        _flag(values, "reset", True))


def _number(values: dict[str, str], key: str, low: int, high: int) -> int | None:
    raw = values.get(key)
    if raw is None:
        return None
    if not is_digits(raw) or not low <= int(raw) <= high:
        raise UsageError(t("tournament.number", key=key, low=Number(low), high=Number(high)))
    return int(raw)


def _flag(values: dict[str, str], key: str, default: bool) -> bool:
    raw = values.get(key)
    if raw is None:
        return default
    if raw.lower() not in ("true", "false"):
        raise UsageError(t("tournament.flag", key=key))
    return raw.lower() == "true"


def same_name(typed: str, name: str) -> bool:
    """Whether a typed name names the tournament `name` (case and composition aside)."""
    return unicodedata.normalize("NFC", typed).casefold() == name.casefold()


def check_tournament(cmd: Command) -> None:
    """What a tournament command must be however it came (the parser or a typed form)."""
    if not isinstance(cmd, _NAMED):
        return
    name = cmd.name
    if name and (len(name) > NAME_LENGTH or ladder_name(name) is None):
        raise UsageError(t("tournament.bad_name", max=NAME_LENGTH))
    if isinstance(cmd, CreateTournament):
        if not cmd.name:
            raise UsageError(t("tournament.name_needed"))
        if cmd.bestof is not None and cmd.bestof % 2 == 0:
            raise UsageError(t("tournament.bestof_odd"))
        if cmd.rounds is not None and cmd.format is not Format.SWISS:
            raise UsageError(t("tournament.rounds_swiss"))


# Its words, as /help, the parser and Telegram's menus read them.
WORDS: tuple[Spec, ...] = (
    Spec("tournament", (
        "/tournament [NAME] [page=N]",
        "/tournament create NAME format=swiss|roundrobin|single|double [rounds=N] "
        "[rated=false] [bestof=N] [round_hours=H] [reset=false]",
        "/tournament join|leave|start|ready [NAME]", "/tournament cancel NAME REASON"),
         N_("help.tournament"), N_("menu.tournament"), read_tournament,
         (ShowTournament, CreateTournament, JoinTournament, LeaveTournament, StartTournament,
          TournamentReady, CancelTournament)),
)

_NAME = Param("name", high=NAME_LENGTH, help=N_("menu.opt_tournament"))
# Each format in words (Discord's choices, the replies).
FORMATS = {Format.SWISS: N_("tournament.format_swiss"),
           Format.ROUNDROBIN: N_("tournament.format_roundrobin"),
           Format.SINGLE: N_("tournament.format_single"),
           Format.DOUBLE: N_("tournament.format_double")}
_FORMATS = tuple((f.value, code) for f, code in FORMATS.items())
_MENUS = {"join": N_("menu.tournament_join"), "leave": N_("menu.tournament_leave"),
          "start": N_("menu.tournament_start"), "ready": N_("menu.tournament_ready")}


def _named(kind: _Named) -> Build:
    return lambda values, _: kind(values.get("name"))


def _create(values: dict[str, object], _: object) -> Command:
    typed = {k: str(v).lower() for k, v in values.items()
             if k in _OPTIONS and v is not None}
    return build_create(str(values["name"]), typed)


# Its typed forms (Discord's slash commands).
FORMS: tuple[Form, ...] = (
    Form(("tournament", "show"), N_("menu.tournament"), (_NAME, PAGE),
         lambda v, _: ShowTournament(v.get("name"), v["page"])),
    Form(("tournament", "create"), N_("menu.tournament_create"), (
        Param("name", high=NAME_LENGTH, required=True, help=N_("menu.opt_tournament")),
        Param("format", required=True, high=16, choices=_FORMATS,
              help=N_("menu.opt_format")),
        Param("rounds", Kind.INT, high=MAX_ROUNDS, help=N_("menu.opt_rounds")),
        Param("rated", Kind.BOOL, help=N_("menu.opt_rated")),
        Param("bestof", Kind.INT, high=MAX_BESTOF, help=N_("menu.opt_bestof")),
        Param("round_hours", Kind.INT, high=MAX_ROUND_HOURS, help=N_("menu.opt_round_hours")),
        Param("reset", Kind.BOOL, help=N_("menu.opt_reset"))),
         lambda v, u: _create(dict(v), u)),
    *(Form(("tournament", word), _MENUS[word], (_NAME,), _named(kind))
      for word, kind in _SUB.items()),
    Form(("tournament", "cancel"), N_("menu.tournament_cancel"), (
        Param("name", high=NAME_LENGTH, required=True, help=N_("menu.opt_tournament")),
        REASON), lambda v, _: CancelTournament(v["name"], v["reason"])),
)
