"""What follows a ladder's standings on the platforms, as commands: `/ladder pin` and
`/ladder unpin` (a live standings message), the role keys of `/ladder set`, and what
`/ladder info` says of both. The adapters post, edit and give the roles
(bot/following.py, bot/discord/roles.py); this decides what they show and whether a
change is allowed.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Mapping

from core.commands.ladders import (
    ChangeSettings,
    CreateLadder,
    PinStandings,
    ShowLadder,
    UnpinStandings,
)
from core.commands.views import ShowStandings
from core.domain.errors import RuleViolation, SettingError
from core.domain.records import Context, LadderInfo, PinRecord, Reply, UserRef
from core.domain.settings import Policy
from core.i18n import Message, Text, joined, render, series, t
from core.ports.repository import Repo
from core.service.handlers import moderation
from core.service.handlers.roles import (
    champion_text,
    configured,
    kinds_text,
    refusal,
    split_roles,
    status,
)
from core.service.queries.ladders import ladder_info, standings
from core.service.session import Session, platform_of


def _at_home(s: Session) -> None:
    """A ladder keeps one live standings message, in its home chat (a chat it is shared
    with has the announcements)."""
    if s.ladder.home is not None:
        raise RuleViolation(t("share.pin_home", ladder=s.ladder.name))


def pin(s: Session, _cmd: PinStandings) -> Reply:
    """Post the standings where this was asked, and keep that message up to date."""
    if not s.ctx.chat.startswith(("discord:", "telegram:")):
        raise RuleViolation(t("pin.no_platform"))
    _at_home(s)
    was = s.repo.pin(s.ladder.id)
    s.repo.save_pin(s.ladder.id, PinRecord(s.ctx.channel, language=s.settings.language))
    moved = was is not None and was.message is not None
    return Reply(t("pin.moved" if moved else "pin.done", ladder=s.ladder.name))


def unpin(s: Session, _cmd: UnpinStandings) -> Reply:
    """Stop keeping the live standings message up to date (the message stays)."""
    _at_home(s)
    if s.repo.pin(s.ladder.id) is None:
        raise RuleViolation(t("pin.none", ladder=s.ladder.name))
    s.repo.save_pin(s.ladder.id, None)
    return Reply(t("pin.stopped", ladder=s.ladder.name))


def change_settings(s: Session, cmd: ChangeSettings) -> Reply:
    """`/ladder set`, the role keys among the others."""
    rest, roles = split_roles(cmd.options)
    return moderation.change_settings(s, ChangeSettings(tuple(rest)), set_roles(s, roles))


def create_ladder(repo: Repo, ctx: Context, cmd: CreateLadder, policy: Policy) -> Reply:
    """`/ladder create`, giving roles from the start where the options say so."""
    rest, roles = split_roles(cmd.options)
    reply = moderation.create_ladder(repo, ctx, CreateLadder(cmd.name, cmd.preset,
                                                             tuple(rest)), policy)
    ladder = repo.ladder(ctx.chat, cmd.name)
    if not roles or ladder is None:
        return reply
    texts = set_roles(Session(repo, ctx, ladder, policy), roles)
    if not texts:
        return reply
    return dataclasses.replace(reply, text=joined(reply.text, t("info.changed",
                                                                  changed=series(texts)),
                                                  sep="\n"))


def set_roles(s: Session, changes: Mapping[str, object]) -> list[Text]:
    """Apply `roles=` and `champion_role=`; what changed, as `/ladder set` lists it."""
    old = s.repo.roles(s.ladder.id)
    new = configured(old, changes)
    if new == old:
        return []
    if s.ladder.home is not None and new.any:  # (accepted, they were never given: the
        # roles follow a ladder in its home server, where the standings' roles are synced)
        raise SettingError(t("roles.not_home", ladder=s.ladder.name,
                             platform=platform_of(s.ladder.home)))
    problem = refusal(new, s.settings, s.ctx)
    if problem is not None:
        raise SettingError(problem)
    s.repo.save_roles(s.ladder.id, new)
    texts: list[Text] = []
    if (new.leagues, new.top) != (old.leagues, old.top):
        texts.append(t("settings.change", key="roles", value=kinds_text(new),
                       was=kinds_text(old)))
    if new.champion != old.champion:
        texts.append(t("settings.change", key="champion_role",
                       value=champion_text(new.champion), was=champion_text(old.champion)))
    return texts


def info(s: Session, _cmd: ShowLadder) -> Reply:
    """`/ladder info`, with the roles the ladder gives and its live message."""
    reply = ladder_info(s)
    pinned = s.repo.pin(s.ladder.id)
    lines: list[Message] = [reply.text, status(s.repo, s.ladder, s.now)]
    if pinned is not None:
        lines.append(t("pin.info") if pinned.message else t("pin.info_waiting"))
        if pinned.problem:
            lines.append(t("pin.info_problem", problem=t(pinned.problem)))
    return Reply(joined(*(line for line in lines if line), sep="\n"))


def board(repo: Repo, ladder: LadderInfo, now: int) -> str:
    """The live message's words: the main table's first page, in the ladder's language,
    as no one in particular reads it."""
    nobody = Context(ladder.chat, UserRef("", ""), now)
    reply = standings(Session(repo, nobody, ladder), ShowStandings())
    return render(reply.text, ladder.settings.language)


def digest(text: str) -> str:
    """A short fingerprint of what a message shows (an edit only when it would change)."""
    return hashlib.sha256(text.encode()).hexdigest()[:16]
