"""What follows an import: /claim and /mod claim (an imported player's history becomes a
user's) and /mod undo-import (its matches and players taken out at once, re-derived)."""

from __future__ import annotations

from core.commands.claims import ApproveClaim, ClaimPlayer, UndoImport
from core.domain.errors import RuleViolation
from core.domain.events import MatchesVoided, PlayerLeft
from core.domain.import_batch import UNCLAIMED, ImportBatch
from core.domain.names import look, shielded
from core.domain.records import PlayerInfo, Reply, UserRef
from core.i18n import Number, encode, joined, t
from core.service.handlers.moderation import correction_reply
from core.service.session import Session

REPLACED = "replaced:"  # a user key's prefix: an empty player a claim put aside


def claim(s: Session, cmd: ClaimPlayer) -> Reply:
    """Ask for an imported player's history: the moderators decide (/mod claim)."""
    target = _unclaimed(s, cmd.name)
    _check_claimant(s, s.ctx.user)
    games = _games(s, target)
    return Reply(t("claim.asked", user=s.ctx.user.name, name=target.name, ladder=s.ladder.name,
                   games=Number(games), count=games,
                   line=f"/mod claim @{s.ctx.user.name} {target.name}"))


def approve_claim(s: Session, cmd: ApproveClaim) -> Reply:
    """Make an imported player a user's: their games, ratings and tables become the
    user's (and their linked account's: one person is one player)."""
    user = cmd.user
    s.repo.lock_people((user.key, *s.repo.linked(user.key)))  # (against a /link at once)
    target = _unclaimed(s, cmd.name)
    old = _check_claimant(s, user)
    if old is not None:  # an empty player of theirs, put aside for the history
        if old.member:
            s.append(PlayerLeft(s.now, old.id))
        s.repo.update_player(s.ladder.id, old.id, user=f"{REPLACED}{old.id}",
                             name=f"{old.name} #{old.id}")
    s.repo.update_player(s.ladder.id, target.id, user=user.key,
                         name=s.told_apart(user.name, target.id))
    s.audit("claim", "", player=target.id, detail=encode(t("claim.audit_name", name=target.name)))
    return Reply(t("claim.done", mod=s.ctx.user.name, user=user.name, name=target.name,
                   ladder=s.ladder.name, games=Number(games := _games(s, target)),
                   count=games))


def _unclaimed(s: Session, name: str) -> PlayerInfo:
    """The imported player called `name` that is nobody's yet, or why there is none. Names
    compare by their look (core.domain.names): a name copied from a reply, with the
    zero-width spaces that kept it from being a link, finds its player."""
    found = s.repo.player_by_look(s.ladder.id, look(name.strip()))
    if found is None or (found.user.startswith(UNCLAIMED) and not _games(s, found)):
        raise RuleViolation(t("claim.unknown", name=shielded(name), ladder=s.ladder.name))
    if not found.user.startswith(UNCLAIMED):
        raise RuleViolation(t("claim.taken", name=found.name, ladder=s.ladder.name))
    return found


def _check_claimant(s: Session, user: UserRef) -> PlayerInfo | None:
    """The user's own player on the ladder, if it has nothing of its own (it is put aside);
    a refusal if it has games, open reports or challenges, or a ban."""
    mine = s.player(user)
    if mine is None:
        return None
    matches, challenges = s.waiting_on(mine.id)
    if _games(s, mine) or matches or challenges or mine.banned:
        raise RuleViolation(t("claim.has_history", user=user.name, name=mine.name,
                              ladder=s.ladder.name))
    return mine


def _games(s: Session, player: PlayerInfo) -> int:
    state = s.repo.state(s.ladder.id).players.get(player.id)
    return 0 if state is None else state.games


def undo_import(s: Session, cmd: UndoImport) -> Reply:
    """Take an import out: its matches voided at once, re-derived from the first; the
    players it made that are still nobody's, and have no games left, off the ladder."""
    batch = _batch(s, cmd.batch)
    frozen = dict(s.repo.state(s.ladder.id).frozen)
    by = s.ctx.user.name
    results = s.append(MatchesVoided(s.now, batch.first, batch.last, by, cmd.reason)) \
        if batch.matches else []
    s.repo.void_matches(s.ladder.id, batch.first, batch.last, s.now)
    state = s.repo.state(s.ladder.id)
    made = s.repo.players(s.ladder.id, list(batch.players)) if batch.players else {}
    gone = [p for p in made.values() if p.user.startswith(UNCLAIMED) and
            (held := state.players.get(p.id)) is not None and held.member and not held.games]
    if gone:
        s.append(*(PlayerLeft(s.now, p.id) for p in gone))
    s.repo.save_import(ImportBatch(batch.ladder, batch.id, batch.at, batch.by, batch.first,
                                   batch.last, batch.players, s.now))
    s.audit("undo_import", cmd.reason, detail=encode(batch.named()))
    return correction_reply(s, frozen, results, joined(
        t("undo_import.done", id=batch.id, mod=by, matches=Number(batch.matches),
          count=batch.matches, reason=cmd.reason),
        t("undo_import.players", count=len(gone)) if gone else "", sep="\n"))


def _batch(s: Session, number: int) -> ImportBatch:
    batch = next((b for b in s.repo.imports(s.ladder.id) if b.id == number), None)
    if batch is None:
        raise RuleViolation(t("undo_import.unknown", id=number, ladder=s.ladder.name))
    if batch.undone_at is not None:
        raise RuleViolation(t("undo_import.already", id=number, at=s.when(batch.undone_at)))
    return batch
