"""What a typed command is made of: its options (name, kind, range, choices, help code)
and the form that turns their values into a command. Each command family's module
declares its forms with these; core.commands.forms lists them all.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any

from core.commands.base import Command
from core.commands.words import CODE_LENGTH, LADDER_LENGTH, MAX_PAGE, MAX_REASON
from core.domain.records import UserRef
from core.i18n import N_


class Kind(Enum):
    """What an option holds, as the platform asks for it."""

    TEXT = "text"  # at most `high` characters
    INT = "int"  # from `low` to `high`
    BOOL = "bool"
    USER = "user"  # a member, picked on the platform (the adapter makes it a UserRef)
    FILE = "file"  # a file sent with the command (the adapter reads it into its context)


# A match's or challenge's number: Discord's integers end at 2^53 - 1 (discord-api-spec's
# Int53Type; 2^53 failed the whole bulk registration of every command).
LAST_ID = 2**53 - 1
NAME_LENGTH = 32  # a player's ladder name as typed
MAX_MOVES_TYPED = 100_000


@dataclass(frozen=True, slots=True)
class Param:
    """One option of a form. Every text has a length the platform checks (one without
    any took 6,000 characters that came back in four messages)."""

    name: str
    kind: Kind = Kind.TEXT
    high: int | None = None  # the longest text, or the highest number
    low: int = 1
    required: bool = False
    default: Any = None
    choices: tuple[tuple[str, str | None], ...] = ()  # (value, catalog code of its label)
    help: str | None = None  # its description's catalog code (None: OPTIONS by its name)
    complete: str | None = None  # what its autocomplete offers: "matches", "topics"


# Every option by its name, the same wherever it appears (a form may say its own).
OPTIONS = {"ladder": N_("menu.opt_ladder"), "reason": N_("menu.opt_reason"),
           "player": N_("menu.opt_player"), "match": N_("menu.opt_match"),
           "name": N_("menu.opt_name"), "page": N_("menu.opt_page"),
           "opponent": N_("menu.opt_opponent"), "unrated": N_("menu.opt_unrated"),
           "challenger": N_("menu.opt_challenger"), "moves": N_("menu.opt_moves"),
           "table": N_("menu.opt_table"), "command": N_("menu.opt_command"),
           "amount": N_("menu.opt_amount"), "challenge": N_("menu.opt_challenge"),
           "options": N_("menu.opt_options"), "preset": N_("menu.opt_preset"),
           "result": N_("menu.opt_result"), "margin": N_("menu.opt_margin"),
           "again": N_("menu.opt_again"), "score": N_("menu.opt_score"),
           "opponent_name": N_("menu.opt_opponent_name")}

Values = Mapping[str, Any]
# What the values make: a command, or the chat line the text parser reads (forms of
# several players or settings in one option); refusals are UsageErrors.
Build = Callable[[Values, UserRef], Command | str]


@dataclass(frozen=True, slots=True)
class Form:
    """One typed command: `("ladder", "create")` is /ladder create."""

    path: tuple[str, ...]
    menu: str  # catalog code of its description
    params: tuple[Param, ...]
    build: Build
    ladder: bool = True  # it takes `ladder=NAME` (its last option)
    guild_only: bool = True

    @property
    def options(self) -> tuple[Param, ...]:
        """Its parameters, and `ladder` where it takes one."""
        return (*self.params, LADDER) if self.ladder else self.params

    @staticmethod
    def described(param: Param) -> str | None:
        """The catalog code that describes an option."""
        return param.help or OPTIONS.get(param.name)


def const(command: Command) -> Build:
    """A form that always makes `command`."""
    return lambda _, __: command


def user(values: Values, name: str) -> UserRef | None:
    """The member an option picked, if any."""
    found: UserRef | None = values.get(name)
    return found


# The options several forms share.
LADDER = Param("ladder", high=LADDER_LENGTH)  # (`Form.ladder`: the last option)
NAME_OPTION = Param("name", high=LADDER_LENGTH, required=True)
REASON = Param("reason", high=MAX_REASON, required=True)
OPTIONAL_REASON = Param("reason", high=MAX_REASON, default="")
OPTIONAL_MATCH = Param("match", Kind.INT, high=LAST_ID)
PAGE = Param("page", Kind.INT, high=MAX_PAGE, default=1)
PLAYER = Param("player", Kind.USER, required=True)
CHOICE = 32  # the longest choice's value as typed
MOVES = Param("moves", Kind.INT, low=0, high=MAX_MOVES_TYPED)
UNRATED = Param("unrated", Kind.BOOL, default=False)
CODE = CODE_LENGTH + 4  # a code as typed: its letters, perhaps a dash and spaces


