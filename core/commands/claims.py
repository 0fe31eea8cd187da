"""/claim and the moderators' side of an import: /mod claim, /mod undo-import."""

from __future__ import annotations

from dataclasses import dataclass

from core.commands.base import Command, Spec
from core.commands.params import LAST_ID, PLAYER, REASON, Form, Kind, Param
from core.commands.words import Args, read_reason
from core.domain.match_file import NAME_MOST
from core.domain.numerals import is_digits
from core.domain.records import UserRef
from core.i18n import N_, t


@dataclass(frozen=True, slots=True)
class ClaimPlayer(Command):
    """Ask the moderators for an imported player's history: `/claim NAME`."""

    name: str


@dataclass(frozen=True, slots=True)
class ApproveClaim(Command):
    """Moderator: make an imported player's history a user's (`/mod claim @user NAME`)."""

    moderator = True

    user: UserRef
    name: str


@dataclass(frozen=True, slots=True)
class UndoImport(Command):
    """Moderator: take one import's matches and players out at once."""

    moderator = True

    batch: int
    reason: str


def read_claim(args: Args) -> Command:
    name = _name(args)
    if not name:
        raise args.error(t("claim.name_needed"))
    return ClaimPlayer(name)


def read_mod_claim(args: Args) -> Command:
    """`claim @user NAME`, after /mod."""
    user = args.optional_mention()
    name = _name(args) if user is not None else ""
    if user is None or not name:
        raise args.error(t("claim.mod_usage"))
    return ApproveClaim(user, name)


def read_undo_import(args: Args) -> Command:
    """`undo-import ID reason`, after /mod."""
    token = (args.peek() or "").lstrip("#")
    if not is_digits(token) or int(token) > LAST_ID:
        raise args.error(t("undo_import.id"))
    args.pop()
    return UndoImport(int(token), read_reason(args))


def _name(args: Args) -> str:
    """The rest of the line, a name (an imported name may hold spaces)."""
    name = " ".join(args.tokens)
    args.tokens = []
    if len(name) > NAME_MOST:
        raise args.error(t("claim.name_long", most=NAME_MOST))
    return name


# Its words, as /help, the parser and Telegram's menus read them (/mod's are /mod's).
WORDS: tuple[Spec, ...] = (
    Spec("claim", ("/claim NAME",), N_("help.claim"), N_("menu.claim"), read_claim,
         (ClaimPlayer,)),
)

_NAME = Param("name", high=NAME_MOST, required=True, help=N_("menu.opt_claim_name"))

# Its typed forms (Discord's slash commands).
FORMS: tuple[Form, ...] = (
    Form(("claim",), N_("menu.claim"), (_NAME,), lambda v, _: ClaimPlayer(v["name"].strip())),
    Form(("mod", "claim"), N_("menu.mod_claim"), (PLAYER, _NAME),
         lambda v, _: ApproveClaim(v["player"], v["name"].strip())),
    Form(("mod", "undo-import"), N_("menu.mod_undo_import"), (
        Param("batch", Kind.INT, high=LAST_ID, required=True,
              help=N_("menu.opt_import")), REASON),
         lambda v, _: UndoImport(v["batch"], v["reason"])),
)
