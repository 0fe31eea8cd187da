"""/ladder: a chat's ladders, their settings, sharing and live standings."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from core.commands.base import Command, Spec, no_args
from core.commands.params import (
    CHOICE,
    CODE,
    NAME_OPTION,
    Form,
    Kind,
    Param,
    const,
)
from core.commands.words import (
    LADDER_LENGTH,
    MAX_TEXT,
    Args,
    clip,
    ladder_name,
    read_options,
)
from core.domain.settings import PRESETS
from core.i18n import N_, t


@dataclass(frozen=True, slots=True)
class CreateLadder(Command):
    """Create a ladder in this chat from a preset and settings."""

    moderator = True
    chat_wide = True
    names_ladder = True
    reschedules = True

    name: str
    preset: str
    options: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True, slots=True)
class ChangeSettings(Command):
    """Change settings of the ladder."""

    moderator = True
    reschedules = True

    options: tuple[tuple[str, str], ...]


@dataclass(frozen=True, slots=True)
class SwitchRulebook(Command):
    """Moderator: the ladder switched to another preset (and rule settings), its whole
    history re-derived as if it had been made with them."""

    moderator = True
    reschedules = True

    preset: str
    options: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True, slots=True)
class ImportFile(Command):
    """Moderator: the match CSV sent with the command into the ladder `name` (made with
    `preset` where there is none): a dry run first, then, confirmed, the import."""

    moderator = True
    chat_wide = True
    names_ladder = True
    reschedules = True

    name: str
    preset: str | None = None
    confirmed: bool = False


@dataclass(frozen=True, slots=True)
class WhatIf(Command):
    """Moderator: the ladder's history replayed under another preset or other settings,
    side by side with its standings now; nothing is changed."""

    moderator = True

    preset: str | None
    options: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True, slots=True)
class ShowLadder(Command):
    """Show the ladder's preset and settings."""


@dataclass(frozen=True, slots=True)
class ListLadders(Command):
    """List the chat's ladders."""

    chat_wide = True


@dataclass(frozen=True, slots=True)
class MakeDefault(Command):
    """Make a ladder the chat's default."""

    moderator = True
    chat_wide = True
    names_ladder = True

    name: str


@dataclass(frozen=True, slots=True)
class RenameLadder(Command):
    """Moderator: give the ladder another name (its history stays)."""

    moderator = True

    name: str


@dataclass(frozen=True, slots=True)
class DeleteLadder(Command):
    """Moderator: delete a ladder; without `confirmed`, say what it deletes and how to."""

    moderator = True
    chat_wide = True
    names_ladder = True

    name: str
    confirmed: bool = False


@dataclass(frozen=True, slots=True)
class ShareLadder(Command):
    """Moderator: a one-time code that lets another chat play this ladder."""

    moderator = True


@dataclass(frozen=True, slots=True)
class JoinShare(Command):
    """Moderator: play here, as `name`, the ladder another chat's code (`code`) shares."""

    moderator = True
    chat_wide = True

    code: str
    name: str


@dataclass(frozen=True, slots=True)
class Unshare(Command):
    """Moderator: stop sharing the ladder (at its home: with every other chat; elsewhere:
    stop playing it here)."""

    moderator = True


@dataclass(frozen=True, slots=True)
class PinStandings(Command):
    """Moderator: post the standings here and keep that message up to date."""

    moderator = True


@dataclass(frozen=True, slots=True)
class UnpinStandings(Command):
    """Moderator: stop keeping the live standings message up to date."""

    moderator = True


def _preset(args: Args) -> tuple[str | None, tuple[tuple[str, str], ...]]:
    """The rest of the line's `key=value` options: `preset=` (given once at most, in
    lower case) and the others."""
    options = read_options(args)
    presets = [v.lower() for k, v in options if k == "preset"]
    if len(presets) > 1:
        raise args.error(t("mod.preset_once"))
    return (presets[0] if presets else None), tuple(p for p in options if p[0] != "preset")


def _create(args: Args) -> Command:
    if not args.tokens:
        raise args.error(t("mod.name_new"))
    name = ladder_name(args.pop())
    if name is None:
        raise args.error(t("mod.ladder_name"))
    preset, options = _preset(args)
    if preset is None:
        raise args.error(t("mod.which_preset"))
    return CreateLadder(name, preset, options)


def _set(args: Args) -> Command:
    preset, options = _preset(args)
    if preset is not None:
        return SwitchRulebook(preset, options)
    if not options:
        raise args.error(t("mod.set_what"))
    return ChangeSettings(options)


def _import(args: Args) -> Command:
    name = ladder_name(args.pop()) if args.tokens else None
    if name is None:
        raise args.error(t("chat_import.which"))
    preset, options = _preset(args)
    if options:
        raise args.error(t("chat_import.options"))
    return ImportFile(name, preset)


def _whatif(args: Args) -> Command:
    preset, options = _preset(args)
    if preset is None and not options:
        raise args.error(t("whatif.what"))
    return WhatIf(preset, options)


def _join_share(args: Args) -> Command:
    named = ladder_name(args.tokens[1]) if len(args.tokens) == 2 else None
    if named is None:
        raise args.error(t("mod.join_share"))
    return JoinShare(args.pop(), named)


def _rename(args: Args) -> Command:
    named = ladder_name(args.pop()) if len(args.tokens) == 1 else None
    if named is None:
        raise args.error(t("mod.new_name"))
    return RenameLadder(named)


def _delete(args: Args) -> Command:
    name = ladder_name(args.pop()) if args.tokens else None
    if name is None:
        raise args.error(t("mod.delete_which"))
    confirmed = bool(args.tokens) and args.tokens[0].lower() == "confirm"
    if confirmed:
        args.pop()
    args.done()
    return DeleteLadder(name, confirmed)


