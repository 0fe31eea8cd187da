"""Telegram's command menus (setMyCommands): every command in groups, the reads and
/link in private chats; in English for everyone, and in Russian and Dutch for users whose
Telegram speaks those (the command words stay as they are)."""

from __future__ import annotations

import logging
from collections.abc import Sequence

from telegram import (
    Bot,
    BotCommand,
    BotCommandScopeAllGroupChats,
    BotCommandScopeAllPrivateChats,
)

from bot.menu import MENU
from core import i18n
from core.commands.registry import PERSONAL_WORDS, READ_ONLY_WORDS

Scope = BotCommandScopeAllGroupChats | BotCommandScopeAllPrivateChats
log = logging.getLogger(__name__)


async def register_menus(bot: Bot) -> None:
    """setMyCommands for every menu: a failure is logged (the bot works without them)."""
    try:
        for commands, scope, code in command_menus():
            await bot.set_my_commands(commands, scope=scope, language_code=code)
    except Exception:
        log.exception("could not register the command list (the bot still works)")


def command_menus() -> list[tuple[list[BotCommand], Scope, str | None]]:
    """Each menu: its commands, the chats it is for, its language code (None: everyone's)."""
    menus: list[tuple[list[BotCommand], Scope, str | None]] = []
    for language in i18n.LANGUAGES:
        code = None if language == "en" else language
        menus.append((_listed(list(MENU), language), BotCommandScopeAllGroupChats(), code))
        menus.append((_listed(READ_ONLY_WORDS + PERSONAL_WORDS, language),
                      BotCommandScopeAllPrivateChats(), code))
    return menus


def _listed(words: Sequence[str], language: str) -> list[BotCommand]:
    return [BotCommand(w, i18n.render(i18n.t(MENU[w]), language)) for w in words if w in MENU]
