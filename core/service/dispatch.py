"""The command layer: one chat message in, one reply out, inside one transaction.

Every adapter calls `handle` through its store's unit of work. Permissions are checked
here, not only in adapters. A refused command is rolled back to a savepoint, so it
changes nothing, while jobs that fell due before it (run first, in time order) stay.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from typing import Any, cast

from core.commands.base import Command, Parsed
from core.commands.checks import check
from core.commands.reading import parse
from core.commands.registry import NOT_NEWS
from core.commands.words import Resolver
from core.domain.budget import renewed
from core.domain.errors import (
    Ambiguous,
    LadderError,
    NoLadder,
    NotAllowed,
    RuleViolation,
    UsageError,
)
from core.domain.model import Timestamp
from core.domain.names import shielded
from core.domain.records import Announcement, Context, LadderInfo, Reply, refused
from core.domain.settings import Policy
from core.i18n import joined, language_of, render, t
from core.ports.repository import Repo
from core.service.bus import HANDLERS
from core.service.handlers.sharing import elsewhere
from core.service.jobs import catch_up
from core.service.planning import schedule
from core.service.queries.export import export_ladder
from core.service.routing import route
from core.service.session import Session

DEFAULT_POLICY = Policy()
_LANGUAGE_OPTION = re.compile(r"(?:^|\s)language=(\S+)", re.IGNORECASE)


def handle(repo: Repo, ctx: Context, text: str, resolve: Resolver,
           policy: Policy = DEFAULT_POLICY) -> Reply | None:
    """Answer one chat message, in words; None when it is not a command at all."""
    # No chat shows a NUL character and PostgreSQL cannot store one: it stands as U+FFFD,
    # the replacement character, whichever store keeps the ladder.
    text = text.replace("\x00", "\ufffd")
    # (parsed before the repeat is looked for, so that the reads it makes first can go
    # with that look: parsing reads nothing, and the same text parses alike again)
    try:
        parsed: Parsed | LadderError | None = parse(text, ctx.user, resolve, ctx.reply_to)
    except LadderError as error:
        parsed = error
    if isinstance(parsed, Parsed):
        _expect(repo, ctx, parsed)
    if ctx.message_id is not None:
        earlier = repo.seen(ctx.chat, ctx.message_id)
        if earlier is not None:
            return Reply(earlier)
    if isinstance(parsed, UsageError):
        parsed = _ladder_named(repo, ctx.chat, text, parsed)
    if isinstance(parsed, LadderError):
        return spoken(refused(parsed), ctx, _chat_language(
            repo, ctx.chat, _first_language(ctx, policy, _said_language(text))))
    if parsed is None:
        return None
    reply = execute(repo, ctx, parsed, policy)
    if ctx.message_id is not None and not reply.error:
        repo.remember(ctx.chat, ctx.message_id, str(reply.text), ctx.at)
    return reply


def _expect(repo: Repo, ctx: Context, parsed: Parsed) -> None:
    """Name the reads the command makes first, if its action knows them."""
    cmd, expects = parsed.command, HANDLERS[type(parsed.command)].expects
    if expects is not None:
        repo.expect_ladder(ctx.chat, parsed.ladder, lambda ladder: expects(repo, ctx, cmd, ladder))


def _chat_language(repo: Repo, chat: str, fallback: str) -> str:
    """The language of a chat's default ladder (a refusal before any ladder was named),
    else `fallback` (`_first_language`)."""
    return _ladder_language(repo, chat, None, fallback)


def _ladder_language(repo: Repo, chat: str, name: str | None, fallback: str) -> str:
    """The language of the chat's ladder `name` (None, or one that does not exist: the
    chat's default), else `fallback`."""
    ladder = (repo.ladder(chat, name) if name is not None else None) or repo.ladder(chat, None)
    return ladder.settings.language if ladder is not None else fallback


def _first_language(ctx: Context, policy: Policy, said: str | None) -> str:
    """What a chat with no ladder yet speaks: the asker's own language where the platform
    says it (and we speak it), else the `language=` the line gives, else the bot's."""
    return language_of(ctx.locale, language_of(said, policy.language))


