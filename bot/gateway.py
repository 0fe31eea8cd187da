"""The one way from a chat platform into the core, for Discord and Telegram alike.

An adapter says who asks where, and what: a typed command (Discord's options, a button)
or a text to parse. The gateway runs it as one unit of work on the database with the
same context, the same moderator rule and the same mention lookup for both; what comes
back is the core's reply, which each platform's renderer shows in its own way.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from bot.limits import Limiter
from bot.pending import KEEP_MINUTES, PendingFiles
from bot.text import overtime
from core.commands.base import Command, Parsed
from core.commands.challenges import AcceptChallenge
from core.commands.queue import Ready
from core.commands.reports import ConfirmResult, DisputeResult, WithdrawReport
from core.commands.views import ShowHistory, ShowPlayers, ShowStandings
from core.commands.words import LADDER_CHARS, MAX_PAGE
from core.domain.budget import Overtime
from core.domain.errors import LadderError
from core.domain.records import NAMED, Context, Paging, Reply, RoleAccess, UserRef, refused
from core.domain.settings import Policy
from core.i18n import N_, Message, Text, encode, language_of, render, t
from core.ports.repository import PlatformRepo, PlatformStore
from core.service.dispatch import execute, handle, spoken

# The buttons under a pending report, and what pressing each one does.
BUTTON_ACTIONS = ("confirm", "dispute", "withdraw")
# Each button's label, said in the language of the reply it hangs under.
BUTTON_LABELS = {"confirm": N_("button.confirm"), "dispute": N_("button.dispute"),
                 "withdraw": N_("button.withdraw"), "ready": N_("button.ready"),
                 "accept": N_("button.accept"), "import": N_("button.import")}
# The button under a queue match's ready check.
READY_ACTIONS = ("ready",)
# The button under a chat import's dry run (its number: the file's, bot.pending).
IMPORT = "import"
# Every button a press may name (a press of anything else is a stale or forged one).
PRESSABLE = (*BUTTON_ACTIONS, *READY_ACTIONS, "accept", IMPORT)
# The commands a "which ladder?" question offers as buttons, one a ladder (a dispute
# and a decline want their reason typed); a row each, five at most
CHOOSABLE, MAX_CHOICES = ("confirm", "withdraw", "ready", "accept"), 5
# A page's buttons: `pg:KIND:PAGE:LADDER:TABLE`, within Telegram's 64 bytes of callback
# data and Discord's 100 characters of custom id (a ladder name is at most 32).
PAGE_DATA = re.compile(rf"pg:(?P<kind>[sph]):(?P<page>[1-9][0-9]{{0,5}}):"
                       rf"(?P<ladder>{LADDER_CHARS}):(?P<table>[a-z]{{0,8}})")
PAGE_KINDS = {"s": "standings", "p": "players", "h": "history"}
PAGE_LABELS = {"previous": N_("button.previous"), "next": N_("button.next")}


def buttons_of(ready: int | None, confirm: int | None, kept: int | None = None
               ) -> tuple[tuple[str, ...], int] | None:
    """The buttons a reply or an announcement carries, and the number they act on: a
    ready check's, else a pending report's, else a chat import's kept file (None: no
    buttons)."""
    if ready is not None:
        return READY_ACTIONS, ready
    if confirm is not None:
        return BUTTON_ACTIONS, confirm
    if kept is not None:
        return (IMPORT,), kept
    return None


def own_words(message: Message, locale: str | None, policy: Policy) -> Reply:
    """A refusal an adapter makes itself, before the core sees the command (a rate limit,
    a private chat's limits): in the asker's language where we speak it, else the bot's."""
    language = language_of(locale, policy.language)
    return Reply(render(message, language), error=True, private=True, language=language)


def page_buttons(pages: Paging, ladder: str) -> list[tuple[str, str]]:
    """A page's buttons: (Previous, its data) where a page comes before, (Next, ...)
    where one comes after."""
    found = [("previous", pages.page - 1)] if pages.page > 1 else []
    found += [("next", pages.page + 1)] if pages.more and pages.page < MAX_PAGE else []
    return [(action, f"pg:{pages.kind[0]}:{page}:{ladder}:{pages.table}")
            for action, page in found]


def page_label(action: str, language: str) -> str:
    """`◀ Previous`, `Next ▶`, in the reply's language."""
    return render(t(PAGE_LABELS[action]), language)


def page_command(data: str) -> tuple[Command, str] | None:
    """The command a page's button stands for, and its ladder (None: no page button)."""
    found = PAGE_DATA.fullmatch(data)
    if found is None:
        return None
    page, kind, table = int(found["page"]), PAGE_KINDS[found["kind"]], found["table"] or None
    command: Command = ShowStandings(table, page) if kind == "standings" else \
        ShowPlayers(page) if kind == "players" else ShowHistory(None, page)
    return command, found["ladder"]


def button_label(action: str, language: str) -> str:
    """`Confirm`, `Подтвердить`, `Bevestigen`."""
    return render(t(BUTTON_LABELS[action]), language)
BUTTON_DISPUTE = encode(t("dispute.by_button"))  # the reason a dispute's button gives


def button_command(action: str, match: int) -> Command:
    """The command a button stands for (the same on every platform); match 0 names none
    (a ladder chosen: the one waiting there)."""
    number = match or None
    if action == "confirm":
        return ConfirmResult(number)
    if action == "withdraw":
        return WithdrawReport(number)
    if action == "ready":
        return Ready(number)
    if action == "accept":  # (a "which ladder?" choice: the challenge waiting there)
        return AcceptChallenge()
    return DisputeResult(number, BUTTON_DISPUTE)


def choice_buttons(reply: Reply) -> list[tuple[str, str, str]]:
    """A "which ladder?" question's buttons: (label, action, ladder), the command given
    again on that ladder (`Confirm: cup`), in the reply's language."""
    if reply.choices is None or reply.choices[0] not in CHOOSABLE:
        return []
    action, ladders = reply.choices
    return [(render(t("button.on_ladder", action=t(BUTTON_LABELS[action]), ladder=ladder),
                    reply.language), action, ladder) for ladder in ladders[:MAX_CHOICES]]


_STOPPED = Reply("")  # a command stopped at its time budget (core.domain.budget)


@dataclass(frozen=True)
class Asker:
    """Who asks, where, and whether they moderate the ladder the command is for."""

    chat: str
    user: UserRef
    moderator: bool = False  # of every ladder of the chat (its administrators)
    roles_held: frozenset[str] = frozenset()  # their roles, for a ladder's moderators' role
    message_id: str | None = None
    channel: str | None = None
    reply_to: UserRef | None = None
    locale: str | None = None  # the asker's own language, as their client says it
    alone: bool = False  # a private chat: only the asker reads the replies
    ephemeral: bool = False  # a private reply reaches the asker alone (Discord's)
    attachment: bytes | None = None  # the file sent with the command, as read
    roles: RoleAccess | None = None  # the server's roles, read for a command setting them


@dataclass(frozen=True)
class Said:
    """A command as typed: the text, the users its mention tokens stand for, and whether
    names the platform taught us (`@username` on Telegram) resolve too."""

    text: str
    known: Mapping[str, UserRef] = field(default_factory=dict)
    handles: str | None = None  # the platform whose learned usernames resolve names


def elsewhere(repo: PlatformRepo, ctx: Context, reply: Reply | None) -> Reply | None:
    """The reply, its announcements to other chats (a ladder they share) left in the
    outbox, in this transaction: another platform posts them, retried until it can."""
    if reply is None:
        return None
    others = [a for a in reply.announcements if a.chat != ctx.chat]
    if not others:
        return reply
    repo.enqueue(others, ctx.at)
    return dataclasses.replace(reply, posted=len(others), announcements=tuple(
        a for a in reply.announcements if a.chat == ctx.chat))


class Gateway:
    """Commands from any platform into the core: flood limit, context, one transaction."""

    def __init__(self, store: PlatformStore, policy: Policy, clock: Callable[[], float],
                 limiter: Limiter, changed: Callable[[str, str | None], None] | None = None,
                 outbox: Callable[[], None] | None = None) -> None:
        self.store, self.policy, self.clock, self.limiter = store, policy, clock, limiter
        self.changed = changed  # told of every ladder a command answered for
        self.outbox = outbox  # told when a command left announcements for other chats
        self.pending = PendingFiles(clock)  # chat imports' dry runs' files
        self.noted: set[tuple[str, str]] = set()  # (user, chat): known as its moderator

    def admit(self, asker: Asker) -> tuple[bool, Text | None]:
        """Whether the asker may send a command now, and what to tell them if not (None:
        they were told already)."""
        return self.limiter.check(asker.chat, asker.user.key)

    async def run(self, asker: Asker, what: Command | Said,
                  ladder: str | None = None) -> Reply | None:
        """Run a command for the asker (None: the text was no command for the bot)."""
        noted = (asker.user.key, asker.chat)
        known = asker.moderator and not asker.alone and noted not in self.noted

        def work(repo: PlatformRepo) -> Reply | None:
            ctx = Context(asker.chat, asker.user, int(self.clock()), moderator=asker.moderator,
                          roles_held=asker.roles_held,
                          message_id=asker.message_id, channel=asker.channel,
                          reply_to=asker.reply_to, locale=asker.locale, alone=asker.alone,
                          ephemeral=asker.ephemeral, roles=asker.roles,
                          attachment=asker.attachment)
            if known:  # (the dashboard lists this chat's ladders to them)
                repo.note_moderator(*noted, ctx.at)
            if not isinstance(what, Said):
                return elsewhere(repo, ctx, execute(repo, ctx, Parsed(what, ladder),
                                                    self.policy))
            text = what.text if ladder is None else f"{what.text} ladder={ladder}"

            def resolve(name: str) -> UserRef | None:
                found = what.known.get(name)
                if found is None and what.handles is not None:
                    found = repo.find_handle(what.handles, name)
                if found is None and repo.plays_shared(asker.chat):
                    found = UserRef(f"{NAMED}{name}", name)  # a player of another platform
                return found

            try:
                return elsewhere(repo, ctx, handle(repo, ctx, text, resolve, self.policy))
            except LadderError as error:  # pragma: no cover - handle() answers refusals
                return spoken(refused(error), ctx, self.policy.language)

        try:
            reply = await self.store.run(work, key=asker.chat)
        except Overtime:  # (rolled back: the other chats were served meanwhile)
            reply = _STOPPED
        if reply is _STOPPED:  # (answered out of the except: its traceback is let go)
            return own_words(overtime(), asker.locale, self.policy)
        if known:
            self.noted.add(noted)
        if reply is not None and not reply.error and self.changed is not None:
            self.changed(asker.chat, reply.ladder)
        if reply is not None and reply.posted and self.outbox is not None:
            self.outbox()
        if reply is not None and reply.previewed is not None and asker.attachment:
            reply = dataclasses.replace(reply, kept=self.pending.keep(
                asker.chat, asker.user.key, *reply.previewed, asker.attachment))
        return reply

    async def confirm_import(self, asker: Asker, number: int) -> Reply | None:
        """Confirm import pressed: the import of the file its dry run kept (spent now,
        whatever the answer), or, where it is no longer kept, why."""
        sender = self.pending.sender(asker.chat, number)
        if sender is not None and sender != asker.user.key:
            return own_words(t("chat_import.not_yours"), asker.locale, self.policy)
        kept = self.pending.take(asker.chat, number)
        if kept is None:
            return own_words(t("chat_import.expired", minutes=KEEP_MINUTES), asker.locale,
                             self.policy)
        return await self.run(dataclasses.replace(asker, attachment=kept.data), kept.command)
