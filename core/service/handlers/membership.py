"""Who is on a ladder: /join and /leave, and a moderator's /mod add, remove, ban, unban.

Leaving keeps the record for a return. A player a moderator took off is told so, not
"you left"; a banned one cannot /join (nor be added) until a moderator unbans them.
"""

from __future__ import annotations

import dataclasses

from core.commands.membership import Join, Leave
from core.commands.moderation import AddPlayer, BanPlayer, RemovePlayer, UnbanPlayer
from core.domain.errors import NotAllowed, RuleViolation
from core.domain.events import PlayerJoined, PlayerLeft
from core.domain.ledger import Rederived
from core.domain.records import PlayerInfo, Reply, UserRef
from core.i18n import N_, Message, encode, joined, t
from core.service.session import Session, rating_text

# How a user comes onto the ladder, on a rung (position ladders) or at a rating.
_ENTERED = {"joined": (N_("member.joined_rung"), N_("member.joined_at")),
            "back": (N_("member.back_rung"), N_("member.back_at")),
            "added": (N_("member.added_rung"), N_("member.added_at"))}


def join(s: Session, _cmd: Join) -> Reply:
    """Join (or rejoin) the ladder."""
    user = s.ctx.user
    s.repo.lock_people((user.key, *s.repo.linked(user.key)))  # (against a /link at once)
    player = s.player(user)
    if player is not None and player.member:
        return Reply(t("join.already", ladder=s.ladder.name))
    if player is not None and player.banned:
        raise NotAllowed(t("join.banned", ladder=s.ladder.name, why=s.off_reason(player)))
    return Reply(_enter(s, user, player, "back" if player is not None else "joined")[0])


def _enter(s: Session, user: UserRef, player: PlayerInfo | None, how: str,
           who: str | None = None) -> tuple[Message, PlayerInfo]:
    """Put a user on the ladder (their old record, if any); say where they stand (to
    them, or of `who` when a moderator put them on)."""
    if player is None:
        player = s.new_player(user)
    else:
        player = dataclasses.replace(player, name=s.renamed(player, user.name))
    name = player.name  # (as the ladder shows them: told apart from a lookalike)
    if player.removed:
        s.repo.update_player(s.ladder.id, player.id, removed=False)
    s.append(PlayerJoined(s.now, player.id))
    state = s.repo.player_state(s.ladder.id, player.id)
    assert state is not None
    on_rung, at_rating = _ENTERED[how]
    if s.settings.is_position:
        rung = s.repo.rank(s.ladder.id, "rung", player.id, s.now)
        if rung == 1:  # the only one: the top as much as the bottom
            on_rung = N_("member.first_rung")
        return t(on_rung, name=name, ladder=s.ladder.name, rung=rung or 0), player
    text = t(at_rating, name=name, ladder=s.ladder.name, rating=rating_text(state.rating))
    calibration = s.settings.calibration
    if calibration and state.rated_games < calibration:
        told = t("member.calibrates_you", count=calibration) if who is None else \
            t("member.calibrates_them", count=calibration, name=who)
        return joined(text, told), player
    return text, player


def leave(s: Session, _cmd: Leave) -> Reply:
    """Leave the ladder (the record stays for a return)."""
    me = s.me()
    reports, challenges = s.waiting_on(me.id)
    if reports:
        raise RuleViolation(t("leave.report_waiting"))
    if challenges:
        raise RuleViolation(t("leave.challenge_open", id=challenges[0].id))
    s.append(PlayerLeft(s.now, me.id))
    return Reply(t("leave.left", name=me.name, ladder=s.ladder.name, join=s.join))


def add(s: Session, cmd: AddPlayer) -> Reply:
    """A moderator puts someone on the ladder, as their own /join would."""
    player = s.player(cmd.user)
    if player is not None and player.member:
        raise RuleViolation(t("add.already", name=cmd.user.name, ladder=s.ladder.name))
    if player is not None and player.banned:
        raise RuleViolation(t("add.banned", name=cmd.user.name, ladder=s.ladder.name))
    text, added = _enter(s, cmd.user, player, "added" if player is None else "back",
                         cmd.user.name)
    s.audit("add", cmd.reason or encode(t("audit.added")), player=added.id)
    return Reply(t("by_moderator", mod=s.ctx.user.name, text=text))


def _take_off(s: Session, player: PlayerInfo) -> Message:
    """Take a member off the ladder once nothing of theirs is open; what moved."""
    reports, challenges = s.waiting_on(player.id)
    if reports:
        raise RuleViolation(t("off.report_waiting", name=player.name, id=reports[0].id))
    if challenges:
        raise RuleViolation(t("off.challenge_open", name=player.name, id=challenges[0].id))
    applied = s.append(PlayerLeft(s.now, player.id))[0]
    assert not isinstance(applied, Rederived)
    s.repo.update_player(s.ladder.id, player.id, removed=True)
    moved = s.describe_changes(applied.changes)
    return t("off.moved", changes=moved) if moved else ""


def remove(s: Session, cmd: RemovePlayer) -> Reply:
    """Take a player off the ladder, as their own /leave would (an inactive rung, a cheat):
    the record stays, and they may /join again."""
    player = s.member(cmd.user)
    moved = _take_off(s, player)
    s.audit("remove", cmd.reason, player=player.id)
    return Reply(joined(t("remove.done", mod=s.ctx.user.name, name=player.name,
                          ladder=s.ladder.name, reason=cmd.reason), moved,
                        t("remove.record", name=player.name, join=s.join)))


def ban(s: Session, cmd: BanPlayer) -> Reply:
    """Take a player off the ladder and keep them off until unbanned (the record stays)."""
    player = s.player(cmd.user)
    if player is not None and player.banned:
        raise RuleViolation(t("ban.already", name=cmd.user.name, ladder=s.ladder.name))
    if player is None:  # banned before ever joining: a record to hold the ban
        player = s.new_player(cmd.user)
    moved = _take_off(s, player) if player.member else ""
    s.repo.update_player(s.ladder.id, player.id, banned=True, removed=True)
    s.audit("ban", cmd.reason, player=player.id)
    return Reply(joined(t("ban.done", mod=s.ctx.user.name, name=player.name,
                          ladder=s.ladder.name, reason=cmd.reason), moved,
                        t("ban.record", name=player.name, join=s.join)))


def unban(s: Session, cmd: UnbanPlayer) -> Reply:
    """Lift a ban: the player may /join again (they are not put back on by it)."""
    player = s.player(cmd.user)
    if player is None or not player.banned:
        raise RuleViolation(t("unban.not_banned", name=cmd.user.name, ladder=s.ladder.name))
    s.repo.update_player(s.ladder.id, player.id, banned=False)
    s.audit("unban", cmd.reason, player=player.id)
    return Reply(joined(t("unban.done", mod=s.ctx.user.name, name=player.name,
                          ladder=s.ladder.name, reason=cmd.reason),
                        t("unban.may_join", name=player.name, join=s.join)))
