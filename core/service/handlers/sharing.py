"""One ladder across Discord and Telegram: accounts linked into one player, and ladders
another chat plays under its own name.

Both are made with one-time codes: kept in the database (any process may take one), good
for ten minutes, used up when taken. A code that does not work is refused with the same
words whether it never existed, expired or was used, so trying codes tells nothing.
"""

from __future__ import annotations

import dataclasses
import secrets
from collections.abc import Callable, Sequence

from core.commands.accounts import LinkAccount, UnlinkAccount
from core.commands.ladders import JoinShare, ShareLadder, Unshare
from core.commands.words import CODE_LENGTH
from core.domain.errors import LadderError, NotAllowed, RuleViolation, SettingError
from core.domain.records import Announcement, AuditEntry, Context, LadderInfo, Reply, refused
from core.domain.settings import Policy
from core.i18n import Joined, Message, Text, listed, render, t
from core.ports.repository import Repo
from core.service.queries.ladders import lookalike
from core.service.session import Session, platform_of

CODE_MINUTES = 10
# No 0/O or 1/I: a code is read off one screen and typed on another.
CODE_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"


def new_code() -> str:
    """A fresh code, as stored (`read_code` reads it back from what a user typed)."""
    return "".join(secrets.choice(CODE_LETTERS) for _ in range(CODE_LENGTH))


def shown_code(code: str) -> str:
    """`ABCD-EFGH`: the code in two halves, to be read easily."""
    return f"{code[:4]}-{code[4:]}"


def read_code(typed: str) -> str:
    """The code as stored: any case, with or without its dash."""
    return typed.replace("-", "").replace(" ", "").upper()


def _wrong_code() -> NotAllowed:
    return NotAllowed(t("code.wrong", minutes=CODE_MINUTES))


def _keep(repo: Repo, ctx: Context, kind: str, subject: str) -> str:
    code = new_code()
    repo.add_code(code, kind, subject, ctx.at + CODE_MINUTES * 60, ctx.at)
    return shown_code(code)


# ---- linked accounts
def link(repo: Repo, ctx: Context, cmd: LinkAccount, policy: Policy) -> Reply:
    """Ask for a code (only where the asker alone reads the answer), or take one given
    on the other platform and join the two accounts into one player."""
    me = ctx.user.key
    if cmd.code is None:
        _not_linked(repo, me)
        if not (ctx.alone or ctx.ephemeral):
            raise NotAllowed(t("link.in_private"))
        return Reply(t("link.code", code=_keep(repo, ctx, "link", me), minutes=CODE_MINUTES),
                     private=True, secret=True)
    return spent(repo.take_code(read_code(cmd.code), "link", ctx.at),
                 lambda other: _link(repo, ctx, other))


def spent(subject: str | None, use: Callable[[str], Reply]) -> Reply:
    """A code's use: it was taken (used up) before this, and stays used up whatever the
    answer. A refusal is answered, not raised, so that the command's savepoint does not
    give the code back for another account to try; a code for nothing (never made,
    expired, used, or not for this) is answered alike, so trying codes tells nothing."""
    try:
        if subject is None:
            raise _wrong_code()
        return use(subject)
    except LadderError as error:
        return refused(error)


def _not_linked(repo: Repo, user: str) -> None:
    """Refuse an account linked already, naming the platform of its other account."""
    others = repo.linked(user)
    if others:
        raise RuleViolation(t("link.already", platform=platform_of(others[0])))


def _link(repo: Repo, ctx: Context, other: str) -> Reply:
    me = ctx.user.key
    repo.lock_people((me, other))  # (a /join of either, at once, waits for this)
    if not (ctx.alone or ctx.ephemeral):  # a code typed in a group was read by the group
        raise NotAllowed(t("link.in_private"))
    if platform_of(other) == platform_of(me):
        raise _wrong_code()  # (as a dead code: a live one of this platform is no use here)
    _not_linked(repo, me)
    _not_linked(repo, other)
    both = sorted(set(repo.played_by(other)) & set(repo.played_by(me)))
    if both:
        names = [views[0].name for ladder in both if (views := repo.views(ladder))]
        raise RuleViolation(t("link.both_play", ladders=listed(names)))
    repo.link(other, me)
    return Reply(t("link.done", platform=platform_of(other), mine=platform_of(me)),
                 private=True)


def unlink(repo: Repo, ctx: Context, cmd: UnlinkAccount, policy: Policy) -> Reply:
    """Separate the asker's accounts; each keeps the players it joined with."""
    others = repo.linked(ctx.user.key)
    if not others:
        raise RuleViolation(t("unlink.none"))
    repo.unlink(ctx.user.key)
    return Reply(t("unlink.done", platform=platform_of(others[0])), private=True)


# ---- shared ladders
def share(s: Session, _cmd: ShareLadder) -> Reply:
    """A code for a moderator of another chat to play this ladder there."""
    if s.ladder.home is not None:
        raise RuleViolation(t("share.not_home", ladder=s.ladder.name))
    code = _keep(s.repo, s.ctx, "share", str(s.ladder.id))
    return Reply(t("share.code", code=code, ladder=s.ladder.name, minutes=CODE_MINUTES),
                 private=True, secret=True)


def join_share(repo: Repo, ctx: Context, cmd: JoinShare, policy: Policy) -> Reply:
    """Play here, under a name of this chat's, the ladder a code shares."""
    return spent(repo.take_code(read_code(cmd.code), "share", ctx.at),
                 lambda subject: _join_share(repo, ctx, cmd, subject))


