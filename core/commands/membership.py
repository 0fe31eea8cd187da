"""/join, /leave, /available and /unavailable: a member's own place on a ladder."""

from __future__ import annotations

from dataclasses import dataclass

from core.commands.base import Command, Spec, bare
from core.i18n import N_


@dataclass(frozen=True, slots=True)
class Join(Command):
    """Join the ladder."""

    routed = False  # to the default ladder: the only one played is joined already


@dataclass(frozen=True, slots=True)
class Leave(Command):
    """Leave the ladder."""


@dataclass(frozen=True, slots=True)
class SetAvailability(Command):
    """Mark oneself available or unavailable for challenges."""

    available: bool


# Its words, as /help, the parser and Telegram's menus read them.
WORDS: tuple[Spec, ...] = (
    bare("join", N_("help.join"), N_("menu.join"), Join()),
    bare("leave", N_("help.leave"), N_("menu.leave"), Leave()),
    bare("available", N_("help.available"), N_("menu.available"), SetAvailability(True)),
    bare("unavailable", N_("help.unavailable"), N_("menu.unavailable"), SetAvailability(False)),
)
