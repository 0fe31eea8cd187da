"""/mod: the moderators' corrections, with a reason each."""

from __future__ import annotations

from dataclasses import dataclass

from core.commands import claims
from core.commands.base import Command, Spec
from core.commands.params import (
    LAST_ID,
    OPTIONAL_REASON,
    PLAYER,
    REASON,
    Form,
    Kind,
    Param,
)
from core.commands.words import (
    MAX_ADJUST,
    MAX_TEXT,
    Args,
    clip,
    is_mention,
    oriented,
    read_margin,
    read_match_id,
    read_moves,
    read_reason,
    read_score,
)
from core.domain.model import Margin
from core.domain.numerals import is_digits, parse_number
from core.domain.records import UserRef
from core.i18n import N_, Number, t


@dataclass(frozen=True, slots=True)
class ResultSpec:
    """A moderator's new result: players named in finishing order, or a draw."""

    order: tuple[UserRef, ...]
    draw: bool = False
    margin: Margin | None = None
    moves: int | None = None
    rated: bool | None = None  # None: as reported
    score: tuple[int, int] | None = None  # None: as reported (the winner's games first)


@dataclass(frozen=True, slots=True)
class VoidMatch(Command):
    """Moderator: void a match."""

    moderator = True

    match_id: int
    reason: str


@dataclass(frozen=True, slots=True)
class SetResult(Command):
    """Moderator: change (or decide) a match's result."""

    moderator = True

    match_id: int
    result: ResultSpec
    reason: str


@dataclass(frozen=True, slots=True)
class AddPlayer(Command):
    """Moderator: put someone on the ladder, as their own /join would."""

    moderator = True

    user: UserRef
    reason: str = ""


@dataclass(frozen=True, slots=True)
class BanPlayer(Command):
    """Moderator: take a player off the ladder and keep them off (the record stays)."""

    moderator = True

    user: UserRef
    reason: str


@dataclass(frozen=True, slots=True)
class UnbanPlayer(Command):
    """Moderator: let a banned player /join again."""

    moderator = True

    user: UserRef
    reason: str


@dataclass(frozen=True, slots=True)
class RemovePlayer(Command):
    """Moderator: take a player off the ladder, as their own /leave would."""

    moderator = True

    user: UserRef
    reason: str


@dataclass(frozen=True, slots=True)
class AdjustRating(Command):
    """Moderator: move a rating by points, or a player by rungs."""

    moderator = True

    user: UserRef
    amount: float
    reason: str


@dataclass(frozen=True, slots=True)
class CloseSeason(Command):
    """Moderator: close the season now."""

    moderator = True

    reason: str = ""


@dataclass(frozen=True, slots=True)
class CancelChallenge(Command):
    """Moderator: cancel any unfinished challenge (`/mod cancel CHALLENGE_ID reason`)."""

    moderator = True

    challenge_id: int
    reason: str


def parse_mod(args: Args) -> Command:
    """/mod void|set|adjust|remove|add|ban|unban|cancel|claim|undo-import|season close."""
    if not args.tokens:
        raise args.error(t("mod.what"))
    action = args.pop().lower()
    if action == "void":
        match_id = read_match_id(args, required=True)
        assert match_id is not None
        return VoidMatch(match_id, read_reason(args))
    if action == "set":
        match_id = read_match_id(args, required=True)
        assert match_id is not None
        return SetResult(match_id, _result_spec(args), read_reason(args))
    if action == "adjust":
        user = args.optional_mention()
        if user is None:
            raise args.error(t("mod.adjust_who"))
        token = args.pop() if args.tokens else ""
        amount = _adjustment(token)
        if amount is None:
            raise args.error(t("mod.adjust_amount", max=Number(MAX_ADJUST)))
        return AdjustRating(user, amount, read_reason(args))
    if action in ("remove", "ban", "unban", "add"):
        user = args.optional_mention() or args.reply_to
        if user is None:
            raise args.error(t("mod.name_player_add" if action == "add" else "mod.name_player",
                               action=action))
        if action == "add":
            return AddPlayer(user, args.rest())
        reason = read_reason(args)
        if action == "ban":
            return BanPlayer(user, reason)
        return UnbanPlayer(user, reason) if action == "unban" else RemovePlayer(user, reason)
    if action == "cancel":
        token = (args.peek() or "").lstrip("#")
        if not is_digits(token) or int(token) > 2**62:
            raise args.error(t("mod.cancel_id"))
        args.pop()
        return CancelChallenge(int(token), read_reason(args))
    if action == "claim":
        return claims.read_mod_claim(args)
    if action == "undo-import":
        return claims.read_undo_import(args)
    if action == "season":
        if not args.tokens or args.pop().lower() != "close":
            raise args.error(t("mod.season_close"))
        return CloseSeason(args.rest())
    raise args.error(t("mod.unknown_action", action=clip(action)))


