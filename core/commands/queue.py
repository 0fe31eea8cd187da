"""/queue and /ready: matches the ladder's queue forms."""

from __future__ import annotations

from dataclasses import dataclass

from core.commands.base import Command, Spec
from core.commands.params import (
    LAST_ID,
    Form,
    Kind,
    Param,
    const,
)
from core.commands.words import (
    Args,
    read_match_id,
)
from core.i18n import N_


@dataclass(frozen=True, slots=True)
class JoinQueue(Command):
    """Take a place in the ladder's queue (or see who waits, when in it already)."""


@dataclass(frozen=True, slots=True)
class LeaveQueue(Command):
    """Give up a place in the queue, or drop out of a ready check."""


@dataclass(frozen=True, slots=True)
class Ready(Command):
    """Say ready for the match the queue formed (its number, where given)."""

    waits = "ready"

    match_id: int | None = None


def read_queue(args: Args) -> Command:
    if args.tokens and args.tokens[0].lower() == "leave":
        args.pop()
        args.done()
        return LeaveQueue()
    args.done()
    return JoinQueue()


def read_ready(args: Args) -> Command:
    match_id = read_match_id(args, required=False)
    args.done()
    return Ready(match_id)


# Its words, as /help, the parser and Telegram's menus read them.
WORDS: tuple[Spec, ...] = (
    Spec("queue", ("/queue", "/queue leave"), N_("help.queue"), N_("menu.queue"), read_queue,
         (JoinQueue, LeaveQueue)),
    Spec("ready", ("/ready [QUEUE_MATCH]",), N_("help.ready"), N_("menu.ready"), read_ready,
         (Ready,)),
)

# Its typed forms (Discord's slash commands).
FORMS: tuple[Form, ...] = (
    Form(("queue",), N_("menu.queue"), (), const(JoinQueue())),
    Form(("queue-leave",), N_("menu.queue_leave"), (), const(LeaveQueue())),
    Form(("ready",), N_("menu.ready"), (
        Param("match", Kind.INT, high=LAST_ID, help=N_("menu.opt_queue_match")),),
         lambda v, _: Ready(v["match"])),
)
