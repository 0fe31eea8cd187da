"""What every command is: the Command base class, a parsed command with its ladder, and a
command word's spec (its usage, help and menu words, its parser, the commands it makes).
Each family module (core.commands.ladders, .reports, ...) declares its own."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

from core.commands.words import Args


@dataclass(frozen=True, slots=True)
class Command:
    """What every command is: its values are its fields; who may give it and how the
    service runs it are class attributes, read where the command is run."""

    moderator: ClassVar[bool] = False  # for the ladder's moderators (or the chat's)
    # About the chat's ladders as a whole, or the asker's accounts: it names its ladder
    # itself (`ladder=` is refused), or none.
    chat_wide: ClassVar[bool] = False
    names_ladder: ClassVar[bool] = False  # its `name` is the ladder the reply is about
    reschedules: ClassVar[bool] = False  # the ladder's jobs are planned again after it
    # Without `ladder=` in a chat of several ladders (core.service.routing): `routed`, it
    # goes to the only one its asker plays; `waits`, first to the one where this waits
    # for the asker: "answer" (a report), "own" (their report), "challenge", "ready".
    routed: ClassVar[bool] = True
    waits: ClassVar[str | None] = None


@dataclass(frozen=True, slots=True)
class Parsed:
    """A command and the ladder it names (`ladder=NAME`), if any."""

    command: Command
    ladder: str | None = None


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


def no_args(command: Command) -> Callable[[Args], Command]:
    """The parser of a word that takes no arguments."""
    def parser(args: Args) -> Command:
        args.done()
        return command

    return parser


def bare(word: str, help: str, menu: str, command: Command, reads: bool = False) -> Spec:
    """A word that takes no arguments and makes one command."""
    return Spec(word, (f"/{word}",), help, menu, no_args(command), (type(command),),
                reads=reads, bare=command)