def _adjustment(token: str) -> float | None:
    """A signed, non-zero change of at most MAX_ADJUST (+25, -3.5), or None."""
    if token[:1] not in ("+", "-") or "e" in token.lower():
        return None
    try:
        amount = parse_number(token)
    except ValueError:
        return None
    return amount if 0 < abs(amount) <= MAX_ADJUST else None


def _result_spec(args: Args) -> ResultSpec:
    order: list[UserRef] = []
    draw = False
    margin: Margin | None = None
    moves: int | None = None
    rated: bool | None = None
    score: tuple[int, int] | None = None
    while args.tokens:
        token = args.peek()
        assert token is not None
        low = token.lower()
        if is_mention(token):
            order.append(args.mention(args.pop()))
        elif low == "draw":
            args.pop()
            draw = True
        elif (m := read_margin(low)) is not None:
            args.pop()
            margin = m
        elif low.startswith("moves="):
            moves = read_moves(args, args.pop())
        elif low in ("unrated", "rated"):
            args.pop()
            rated = low == "rated"
        elif (typed := read_score(token)) is not None:
            args.pop()
            score = typed
        elif low == "vs" and order and len(args.tokens) > 1 and is_mention(args.tokens[1]):
            args.pop()  # `@b vs @a`: the sides in order, as a report of teams writes them
        else:
            break  # the reason begins
    if not order and not draw:
        raise args.error(t("mod.new_result"))
    if score is not None:
        score = oriented(score, draw)
    return ResultSpec(tuple(order), draw, margin, moves, rated, score)


# Its words, as /help, the parser and Telegram's menus read them.
WORDS: tuple[Spec, ...] = (
    Spec("mod", ("/mod void MATCH_ID reason...", "/mod set MATCH_ID RESULT reason...",
                 "/mod adjust @user +N|-N reason...", "/mod remove @user reason...",
                 "/mod cancel CHALLENGE_ID reason...", "/mod add @user",
                 "/mod ban @user reason...", "/mod unban @user reason...",
                 "/mod claim @user NAME", "/mod undo-import IMPORT_ID reason...",
                 "/mod season close [reason]"),
         N_("help.mod"), N_("menu.mod"), parse_mod, (
             VoidMatch, SetResult,
             AdjustRating, RemovePlayer,
             CancelChallenge, AddPlayer,
             BanPlayer, UnbanPlayer,
             claims.ApproveClaim, claims.UndoImport,
             CloseSeason)),
)

# Its typed forms (Discord's slash commands).
FORMS: tuple[Form, ...] = (
    Form(("mod", "void"), N_("menu.mod_void"),
         (Param("match", Kind.INT, high=LAST_ID, required=True, complete="matches"), REASON),
         lambda v, _: VoidMatch(v["match"], v["reason"])),
    Form(("mod", "set"), N_("menu.mod_set"), (
        Param("match", Kind.INT, high=LAST_ID, required=True, complete="matches"),
        Param("result", high=MAX_TEXT, required=True, help=N_("menu.opt_mod_result")), REASON),
         lambda v, _: f"/mod set {v['match']} {v['result']} {v['reason']}"),
    Form(("mod", "adjust"), N_("menu.mod_adjust"), (
        PLAYER, Param("amount", Kind.INT, low=-MAX_ADJUST, high=MAX_ADJUST, required=True),
        REASON), lambda v, _: AdjustRating(v["player"], float(v["amount"]), v["reason"])),
    Form(("mod", "remove"), N_("menu.mod_remove"), (PLAYER, REASON),
         lambda v, _: RemovePlayer(v["player"], v["reason"])),
    Form(("mod", "add"), N_("menu.mod_add"), (PLAYER,), lambda v, _: AddPlayer(v["player"])),
    Form(("mod", "ban"), N_("menu.mod_ban"), (PLAYER, REASON),
         lambda v, _: BanPlayer(v["player"], v["reason"])),
    Form(("mod", "unban"), N_("menu.mod_unban"), (PLAYER, REASON),
         lambda v, _: UnbanPlayer(v["player"], v["reason"])),
    Form(("mod", "cancel"), N_("menu.mod_cancel"), (
        Param("challenge", Kind.INT, high=LAST_ID, required=True), REASON),
         lambda v, _: f"/mod cancel {v['challenge']} {v['reason']}"),
    Form(("mod", "season-close"), N_("menu.mod_season_close"), (OPTIONAL_REASON,),
         lambda v, _: CloseSeason(v["reason"])),
)
