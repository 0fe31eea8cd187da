"""/help: the command list, a command's usage, the settings and the presets."""

from __future__ import annotations

from dataclasses import dataclass

from core.commands.base import Command, Spec
from core.commands.params import (
    Form,
    Param,
    Values,
)
from core.commands.words import (
    Args,
)
from core.domain.records import UserRef
from core.i18n import N_


@dataclass(frozen=True, slots=True)
class Help(Command):
    """Show the command list, or one command's usage."""

    topic: str | None = None


def read_help(args: Args) -> Command:
    # `/help mod void` and `/help report win` mean the command's help: words after the
    # command word are its arguments, which the help of the command covers.
    topic = args.pop().lstrip("/").lower() if args.tokens else None
    args.tokens = []
    return Help(topic)


def _help(values: Values, _: UserRef) -> Command:
    topic = values.get("command")
    return Help(topic.strip().lstrip("/").lower() if topic else None)


# Its words, as /help, the parser and Telegram's menus read them.
WORDS: tuple[Spec, ...] = (
    Spec("help", ("/help [command]",), N_("help.help"), N_("menu.help"), read_help,
         (Help,), reads=True, aliases=("start",)),  # Telegram's /start
)

# Its typed forms (Discord's slash commands).
FORMS: tuple[Form, ...] = (
    Form(("help",), N_("menu.help"), (Param("command", high=32, complete="topics"),), _help,
         ladder=False, guild_only=False),
)
