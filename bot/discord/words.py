"""Discord's command menu in the languages we speak.

Every description in the menu is a catalog message (`said`): Discord gets its English
words, and the tree's translator (`Words`) says it in Russian and Dutch, so each user
sees the menu in their client's language. Command and option names stay as they are in
every language, like the words typed in chat (`/report win @bob major`): their
localizations in Russian and Dutch are the names themselves.
"""

from __future__ import annotations

from discord import Locale, app_commands

from core.i18n import render, t

# Discord's locales and the language each one reads.
LOCALES = {Locale.russian: "ru", Locale.dutch: "nl"}


def said(code: str) -> app_commands.locale_str:
    """A description in the menu: its English words, and the code to say it by."""
    return app_commands.locale_str(render(t(code), "en"), code=code)


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