def _join_share(repo: Repo, ctx: Context, cmd: JoinShare, subject: str) -> Reply:
    views = repo.views(int(subject)) if subject.isdigit() else []
    if not views:  # (a code for a ladder deleted since is no code)
        raise _wrong_code()
    mine = next((v for v in views if v.chat == ctx.chat), None)
    if mine is not None:
        raise RuleViolation(t("share.here_already", ladder=mine.name))
    if repo.ladder(ctx.chat, cmd.name) is not None:
        raise SettingError(t("ladder.exists", ladder=cmd.name))
    lookalike(repo, ctx.chat, cmd.name)
    home = views[0]
    repo.share(home.id, ctx.chat, cmd.name)
    if ctx.channel is not None:  # (Discord: where it was said is where it announces)
        repo.update_ladder(home.id, channel=ctx.channel, chat=ctx.chat)
    there = t("share.joined_there", ladder=home.name, name=cmd.name,
              platform=platform_of(ctx.chat), mod=ctx.user.name)
    news = [_announced(v, called(there, home.name, v.name)) for v in views]
    repo.add_audit(AuditEntry(home.id, ctx.at, f"{ctx.user.name} ({platform_of(ctx.user.key)})",
                              "share", "", detail=platform_of(ctx.chat)))
    return Reply(t("share.joined", ladder=cmd.name, platform=platform_of(home.chat)),
                 ladder=cmd.name, announcements=tuple(news))


def unshare(s: Session, cmd: Unshare) -> Reply:
    """At the ladder's home: stop sharing it with every other chat; in another chat:
    stop playing it there. The chats it leaves are told."""
    ladder = s.ladder
    views = s.repo.views(ladder.id)
    gone = s.repo.unshare(ladder.id, None if ladder.home is None else ladder.chat)
    if not gone:
        raise RuleViolation(t("share.none", ladder=ladder.name))
    # At home, the chats it left are told; elsewhere, every other chat that plays it.
    left = t("share.left", mod=s.ctx.user.name, platform=platform_of(s.ctx.chat))
    news = tuple(_announced(v, left) if ladder.home is not None else told_ended(v, s.ctx)
                 for v in views
                 if v.chat != ladder.chat and (ladder.home is not None or v.chat in gone))
    if ladder.home is not None and ladder.is_default:
        rest = s.repo.ladders(ladder.chat)
        if rest:
            s.repo.update_ladder(rest[0].id, is_default=True, chat=ladder.chat)
    s.audit("unshare", "", detail=" ".join(platform_of(c) for c in gone))
    return Reply(t("share.stopped_here" if ladder.home is not None else "share.stopped",
                   ladder=ladder.name), announcements=news)


def told_ended(view: LadderInfo, ctx: Context) -> Announcement:
    """A chat that played a ladder is told it no longer does (its home stopped sharing
    it, or deleted it)."""
    return _announced(view, t("share.ended", mod=ctx.user.name, platform=platform_of(ctx.chat)))


def _announced(view: LadderInfo, text: Message) -> Announcement:
    """News for one chat that plays a ladder, in the ladder's language."""
    language = view.settings.language
    return Announcement(view.chat, view.name, render(text, language), view.channel,
                        language=language)


def elsewhere(repo: Repo, ladder: LadderInfo, reply: Reply | None,
              announcements: Sequence[Announcement] = ()) -> tuple[Announcement, ...]:
    """What a command on a shared ladder says, for the other chats that play it, each
    under that chat's name for it: its reply (with its buttons) and announcements, if it
    is news, and the announcements of the jobs it ran first."""
    if not ladder.shared:
        return ()
    others = _others(repo, ladder)
    told = [*announcements, *(reply.announcements if reply is not None else ())]
    found = copied(others, ladder, told)
    if reply is not None:
        language = ladder.settings.language
        found += [Announcement(view.chat, view.name,  # in that chat's name for the ladder
                               render(called(reply.text, ladder.name, view.name), language),
                               view.channel, reply.ready, language, reply.notify,
                               reply.confirm_match) for view in others]
    return tuple(found)


def called(message: Message, old: str, new: str) -> Message:
    """The message with the ladder named `new` where it names it `old` (its `{ladder}`
    parameters): a chat that shares a ladder has its own name for it."""
    if isinstance(message, Text):
        return dataclasses.replace(message, params=tuple(
            (k, new if k == "ladder" and v == old else
             called(v, old, new) if isinstance(v, Text | Joined) else v)
            for k, v in message.params))
    if isinstance(message, Joined):
        return dataclasses.replace(message, parts=tuple(called(p, old, new)
                                                        for p in message.parts))
    return message


def _others(repo: Repo, ladder: LadderInfo) -> list[LadderInfo]:
    """The ladder as each other chat that plays it sees it."""
    return [view for view in repo.views(ladder.id) if view.chat != ladder.chat]


def copied(others: Sequence[LadderInfo], ladder: LadderInfo,
           announcements: Sequence[Announcement]) -> list[Announcement]:
    """The announcements of `ladder` for each of the `others` chats that play it."""
    return [dataclasses.replace(a, chat=v.chat, ladder=v.name, channel=v.channel)
            for v in others for a in announcements if a.chat == ladder.chat]


def with_shares(repo: Repo, announcements: Sequence[Announcement]) -> list[Announcement]:
    """Announcements (of scheduled jobs, made in each ladder's home chat) and their copies
    for the chats that share those ladders."""
    found = list(announcements)
    for chat, name in dict.fromkeys((a.chat, a.ladder) for a in announcements):
        ladder = repo.ladder(chat, name)
        if ladder is not None and ladder.shared:
            found += copied(_others(repo, ladder), ladder,
                            [a for a in announcements if (a.chat, a.ladder) == (chat, name)])
    return found
