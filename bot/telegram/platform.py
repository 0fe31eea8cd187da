"""Telegram, through python-telegram-bot: groups own ladders (`telegram:CHAT_ID`).

The adapter only translates: a message becomes (chat, user, text, mentions) for the
command layer, a reply becomes a message, a pending report gets Confirm / Dispute
buttons. The Bot API cannot resolve `@name`, so usernames are learned from every
message the bot sees; a `text_mention` and a reply to the opponent's message also name
a player.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import hashlib
import logging
import os
import time
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

from telegram import (
    CallbackQuery,
    Message,
    Update,
)
from telegram.constants import ChatType
from telegram.error import BadRequest, Forbidden
from telegram.ext import (
    Application,
    ApplicationBuilder,
    CallbackQueryHandler,
    ContextTypes,
    MessageHandler,
    filters,
)
from telegram.request import BaseRequest

from bot.config import Config, host_port
from bot.gateway import (
    IMPORT,
    PRESSABLE,
    Asker,
    Gateway,
    Said,
    button_command,
    buttons_of,
    own_words,
    page_command,
)
from bot.limits import Limiter
from bot.scheduler import Undeliverable
from bot.telegram.admins import Admins
from bot.telegram.board import TelegramBoard
from bot.telegram.files import attached, caption_of
from bot.telegram.keys import (
    PLATFORM,
    addressed,
    chat_key,
    seen_users,
    user_ref,
    with_mentions,
)
from bot.telegram.menus import register_menus
from bot.telegram.order import CONCURRENT_UPDATES, ChatOrder
from bot.telegram.outgoing import Outgoing
from bot.telegram.render import alert, keyboard, render, shown, split
from bot.text import APOLOGY
from core import i18n
from core.commands.registry import MODERATED_WORDS, PERSONAL_WORDS, READ_ONLY_WORDS
from core.commands.words import command_word
from core.domain.numerals import is_digits
from core.domain.records import Announcement, LadderInfo, Reply, UserRef
from core.i18n import language_of, t
from core.ports.repository import PlatformRepo, PlatformStore

log = logging.getLogger(__name__)

# PTB 22 warns on every RetryAfter that `retry_after` will become a timedelta unless this
# documented opt-in is set; we never read the attribute ourselves, so opting in is safe.
os.environ.setdefault("PTB_TIMEDELTA", "1")


class TelegramPlatform:
    """The bot in Telegram groups (and read-only in private chats)."""

    name = PLATFORM

    def __init__(self, config: Config, store: PlatformStore, *,
                 request: BaseRequest | None = None,
                 updates_request: BaseRequest | None = None,
                 clock: Callable[[], float] = time.time,
                 limiter: Limiter | None = None,
                 outgoing: Outgoing | None = None) -> None:
        self.config = config
        self.store = store
        self.clock = clock
        self.limiter = limiter or Limiter()
        self._learned: dict[int, str] = {}
        builder = ApplicationBuilder().token(config.telegram.token) \
            .rate_limiter(outgoing or Outgoing(max_retries=3)) \
            .concurrent_updates(ChatOrder(CONCURRENT_UPDATES))
        if config.telegram.base_url:
            builder = builder.base_url(config.telegram.base_url)
        if request is not None:
            builder = builder.request(request).get_updates_request(updates_request or request)
        self.app: Application[Any, Any, Any, Any, Any, Any] = builder.build()
        self.app.add_handler(MessageHandler(
            filters.UpdateType.MESSAGE & (filters.TEXT | filters.StatusUpdate.NEW_CHAT_MEMBERS
                                          | filters.Document.ALL),
            self.on_message))
        self.app.add_handler(CallbackQueryHandler(self.on_button))
        self.app.add_error_handler(self.on_error)
        self.board = TelegramBoard(self.app.bot, config.policy.web_url or None)
        self.admins = Admins(self.app.bot, clock)
        # The way into the core, made once (the runtime tells it whom to poke after a command).
        self.gateway = Gateway(store, config.policy, clock, self.limiter)

    # ---- lifecycle
    def owns(self, chat: str) -> bool:
        """Telegram chat keys."""
        return chat.startswith(f"{PLATFORM}:")

    async def start(self) -> None:
        """Connect, register the command list, start receiving: by long polling, or by
        webhook when `[telegram] webhook_url` is set."""
        await self.app.initialize()
        await self.register_commands()
        await self.app.start()
        if self.app.updater is None:
            return
        allowed = ["message", "callback_query"]
        if not self.config.telegram.webhook_url:
            await self.app.updater.start_polling(allowed_updates=allowed,
                                                 drop_pending_updates=False)
            return
        # Several workers may run behind one URL (a load balancer): each sets the same
        # webhook, which is idempotent, and checks the same secret, made from the token.
        # Telegram sends an update again until it is answered, and the message id makes
        # a second delivery answer as the first did.
        url = self.config.telegram.webhook_url
        host, port = host_port(self.config.telegram.listen or "0.0.0.0:8443", "0.0.0.0")
        await self.app.updater.start_webhook(
            listen=host, port=port, url_path=urlsplit(url).path.lstrip("/"),
            webhook_url=url, allowed_updates=allowed, drop_pending_updates=False,
            secret_token=self.webhook_secret)

    @property
    def webhook_secret(self) -> str:
        """The secret Telegram sends with each webhook request (the same for every worker
        of one bot, and not the token itself)."""
        return hashlib.sha256(b"ladderbot webhook " + self.config.telegram.token.encode()
                              ).hexdigest()

    async def stop(self) -> None:
        """Stop polling, then the application."""
        if self.app.updater is not None and self.app.updater.running:
            await self.app.updater.stop()
        if self.app.running:
            await self.app.stop()
        await self.app.shutdown()

    async def register_commands(self) -> None:
        """setMyCommands, so clients suggest the commands (bot/telegram/menus.py)."""
        await register_menus(self.app.bot)

    # ---- sending
    async def post(self, announcement: Announcement) -> None:
        """Post an announcement to its group (raises for the outbox to retry)."""
        chat_id = int(announcement.chat.split(":", 1)[1])
        parts = split(shown(announcement.text, self.own))
        markup = keyboard(buttons_of(announcement.ready, announcement.confirm),
                          announcement.ladder, announcement.language)
        try:
            for n, part in enumerate(parts):
                await self.app.bot.send_message(
                    chat_id=chat_id, text=part, reply_markup=markup if n == len(parts) - 1
                    else None)
        except Forbidden as error:  # the bot was removed from the group
            raise Undeliverable(str(error)) from error

    async def _answer(self, message: Message, reply: Reply) -> None:
        for announcement in reply.announcements:
            await self.post(announcement)
        if reply.secret and message.chat.type != ChatType.PRIVATE:
            await self._whisper(message, reply)
            return
        for part, markup in render(reply, self.own):
            await message.reply_text(part, reply_markup=markup)
        if reply.chart is not None:
            from bot.charts import render as draw  # (matplotlib: loaded at the first chart)

            picture = await asyncio.to_thread(draw, reply.chart)
            await message.reply_photo(picture, filename=f"{reply.chart.name}.png")

    async def _whisper(self, message: Message, reply: Reply) -> None:
        """A secret (a one-time code) asked in a group: a group has no private replies,
        so it goes to the asker's private chat, and the group is told only where it went.
        Telegram lets a bot write first only to someone who started it there; if they did
        not, they are told how to, and the code no one saw expires unused."""
        assert message.from_user is not None
        language = reply.language
        try:
            for part, _ in render(reply, self.own):
                await self.app.bot.send_message(message.from_user.id, part)
        except Forbidden:
            said = t("adapter.start_private", bot=f"@{self.app.bot.username}")
        else:
            said = t("adapter.sent_private")
        await message.reply_text(shown(i18n.render(said, language), self.own))

    async def web_access(self, chat: str, user: str) -> tuple[bool, frozenset[str]] | None:
        """The dashboard's question of who administers a group (bot/telegram/admins.py)."""
        return await self.admins.of_keys(chat, user)

    # ---- receiving
    async def _learn(self, message: Message) -> None:
        fresh = [u for u in seen_users(message) if self._learned.get(u.id) != u.username]
        if not fresh:
            return
        at = int(self.clock())

        def work(repo: PlatformRepo) -> None:
            for u in fresh:
                assert u.username is not None
                repo.learn_handle(PLATFORM, u.username, user_ref(u), at)

        await self.store.run(work)
        for u in fresh:
            self._learned[u.id] = u.username or ""

    async def on_message(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """Learn who is who; answer commands."""
        message = update.effective_message
        if message is None or message.from_user is None or message.from_user.is_bot:
            return
        await self._learn(message)
        text = message.text or caption_of(message)
        word = command_word(text)
        if word is None or not addressed(text, self.app.bot.username):
            return
        chat = message.chat
        author = user_ref(message.from_user)
        allowed, note = self.gateway.admit(Asker(chat_key(chat.id), author))
        if not allowed:
            if note is not None:
                await message.reply_text(own_words(note, message.from_user.language_code,
                                                   self.config.policy).said)
            return
        text, known = with_mentions(message) if message.text else (text, {})
        replied = message.reply_to_message
        reply_to = user_ref(replied.from_user) if replied is not None and \
            replied.from_user is not None and not replied.from_user.is_bot else None
        moderator = word in MODERATED_WORDS and await self.admins.has(
            chat.id, message.from_user.id, chat.type)
        # One clock per process (the gateway's, injectable): Telegram's message dates could
        # disagree with the scheduler's, and a late delivery would be stamped before jobs
        # already run.
        asker = Asker(chat_key(chat.id), author, moderator,
                      message_id=f"{chat.id}:{message.message_id}", reply_to=reply_to,
                      locale=message.from_user.language_code,
                      alone=chat.type == ChatType.PRIVATE)
        said = Said(text, known, handles=PLATFORM)
        found = await attached(message, asker, word, self.config.policy)
        if isinstance(found, Reply):
            await message.reply_text(found.said)
            return
        asker = found
        if chat.type == ChatType.PRIVATE:
            reply = await self._private(asker, word, said)
        else:
            reply = await self.gateway.run(asker, said)
        if reply is not None:
            await self._answer(message, reply)

    @property
    def own(self) -> str | None:
        """The bot's web address: the one address its replies show as a link."""
        return self.config.policy.web_url or None

    async def _private(self, asker: Asker, word: str, said: Said) -> Reply | None:
        """In a private chat: only reads, about the asker's ladders in their groups."""
        policy = self.config.policy
        if word not in READ_ONLY_WORDS + PERSONAL_WORDS:
            return own_words(t("adapter.private_reads"), asker.locale, policy)
        if word in ("help", "start", *PERSONAL_WORDS):  # (about no group's ladder)
            return await self.gateway.run(asker, said)
        named = next((t.split("=", 1)[1] for t in said.text.split()
                      if t.startswith("ladder=")), None)
        ladders = await self._ladders_of(asker.user, named)
        if not ladders:
            return own_words(t("adapter.no_ladders"), asker.locale, policy)
        if len(ladders) > 1:
            return own_words(t("adapter.several", ladders=", ".join(
                sorted({lad.name for lad in ladders}))), asker.locale, policy)
        ladder = ladders[0]
        group = Asker(ladder.chat, asker.user, reply_to=asker.reply_to, locale=asker.locale,
                      alone=True)
        return await self.gateway.run(group, said, None if named else ladder.name)

    async def _ladders_of(self, user: UserRef, name: str | None) -> list[LadderInfo]:
        """The ladders the user plays in their groups (of that name, if one is given)."""
        ladders = await self.store.run(lambda repo: repo.user_ladders(user.key))
        return [lad for lad in ladders if name is None or lad.name == name]

    async def _presser(self, query: CallbackQuery, known: bool) -> Asker | None:
        """Who pressed a button, or None once told why they may not now: a button this
        bot does not know (`known` False: stale or forged), or pressing too fast."""
        assert query.message is not None
        locale = query.from_user.language_code
        asker = Asker(chat_key(query.message.chat.id), user_ref(query.from_user), locale=locale)
        allowed, note = self.gateway.admit(asker) if known else \
            (False, t("adapter.stale_button"))
        if not allowed:
            said = own_words(note or t("limit.slow"), locale, self.config.policy)
            await query.answer(alert(said, self.own), show_alert=True)
            return None
        return asker

    async def _failed(self, query: CallbackQuery, reply: Reply | None) -> bool:
        """Whether a press's command was refused (or was none); the presser is told."""
        if reply is not None and not reply.error:
            return False
        nothing = own_words(t("adapter.nothing"), query.from_user.language_code,
                            self.config.policy)
        await query.answer(alert(reply or nothing, self.own), show_alert=True)
        return True

    async def on_button(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """Confirm / Dispute / Withdraw or Ready pressed: the core decides if the presser
        may."""
        query = update.callback_query
        if query is None or query.data is None or query.message is None:
            return
        if query.data.startswith("pg:"):
            await self._turn_page(query)
            return
        action, _, rest = query.data.partition(":")
        ladder, _, match = rest.rpartition(":")
        locale, policy = query.from_user.language_code, self.config.policy
        asker = await self._presser(query, action in PRESSABLE and is_digits(match)
                                    and bool(ladder))
        if asker is None:
            return
        if action == IMPORT:  # (the core asks again that they moderate the chat)
            chat = query.message.chat
            asker = dataclasses.replace(asker, moderator=await self.admins.has(
                chat.id, query.from_user.id, chat.type))
            reply = await self.gateway.confirm_import(asker, int(match))
        else:  # the same command a Discord button runs, not a text to parse again
            reply = await self.gateway.run(asker, button_command(action, int(match)), ladder)
        if await self._failed(query, reply):
            return
        assert reply is not None
        if reply.private:  # a ready noted: said to the presser; the others need the button
            await query.answer(alert(reply, self.own))
            return
        await query.answer(own_words(t("adapter.done"), locale, policy).said)
        with contextlib.suppress(BadRequest):  # the buttons were removed already
            await query.edit_message_reply_markup(reply_markup=None)
        if isinstance(query.message, Message):
            await self._answer(query.message, reply)

    async def _turn_page(self, query: CallbackQuery) -> None:
        """Previous or Next under a page: the page the button names, in place of the one
        shown (one edit, where a new message would crowd the group)."""
        assert query.data is not None and query.message is not None
        found = page_command(query.data)
        asker = await self._presser(query, found is not None)
        if asker is None or found is None:
            return
        command, ladder = found
        if query.message.chat.type == ChatType.PRIVATE:  # (a page a private chat was shown:
            # of the asker's ladder of that name, in its group, as `_private` reads it)
            groups = [lad.chat for lad in await self._ladders_of(asker.user, ladder)]
            asker = dataclasses.replace(asker, chat=groups[0] if groups else asker.chat,
                                        alone=True)
        reply = await self.gateway.run(asker, command, ladder)
        if await self._failed(query, reply):
            return
        await query.answer()
        assert reply is not None
        text, markup = render(reply, self.own)[0]
        with contextlib.suppress(BadRequest):  # (pressed twice: the same page again)
            await query.edit_message_text(text, reply_markup=markup)

    async def on_error(self, update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
        """Log a handler's exception with its traceback; apologise to the user."""
        log.error("error while handling an update", exc_info=context.error)
        if isinstance(update, Update) and update.effective_message is not None:
            try:
                user = update.effective_user
                language = language_of(user.language_code if user else None,
                                       self.config.policy.language)
                await update.effective_message.reply_text(i18n.render(APOLOGY, language))
            except Exception:
                log.exception("could not send the apology")