def _said_language(text: str) -> str | None:
    """The `language=` a line gives, if any."""
    found = _LANGUAGE_OPTION.search(text)
    return found.group(1) if found is not None else None


def spoken(reply: Reply, ctx: Context, language: str) -> Reply:
    """The reply in words: what only its asker sees (a private reply, or any in a private
    chat) in their own language where we speak it, the rest in `language` (the ladder's)."""
    reader = language_of(ctx.locale, language) if reply.private or ctx.alone else language
    return dataclasses.replace(reply, text=render(reply.text, reader), language=reader)


def _ladder_named(repo: Repo, chat: str, text: str, error: UsageError) -> UsageError:
    """A word the command did not expect that names a ladder of this chat (`/join
    league`): say the command as it was meant."""
    if not error.stray or "ladder=" in text.lower() or repo.ladder(chat, error.stray) is None:
        return error
    words = text.split()
    if error.stray not in words[1:]:
        return error
    words[words.index(error.stray, 1)] = f"ladder={error.stray}"
    return UsageError(joined(error.reason, t("parse.did_you_mean_line", command=" ".join(words)),
                             sep="\n"), error.stray)


def storeless(cmd: Command, policy: Policy = DEFAULT_POLICY, locale: str | None = None,
              fallback: str | None = None) -> Reply | None:
    """The reply to a command that reads nothing stored (help), in words (the asker's
    `locale` where we speak it, else `fallback`, else the bot's language), or None: an
    adapter may answer it at once, never behind the database's queue."""
    known = HANDLERS[type(cmd)].known
    if known is None:
        return None
    language = language_of(locale, fallback or policy.language)
    return Reply(render(known(cmd, policy), language), private=True, language=language)


def execute(repo: Repo, ctx: Context, parsed: Parsed, policy: Policy = DEFAULT_POLICY) -> Reply:
    """Run a parsed command and answer in words (adapters with typed options, like
    Discord, start here), within a time budget of its own (core.domain.budget)."""
    with renewed():
        reply, language = _execute(repo, ctx, parsed, policy)
    return spoken(reply, ctx, language)


def _execute(repo: Repo, ctx: Context, parsed: Parsed, policy: Policy) -> tuple[Reply, str]:
    """The reply, and the language of the ladder it concerns (the bot's, if none)."""
    cmd = parsed.command
    bots = _first_language(ctx, policy, dict(getattr(cmd, "options", ())).get("language"))
    handler = HANDLERS[type(cmd)]
    # The chat's ladders as a whole (create, default, delete, join a share) are for the
    # chat's moderators; one ladder's moderators' role is asked once its ladder is known.
    if cmd.moderator and cmd.chat_wide and not ctx.moderator:
        return refused(NotAllowed(t("moderators.only"))), \
            _ladder_language(repo, ctx.chat, parsed.ladder, bots)
    try:
        check(cmd, ctx.user)  # typed options (Discord's) come here without the parser's checks
    except UsageError as error:
        return refused(error), _ladder_language(repo, ctx.chat, parsed.ladder, bots)
    cmd = _shielded(cmd)
    if handler.known is not None:  # (no locale, as on the console: the chat's language)
        known = storeless(cmd, policy, ctx.locale, _chat_language(repo, ctx.chat, bots))
        assert known is not None
        return known, known.language
    chat = handler.chat
    if chat is not None:
        reply = _guarded(repo, lambda: chat(repo, ctx, cmd, policy))
        # The language of the ladder it names (as it is now: created, or made default),
        # else of the chat's default ladder.
        named: str | None = getattr(cmd, "name", None) if cmd.names_ladder else None
        if named is not None and cmd.reschedules and not reply.error:
            schedule(repo, ctx.chat, named)
        return reply, _ladder_language(repo, ctx.chat, named, bots)
    ladder = _ladder_for(repo, ctx, parsed.ladder, cmd)
    if isinstance(ladder, Ambiguous):  # which ladder, asked with the choices
        return dataclasses.replace(refused(ladder), choices=(ladder.word, ladder.ladders)), \
            _chat_language(repo, ctx.chat, bots)
    if isinstance(ladder, LadderError):
        return refused(ladder), bots if isinstance(ladder, NoLadder) and parsed.ladder is None \
            else _chat_language(repo, ctx.chat, bots)
    return _on_ladder(repo, ctx, ladder, cmd, policy)


