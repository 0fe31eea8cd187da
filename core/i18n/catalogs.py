"""The message catalogs, read once per language from the gettext files installed with
the package (Babel reads them as they are and compiles them in memory, so a checkout
and an install behave alike, with no build step)."""

from __future__ import annotations

import re
from functools import cache
from importlib.resources import files
from io import BytesIO

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations

LANGUAGES = ("en", "ru", "nl")
SOURCE = "en"  # the catalog every other one falls back to
PSEUDO = "pseudo"  # a test language: English, every message wrapped in ⟦…⟧
DOMAIN = "ladderbot"
_PLACEHOLDER = re.compile(r"\{(\w+)\}")


def catalog(language: str) -> Catalog:
    """A language's catalog as Babel reads it (the tests check it against the code)."""
    path = files("core.i18n") / "locale" / language / "LC_MESSAGES" / f"{DOMAIN}.po"
    with path.open("rb") as source:
        return read_po(source, locale=language, domain=DOMAIN)


@cache
def _read(language: str) -> Catalog:
    """A language's catalog, read once (its compiled words and, for English, its
    placeholders are made from the one reading)."""
    return catalog(language)


@cache
def _placeholders() -> dict[str, frozenset[str]]:
    """Each English message's code, and the placeholders its words name."""
    found = {}
    for message in _read(SOURCE):
        if message.id:
            code = message.id if isinstance(message.id, str) else message.id[0]
            forms = (message.string,) if isinstance(message.string, str) \
                else tuple(message.string or ())
            found[code] = frozenset(p for form in forms for p in _PLACEHOLDER.findall(form))
    return found


@cache
def counted() -> frozenset[str]:
    """The codes whose words have plural forms (said by how many: `{count}`)."""
    return frozenset(message.id[0] for message in _read(SOURCE)
                     if message.id and not isinstance(message.id, str))


def knows(code: str, params: set[str]) -> bool:
    """Whether `code` is a message whose words these parameters can fill."""
    wanted = _placeholders().get(code)
    return wanted is not None and wanted <= params


@cache
def translations(language: str) -> Translations:
    """A language's compiled catalog, falling back to English for what it lacks (a
    test makes sure nothing is lacking)."""
    if language == PSEUDO:
        return translations(SOURCE)
    if language not in LANGUAGES:
        raise ValueError(f"no catalog for {language!r}")
    compiled = BytesIO()
    write_mo(compiled, _read(language))
    compiled.seek(0)
    words = Translations(compiled, domain=DOMAIN)
    if language != SOURCE:
        words.add_fallback(translations(SOURCE))
    return words
