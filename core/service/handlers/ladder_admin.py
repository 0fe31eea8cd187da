"""A moderator renames or deletes a ladder. A deletion asks to be confirmed first, and
writes the ladder's export beside the database before anything is deleted."""

from __future__ import annotations

import json

from core.commands.ladders import DeleteLadder, RenameLadder
from core.domain.errors import NoLadder, RuleViolation, SettingError
from core.domain.records import Context, Reply
from core.domain.settings import Policy
from core.i18n import Message, encode, joined, plural, t
from core.ports.repository import Repo
from core.service.handlers.sharing import told_ended
from core.service.queries.export import export_ladder
from core.service.queries.ladders import lookalike, member_count
from core.service.session import Session


def rename(s: Session, cmd: RenameLadder) -> Reply:
    """Give the ladder a new name; its history, settings and public page stay."""
    old = s.ladder.name
    if cmd.name == old:
        raise RuleViolation(t("rename.same", ladder=old))
    if s.repo.ladder(s.ladder.chat, cmd.name) is not None:
        raise SettingError(t("ladder.exists", ladder=cmd.name))
    lookalike(s.repo, s.ladder.chat, cmd.name, but=s.ladder.id)
    s.repo.update_ladder(s.ladder.id, name=cmd.name, chat=s.ladder.chat)
    s.audit("rename", encode(t("audit.renamed", old=old, new=cmd.name)))
    return Reply(t("rename.done_default" if s.ladder.is_default else "rename.done",
                   mod=s.ctx.user.name, old=old, ladder=cmd.name), ladder=cmd.name)


def delete(repo: Repo, ctx: Context, cmd: DeleteLadder, _policy: Policy) -> Reply:
    """Say what deleting a ladder removes; confirmed, keep its export and delete it."""
    ladder = repo.ladder(ctx.chat, cmd.name)
    if ladder is None:
        raise NoLadder(t("ladder.unknown_list", ladder=cmd.name))
    if ladder.home is not None:  # (its home chat deletes it; here it can only stop)
        raise RuleViolation(t("share.delete_guest", ladder=ladder.name))
    if not cmd.confirmed:
        members = member_count(repo, ladder, ctx.at)
        return Reply(t("delete.ask", ladder=ladder.name, players=plural(members, "player")),
                     private=True)
    data = export_ladder(repo, ctx.chat, ladder.name, ctx.at)
    where = repo.keep_export(ctx.chat, ladder.name, json.dumps(data, indent=2), ctx.at)
    # The chats it was shared with are told: it is no longer played there either.
    news = tuple(told_ended(view, ctx) for view in repo.views(ladder.id)[1:])
    repo.delete_ladder(ladder.id)
    rest = repo.ladders(ctx.chat)
    text: Message = t("delete.done", mod=ctx.user.name, ladder=ladder.name, where=where)
    if ladder.is_default and rest:
        repo.update_ladder(rest[0].id, is_default=True, chat=ctx.chat)
        text = joined(text, t("ladder.now_default", ladder=rest[0].name))
    return Reply(text, announcements=news)
