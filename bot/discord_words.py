"""Discord's command menu in the languages we speak.

Every description in the menu is a catalog message (`said`): Discord gets its English
words, and the tree's translator (`Words`) says it in Russian and Dutch, so each user
sees the menu in their client's language. Command and option names stay as they are in
every language, like the words typed in chat (`/report win @bob major`): their
localizations in Russian and Dutch are the names themselves.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any, TypeVar

from discord import Locale, app_commands

from core.i18n import N_, render, t

F = TypeVar("F", bound=Callable[..., Any])

# Discord's locales and the language each one reads.
LOCALES = {Locale.russian: "ru", Locale.dutch: "nl"}


def said(code: str) -> app_commands.locale_str:
    """A description in the menu: its English words, and the code to say it by."""
    return app_commands.locale_str(render(t(code), "en"), code=code)


# Every option by its name, the same wherever it appears (a command may say its own).
OPTIONS = {"ladder": N_("menu.opt_ladder"), "reason": N_("menu.opt_reason"),
           "player": N_("menu.opt_player"), "match": N_("menu.opt_match"),
           "name": N_("menu.opt_name"), "page": N_("menu.opt_page"),
           "opponent": N_("menu.opt_opponent"), "unrated": N_("menu.opt_unrated"),
           "challenger": N_("menu.opt_challenger"), "moves": N_("menu.opt_moves"),
           "table": N_("menu.opt_table"), "command": N_("menu.opt_command"),
           "amount": N_("menu.opt_amount"), "challenge": N_("menu.opt_challenge"),
           "options": N_("menu.opt_options"), "preset": N_("menu.opt_preset"),
           "result": N_("menu.opt_result"), "margin": N_("menu.opt_margin"),
           "again": N_("menu.opt_again"), "score": N_("menu.opt_score"),
           "opponent_name": N_("menu.opt_opponent_name")}


def options(**own: str) -> Callable[[F], F]:
    """Describe each option of the command below by `OPTIONS` (`own`: codes of this
    command's own words for some), so no option of the menu goes undescribed."""
    def describe(command: F) -> F:
        names = inspect.signature(command).parameters
        codes = {name: own.get(name, OPTIONS.get(name)) for name in names
                 if name in own or name in OPTIONS}
        described: F = app_commands.describe(
            **{name: said(code) for name, code in codes.items() if code})(command)
        return described

    return describe


class Words(app_commands.Translator):
    """Says a menu's descriptions (and choices) in Russian and Dutch from the catalogs."""

    async def translate(self, string: app_commands.locale_str, locale: Locale,
                        context: app_commands.TranslationContextTypes) -> str | None:
        """The words of `string` in `locale`'s language (a name: itself); None where we
        do not speak it."""
        code = string.extras.get("code")
        language = LOCALES.get(locale)
        if language is None:
            return None
        if code is None:
            return string.message if context.location in _NAMES else None
        return render(t(code), language)


# What is a name in the menu: a command's, a group's or an option's.
_NAMES = (app_commands.TranslationContextLocation.command_name,
          app_commands.TranslationContextLocation.group_name,
          app_commands.TranslationContextLocation.parameter_name)