def _on_ladder(repo: Repo, ctx: Context, ladder: LadderInfo, cmd: Command,
               policy: Policy) -> tuple[Reply, str]:
    """A command about one ladder, found: run after the jobs due on it, its news told to
    the other chats that share it. The reply, and the ladder's language."""
    if cmd.moderator and not ctx.moderates(ladder):
        return refused(NotAllowed(t("moderators.only"))), ladder.settings.language
    announcements = catch_up(repo, ladder, ctx.at)
    if announcements:
        ladder = repo.ladder(ctx.chat, ladder.name) or ladder
    session = Session(repo, ctx, ladder, policy)
    run = HANDLERS[type(cmd)].run
    if run is None:  # (no such command comes here: each has a handler)
        return refused(RuleViolation(t("command.not_ladder"))), ladder.settings.language
    reply = _guarded(repo, lambda: run(session, cmd))
    if session.calls and not reply.error:
        reply = dataclasses.replace(reply, notify=tuple(dict.fromkeys(
            (*reply.notify, *session.calls))))
    if not reply.error and cmd.reschedules:  # time zone, windows, decay...
        schedule(repo, ladder.chat, ladder.name)
        ladder = repo.ladder(ladder.chat, ladder.name) or ladder  # (its language, too)
    if ladder.shared:  # what a command changed, and the jobs it ran, are news there too
        news = not (reply.error or reply.private or reply.local) and type(cmd) not in NOT_NEWS
        announcements += elsewhere(repo, ladder, reply if news else None, announcements)
    if reply.ladder == ladder.name and not announcements:
        return reply, ladder.settings.language
    return dataclasses.replace(reply, ladder=ladder.name,
                               announcements=(*announcements, *reply.announcements)
                               ), ladder.settings.language


def _ladder_for(repo: Repo, ctx: Context, name: str | None, cmd: Command
                ) -> LadderInfo | LadderError:
    """The ladder a command is for: the one it names, else the one it can only mean
    (core.service.routing); or why there is none to act on."""
    try:
        ladder = repo.ladder(ctx.chat, name) if name is not None else \
            route(repo, ctx.chat, ctx.user, cmd)
    except UsageError as error:  # two ladders fit: which was asked
        return error
    if ladder is None:
        return NoLadder(t("ladder.unknown_list", ladder=name) if name is not None
                        else t("ladder.none_here"))
    return ladder


def _shielded(cmd: Command) -> Command:
    """The command with its reason, typed by someone, shown as typed (core.domain.names)."""
    reason = getattr(cmd, "reason", None)
    if not isinstance(reason, str) or reason == shielded(reason):
        return cmd
    changed: Command = dataclasses.replace(cast(Any, cmd), reason=shielded(reason))
    return changed


def _guarded(repo: Repo, run: Callable[[], Reply]) -> Reply:
    """Run a command; a refusal rolls back whatever it wrote."""
    try:
        with repo.savepoint():
            return run()
    except LadderError as error:
        return refused(error)


def export(repo: Repo, chat: str, name: str | None, at: Timestamp) -> dict[str, Any]:
    """The ladder's export (`core.service.queries.export`) at `at`, after the jobs that
    fell due by then have run."""
    ladder = repo.ladder(chat, name)
    if ladder is not None and at >= ladder.clock:
        catch_up(repo, ladder, at)
    return export_ladder(repo, chat, name, at)


def catch_up_chat(repo: Repo, chat: str | None, now: int) -> list[Announcement]:
    """Run due jobs of every ladder (of one chat, if given) up to `now`."""
    announcements: list[Announcement] = []
    for ladder in repo.every_ladder():
        if chat is None or ladder.chat == chat:
            announcements += catch_up(repo, ladder, now)
    return announcements
