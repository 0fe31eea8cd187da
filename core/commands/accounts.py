"""/link and /unlink: one player's Discord and Telegram accounts as one."""

from __future__ import annotations

from dataclasses import dataclass

from core.commands.base import Command, Spec, no_args
from core.commands.params import (
    CODE,
    Form,
    Param,
    const,
)
from core.commands.words import (
    Args,
)
from core.i18n import N_


@dataclass(frozen=True, slots=True)
class LinkAccount(Command):
    """Without a code: ask for a one-time code; with one: join this account to the one
    on the other platform that asked for it."""

    chat_wide = True

    code: str | None = None


@dataclass(frozen=True, slots=True)
class UnlinkAccount(Command):
    """Separate this account from the one it is linked to."""

    chat_wide = True


def read_link(args: Args) -> Command:
    code = args.pop() if args.tokens else None
    args.done()
    return LinkAccount(code)


# Its words, as /help, the parser and Telegram's menus read them.
WORDS: tuple[Spec, ...] = (
    Spec("link", ("/link", "/link CODE"), N_("help.link"), N_("menu.link"), read_link,
         (LinkAccount,), personal=True),
    Spec("unlink", ("/unlink",), N_("help.unlink"), N_("menu.unlink"),
         no_args(UnlinkAccount()), (UnlinkAccount,),
         personal=True),
    # Help reads nothing stored: the service answers it (`storeless`), before any ladder.
)

# Its typed forms (Discord's slash commands).
FORMS: tuple[Form, ...] = (
    Form(("link",), N_("menu.link"), (Param("code", high=CODE,
                                            help=N_("menu.opt_link_code")),),
         lambda v, _: LinkAccount(v["code"].strip() if v["code"] else None), ladder=False),
    Form(("unlink",), N_("menu.unlink"), (), const(UnlinkAccount()), ladder=False),
)
