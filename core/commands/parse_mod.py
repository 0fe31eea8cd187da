"""Parsing the moderators' commands: /ladder (create, set, rename, delete...) and /mod."""

from __future__ import annotations

from core.commands.values import (
    AddPlayer,
    AdjustRating,
    BanPlayer,
    CancelChallenge,
    ChangeSettings,
    CloseSeason,
    Command,
    CreateLadder,
    DeleteLadder,
    JoinShare,
    ListLadders,
    MakeDefault,
    PinStandings,
    RemovePlayer,
    RenameLadder,
    ResultSpec,
    SetResult,
    ShareLadder,
    ShowLadder,
    UnbanPlayer,
    UnpinStandings,
    Unshare,
    VoidMatch,
)
from core.commands.words import (
    LADDER_NAME,
    MAX_ADJUST,
    Args,
    clip,
    is_mention,
    oriented,
    read_margin,
    read_match_id,
    read_moves,
    read_options,
    read_reason,
    read_score,
)
from core.domain.model import Margin
from core.domain.numerals import is_digits, parse_number
from core.domain.records import UserRef
from core.i18n import Number, t


def parse_ladder(args: Args) -> Command:
    """/ladder create|set|info|list|pin|unpin|default|rename|delete|share|join-share|
    unshare."""
    sub = (args.pop().lower() if args.tokens else "info")
    if sub == "create":
        if not args.tokens:
            raise args.error(t("mod.name_new"))
        name = args.pop()
        if not LADDER_NAME.match(name):
            raise args.error(t("mod.ladder_name"))
        options = read_options(args)
        presets = [v for k, v in options if k == "preset"]
        if not presets:
            raise args.error(t("mod.which_preset"))
        if len(presets) > 1:
            raise args.error(t("mod.preset_once"))
        return CreateLadder(name, presets[0].lower(), tuple(p for p in options if p[0] != "preset"))
    if sub == "set":
        options = read_options(args)
        if not options:
            raise args.error(t("mod.set_what"))
        return ChangeSettings(options)
    if sub in ("info", "show", "settings"):
        args.done()
        return ShowLadder()
    if sub == "list":
        args.done()
        return ListLadders()
    if sub in ("pin", "unpin", "share", "unshare"):
        args.done()
        bare: dict[str, Command] = {"pin": PinStandings(), "unpin": UnpinStandings(),
                                    "share": ShareLadder(), "unshare": Unshare()}
        return bare[sub]
    if sub == "join-share":
        if len(args.tokens) != 2 or not LADDER_NAME.match(args.tokens[1]):
            raise args.error(t("mod.join_share"))
        code = args.pop()
        return JoinShare(code, args.pop())
    if sub == "rename":
        if len(args.tokens) != 1 or not LADDER_NAME.match(args.tokens[0]):
            raise args.error(t("mod.new_name"))
        return RenameLadder(args.pop())
    if sub == "delete":
        if not args.tokens or not LADDER_NAME.match(args.tokens[0]):
            raise args.error(t("mod.delete_which"))
        name = args.pop()
        confirmed = bool(args.tokens) and args.tokens[0].lower() == "confirm"
        if confirmed:
            args.pop()
        args.done()
        return DeleteLadder(name, confirmed)
    if sub == "default":
        if len(args.tokens) != 1 or not LADDER_NAME.match(args.tokens[0]):
            raise args.error(t("mod.default_which"))
        return MakeDefault(args.pop())
    raise args.error(t("mod.unknown_ladder_sub", sub=clip(sub)))


def parse_mod(args: Args) -> Command:
    """/mod void|set|adjust|remove|add|ban|unban|cancel|season close."""
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
