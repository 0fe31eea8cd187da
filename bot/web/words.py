"""The web pages' words: a page speaks its ladder's language, and where no ladder is
shown (the list of ladders, a missing page) the reader's, from `Accept-Language`."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from markupsafe import Markup, escape

from core.i18n import LANGUAGES, in_words, language_of, moment, words, wrapped


def speaker(language: str) -> Callable[..., Markup]:
    """`say(code, count=None, **params)` for a template: the message's words in
    `language`, HTML-escaped, with parameters that are markup (a player's link) kept and
    every other parameter escaped."""
    def say(code: str, count: int | None = None, **params: Any) -> Markup:
        filled = {name: value if isinstance(value, Markup) else in_words(value, language)
                  for name, value in params.items()}
        if count is not None:
            filled.setdefault("count", count)
        text = Markup(escape(words(code, count, language))).format(**filled)
        return Markup(wrapped(text, language))  # (the wrapper holds no markup)
    return say


def when(language: str) -> Callable[[str | None], str]:
    """A template's `when(iso)`: an instant the views give as ISO 8601, as `language`
    writes it."""
    def said_at(text: str | None) -> str:
        return moment(datetime.fromisoformat(text).timestamp(), language) if text else ""
    return said_at


def accepted(header: str | None, fallback: str) -> str:
    """The language a reader's `Accept-Language` prefers most among ours (`ru-RU,
    ru;q=0.9, en;q=0.8`), else `fallback`."""
    ranked: list[tuple[float, int, str]] = []
    for index, part in enumerate((header or "")[:1000].split(",")):
        tag, _, weight = part.strip().partition(";q=")
        try:
            quality = float(weight) if weight else 1.0
        except ValueError:
            continue
        language = language_of(tag.strip(), "")
        if language in LANGUAGES and quality > 0:
            ranked.append((-quality, index, language))
    return min(ranked)[2] if ranked else fallback