def _default(args: Args) -> Command:
    named = ladder_name(args.pop()) if len(args.tokens) == 1 else None
    if named is None:
        raise args.error(t("mod.default_which"))
    return MakeDefault(named)


# /ladder's subcommands, each word's parser of what follows it.
_SUBCOMMANDS: dict[str, Callable[[Args], Command]] = {
    "create": _create, "set": _set, "import": _import, "whatif": _whatif,
    "info": no_args(ShowLadder()), "show": no_args(ShowLadder()),
    "settings": no_args(ShowLadder()), "list": no_args(ListLadders()),
    "pin": no_args(PinStandings()), "unpin": no_args(UnpinStandings()),
    "share": no_args(ShareLadder()), "unshare": no_args(Unshare()),
    "join-share": _join_share, "rename": _rename, "delete": _delete, "default": _default,
}


def parse_ladder(args: Args) -> Command:
    """/ladder create|set|info|list|pin|unpin|default|rename|delete|share|join-share|
    unshare|import|whatif."""
    sub = (args.pop().lower() if args.tokens else "info")
    parser = _SUBCOMMANDS.get(sub)
    if parser is None:
        raise args.error(t("mod.unknown_ladder_sub", sub=clip(sub)))
    return parser(args)


# Its words, as /help, the parser and Telegram's menus read them.
WORDS: tuple[Spec, ...] = (
    Spec("ladder", ("/ladder create NAME preset=PRESET [key=value ...]",
                    "/ladder set key=value ...", "/ladder set preset=PRESET [key=value ...]",
                    "/ladder info", "/ladder list",
                    "/ladder pin", "/ladder unpin",
                    "/ladder default NAME", "/ladder rename NEW", "/ladder delete NAME",
                    "/ladder share", "/ladder join-share CODE NAME", "/ladder unshare",
                    "/ladder whatif [preset=PRESET] [key=value ...]",
                    "/ladder import NAME [preset=PRESET] (with a match CSV attached)"),
         N_("help.ladder"), N_("menu.ladder"), parse_ladder, (
             CreateLadder, ChangeSettings, ShowLadder, ListLadders, MakeDefault, RenameLadder,
             PinStandings, UnpinStandings, DeleteLadder, ShareLadder, JoinShare, Unshare,
             WhatIf, SwitchRulebook, ImportFile),
         reads=True),
)

# Its typed forms (Discord's slash commands).
FORMS: tuple[Form, ...] = (
    Form(("ladder", "create"), N_("menu.ladder_create"), (
        NAME_OPTION,
        Param("preset", high=CHOICE, required=True, choices=tuple((p, None) for p in PRESETS)),
        Param("options", high=MAX_TEXT)),
        # (the parser checks the name and every key=value, with its usage line)
        lambda v, _: f"/ladder create {v['name']} preset={v['preset']} {v['options'] or ''}",
        ladder=False),
    Form(("ladder", "set"), N_("menu.ladder_set"), (Param("options", high=MAX_TEXT,
                                                          required=True),),
         lambda v, _: f"/ladder set {v['options']}"),
    Form(("ladder", "info"), N_("menu.ladder_info"), (), const(ShowLadder())),
    Form(("ladder", "pin"), N_("menu.ladder_pin"), (), const(PinStandings())),
    Form(("ladder", "unpin"), N_("menu.ladder_unpin"), (), const(UnpinStandings())),
    Form(("ladder", "list"), N_("menu.ladder_list"), (), const(ListLadders()), ladder=False),
    Form(("ladder", "default"), N_("menu.ladder_default"), (NAME_OPTION,),
         lambda v, _: MakeDefault(v["name"]), ladder=False),
    Form(("ladder", "rename"), N_("menu.ladder_rename"),
         (Param("name", high=LADDER_LENGTH, required=True, help=N_("menu.opt_new_name")),),
         lambda v, _: f"/ladder rename {v['name']}"),
    Form(("ladder", "delete"), N_("menu.ladder_delete"), (
        NAME_OPTION, Param("confirm", Kind.BOOL, default=False,
                           help=N_("menu.opt_confirm_delete"))),
         lambda v, _: f"/ladder delete {v['name']}" + (" confirm" if v["confirm"] else ""),
         ladder=False),
    Form(("ladder", "share"), N_("menu.ladder_share"), (), const(ShareLadder())),
    Form(("ladder", "join-share"), N_("menu.ladder_join_share"), (
        Param("code", high=CODE, required=True, help=N_("menu.opt_share_code")),
        Param("name", high=LADDER_LENGTH, required=True, help=N_("menu.opt_share_name"))),
         lambda v, _: f"/ladder join-share {v['code'].strip()} {v['name'].strip()}",
         ladder=False),
    Form(("ladder", "unshare"), N_("menu.ladder_unshare"), (), const(Unshare())),
    Form(("ladder", "whatif"), N_("menu.ladder_whatif"), (
        Param("preset", high=CHOICE, choices=tuple((p, None) for p in PRESETS)),
        Param("options", high=MAX_TEXT)),
        # (the parser checks every key=value, with its usage line)
        lambda v, _: "/ladder whatif " + " ".join(
            [*([f"preset={v['preset']}"] if v["preset"] else []), v["options"] or ""])),
    Form(("ladder", "import"), N_("menu.ladder_import"), (
        NAME_OPTION, Param("file", Kind.FILE, required=True, help=N_("menu.opt_csv")),
        Param("preset", high=CHOICE, choices=tuple((p, None) for p in PRESETS))),
        # (the parser checks the name; the adapter reads the file into the context)
        lambda v, _: f"/ladder import {v['name']}"
        + (f" preset={v['preset']}" if v["preset"] else ""), ladder=False),
)
