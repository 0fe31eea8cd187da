"""A moderator renames or deletes a ladder. A deletion asks to be confirmed first, and
writes the ladder's export beside the database before anything is deleted."""

from __future__ import annotations

import json

from core.commands import DeleteLadder, RenameLadder
from core.errors import NoLadder, RuleViolation, SettingError
from core.export import export_ladder
from core.i18n import plural
from core.ports import Repo
from core.queries import member_count
from core.records import Context, Reply
from core.session import Session


def rename(s: Session, cmd: RenameLadder) -> Reply:
    """Give the ladder a new name; its history, settings and public page stay."""
    old = s.ladder.name
    if cmd.name == old:
        raise RuleViolation(f"The ladder is called {old} already.")
    if s.repo.ladder(s.ladder.chat, cmd.name) is not None:
        raise SettingError(f"This chat already has a ladder called {cmd.name}.")
    s.repo.update_ladder(s.ladder.id, name=cmd.name)
    s.audit("rename", f"{old} -> {cmd.name}")
    return Reply(f"{s.ctx.user.name} renamed ladder {old} to {cmd.name}. Its history, "
                 "settings and players stay"
                 + ("." if s.ladder.is_default else f"; commands name it ladder={cmd.name}."),
                 ladder=cmd.name)


def delete(repo: Repo, ctx: Context, cmd: DeleteLadder) -> Reply:
    """Say what deleting a ladder removes; confirmed, keep its export and delete it."""
    ladder = repo.ladder(ctx.chat, cmd.name)
    if ladder is None:
        raise NoLadder(f"This chat has no ladder called {cmd.name}; /ladder list shows them.")
    if not cmd.confirmed:
        members = member_count(repo, ladder, ctx.at)
        return Reply(f"Deleting {ladder.name} removes its {plural(members, 'player')}, their "
                     "matches and the whole history for good; its export "
                     "is written to a file beside the database first. To go ahead: "
                     f"/ladder delete {ladder.name} confirm", private=True)
    data = export_ladder(repo, ctx.chat, ladder.name, ctx.at)
    where = repo.keep_export(ctx.chat, ladder.name, json.dumps(data, indent=2), ctx.at)
    repo.delete_ladder(ladder.id)
    rest = repo.ladders(ctx.chat)
    text = f"{ctx.user.name} deleted ladder {ladder.name}. Its export is kept in {where}."
    if ladder.is_default and rest:
        repo.update_ladder(rest[0].id, is_default=True)
        text += f" {rest[0].name} is now this chat's default ladder."
    return Reply(text)
