"""`/h2h`: two players' games against each other. The command family in one module: its
command, its text parser, its word (usage, help, menu) and its typed form."""

from __future__ import annotations

from dataclasses import dataclass

from core.commands.base import Command, Spec
from core.commands.params import PAGE, Form, Kind, Param, Values, user
from core.commands.words import Args, read_page
from core.domain.errors import UsageError
from core.domain.records import UserRef
from core.i18n import N_, t


@dataclass(frozen=True, slots=True)
class ShowHeadToHead(Command):
    """Two players' record against each other, and a page of their games: the asker and
    `player`, or `player` and `other`."""

    player: UserRef
    other: UserRef | None = None
    page: int = 1

    def pair(self, asker: UserRef) -> tuple[UserRef, UserRef]:
        """The two players, the one the record is told from first."""
        return (asker, self.player) if self.other is None else (self.player, self.other)


def read_h2h(args: Args) -> Command:
    """`/h2h @bob`, `/h2h @alice @bob`, with `page=N` anywhere."""
    page = read_page(args)
    if not args.tokens:
        raise args.error(t("h2h.whom"))
    player = args.mention(args.pop())
    other = args.optional_mention()
    args.done()
    return ShowHeadToHead(player, other, page)


def _typed(values: Values, _: UserRef) -> Command:
    player = user(values, "player")
    if player is None:  # (Discord requires it; a form is checked as a line is)
        raise UsageError(t("h2h.whom"))
    return ShowHeadToHead(player, user(values, "other"), values["page"])


# Its word, as /help, the parser and Telegram's menus read it.
WORDS: tuple[Spec, ...] = (
    Spec("h2h", ("/h2h @user [@user] [page=N]",), N_("help.h2h"), N_("menu.h2h"), read_h2h,
         (ShowHeadToHead,), reads=True),
)

# Its typed form (Discord's slash command).
FORMS: tuple[Form, ...] = (
    Form(("h2h",), N_("menu.h2h"), (Param("player", Kind.USER, required=True),
                                    Param("other", Kind.USER, help=N_("menu.opt_h2h_other")),
                                    PAGE), _typed),
)
