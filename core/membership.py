"""Who is on a ladder: /join and /leave, and a moderator's /mod add, remove, ban, unban.

Leaving keeps the record for a return. A player a moderator took off is told so, not
"you left"; a banned one cannot /join (nor be added) until a moderator unbans them.
"""

from __future__ import annotations

from core.commands import AddPlayer, BanPlayer, RemovePlayer, UnbanPlayer
from core.errors import NotAllowed, RuleViolation
from core.events import PlayerJoined, PlayerLeft
from core.ledger import Rederived
from core.records import PlayerInfo, Reply, UserRef
from core.session import Session, rating_text


def join(s: Session) -> Reply:
    """Join (or rejoin) the ladder."""
    user = s.ctx.user
    player = s.player(user)
    if player is not None and player.member:
        return Reply(f"You are on {s.ladder.name} already.")
    if player is not None and player.banned:
        raise NotAllowed(f"You are banned from {s.ladder.name}{s.off_reason(player)}. A "
                         "moderator can lift it with /mod unban.")
    verb = "is back on" if player is not None else "joined"
    return Reply(_enter(s, user, player, verb)[0])


def _enter(s: Session, user: UserRef, player: PlayerInfo | None, verb: str,
           who: str = "you") -> tuple[str, PlayerInfo]:
    """Put a user on the ladder (their old record, if any); say where they stand."""
    if player is None:
        player = s.repo.add_player(s.ladder.id, user)
    elif player.name != user.name:
        s.repo.update_player(s.ladder.id, player.id, name=user.name)
    if player.removed:
        s.repo.update_player(s.ladder.id, player.id, removed=False)
    s.append(PlayerJoined(s.now, player.id))
    state = s.repo.player_state(s.ladder.id, player.id)
    assert state is not None
    if s.settings.is_position:
        rung = s.repo.rank(s.ladder.id, "rung", player.id, s.now)
        return f"{user.name} {verb} {s.ladder.name} on rung {rung}, the bottom.", player
    text = f"{user.name} {verb} {s.ladder.name} at {rating_text(state.rating)}."
    calibration = s.settings.calibration
    if calibration == 1 and state.rated_games < 1:
        text += f" The first rated game calibrates: tables list {who} after it."
    elif calibration and state.rated_games < calibration:
        text += (f" The first {calibration} rated games calibrate: tables list {who} after "
                 "them.")
    return text, player


def leave(s: Session) -> Reply:
    """Leave the ladder (the record stays for a return)."""
    me = s.me()
    reports, challenges = s.waiting_on(me.id)
    if reports:
        raise RuleViolation("You have a report waiting (pending or disputed): settle it before "
                            "leaving.")
    if challenges:
        raise RuleViolation(f"You have an unfinished challenge (#{challenges[0].id}): play or "
                            "decline it before leaving (your own unanswered one: /challenge "
                            "cancel).")
    s.append(PlayerLeft(s.now, me.id))
    return Reply(f"{me.name} left {s.ladder.name}. The record stays: {s.join} to come back.")


def add(s: Session, cmd: AddPlayer) -> Reply:
    """A moderator puts someone on the ladder, as their own /join would."""
    player = s.player(cmd.user)
    if player is not None and player.member:
        raise RuleViolation(f"{cmd.user.name} is on {s.ladder.name} already.")
    if player is not None and player.banned:
        raise RuleViolation(f"{cmd.user.name} is banned from {s.ladder.name}: /mod unban "
                            f"@{cmd.user.name} reason first.")
    text, added = _enter(s, cmd.user, player, "was added to" if player is None else
                         "is back on", cmd.user.name)
    s.audit("add", cmd.reason or "added by a moderator", player=added.id)
    return Reply(f"{s.ctx.user.name}: {text}")


def _take_off(s: Session, player: PlayerInfo) -> str:
    """Take a member off the ladder once nothing of theirs is open; what moved."""
    reports, challenges = s.waiting_on(player.id)
    if reports:
        first = reports[0].id
        raise RuleViolation(f"{player.name} has report #{first} waiting (pending or disputed): "
                            f"settle it first, or /mod void {first} reason.")
    if challenges:
        first = challenges[0].id
        raise RuleViolation(f"{player.name} has challenge #{first} unfinished: it is played, "
                            f"declined or forfeited first, or /mod cancel {first} reason.")
    applied = s.append(PlayerLeft(s.now, player.id))[0]
    assert not isinstance(applied, Rederived)
    s.repo.update_player(s.ladder.id, player.id, removed=True)
    moved = s.describe_changes(applied.changes)
    return f"{moved}. " if moved else ""


def remove(s: Session, cmd: RemovePlayer) -> Reply:
    """Take a player off the ladder, as their own /leave would (an inactive rung, a cheat):
    the record stays, and they may /join again."""
    player = s.member(cmd.user)
    moved = _take_off(s, player)
    s.audit("remove", cmd.reason, player=player.id)
    return Reply(f"{s.ctx.user.name} took {player.name} off {s.ladder.name}: {cmd.reason}. "
                 f"{moved}The record stays: {player.name} can {s.join} again.")


def ban(s: Session, cmd: BanPlayer) -> Reply:
    """Take a player off the ladder and keep them off until unbanned (the record stays)."""
    player = s.player(cmd.user)
    if player is not None and player.banned:
        raise RuleViolation(f"{cmd.user.name} is banned from {s.ladder.name} already.")
    if player is None:  # banned before ever joining: a record to hold the ban
        player = s.repo.add_player(s.ladder.id, cmd.user)
    moved = _take_off(s, player) if player.member else ""
    s.repo.update_player(s.ladder.id, player.id, banned=True, removed=True)
    s.audit("ban", cmd.reason, player=player.id)
    return Reply(f"{s.ctx.user.name} banned {player.name} from {s.ladder.name}: {cmd.reason}. "
                 f"{moved}The record stays; {player.name} cannot {s.join} until /mod unban.")


def unban(s: Session, cmd: UnbanPlayer) -> Reply:
    """Lift a ban: the player may /join again (they are not put back on by it)."""
    player = s.player(cmd.user)
    if player is None or not player.banned:
        raise RuleViolation(f"{cmd.user.name} is not banned from {s.ladder.name}.")
    s.repo.update_player(s.ladder.id, player.id, banned=False)
    s.audit("unban", cmd.reason, player=player.id)
    return Reply(f"{s.ctx.user.name} lifted the ban of {player.name} on {s.ladder.name}: "
                 f"{cmd.reason}. {player.name} may {s.join} again (or a moderator /mod add "
                 f"@{player.name}).")
