"""The message catalogs (core/i18n): every code the code says has words in every
language, with the same placeholders; plural forms are the language's own; words are
rendered as the reader's language says them, and a user's text is never reformatted."""

from __future__ import annotations

import re
import typing
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.plurals import get_plural

from core.domain.settings import Language
from core.i18n import LANGUAGES, PSEUDO, Number, joined, language_of, render, t
from core.i18n.catalogs import SOURCE, catalog

ROOT = Path(__file__).resolve().parents[2]
PLACEHOLDER = re.compile(r"\{(\w*)\}")
KEYWORDS = {"t": None, "N_": None, "said": None, "say": None}
# Python files through our method (core/i18n/extract.py); the web pages' templates
# through Jinja's own Babel extractor, which finds every `say("...")`.
METHODS = [("**.py", "core.i18n.extract:codes"),
           ("**/templates/**.html", "jinja2.ext:babel_extract")]


def used_codes() -> set[str]:
    """Every code `t("...")`, `N_("...")` and a template's `say("...")` name in the core
    and the adapters, as Babel extracts them."""
    found = set()
    for package in ("core", "bot", "storage"):
        for _, _, message, _, _ in extract_from_dir(ROOT / package, method_map=METHODS,
                                                    keywords=KEYWORDS):
            found.add(message if isinstance(message, str) else message[0])
    return found


def test_the_extraction_sees_both_codes_of_a_choice_and_nested_ones(tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text('x = t("a" if y else "b", n=t("c", m=N_("d")))\n'
                                   'z = t(code, q=1)\n')
    found = {m for _, _, m, _, _ in extract_from_dir(
        tmp_path, method_map=[("**.py", "core.i18n.extract:codes")], keywords=KEYWORDS)}
    assert found == {"a", "b", "c", "d"}


def words_of(language: str) -> dict[str, tuple[str, ...]]:
    """code -> its words (one, or one per plural form)."""
    found = {}
    for message in catalog(language):
        if not message.id:
            continue
        code = message.id if isinstance(message.id, str) else message.id[0]
        found[code] = (message.string,) if isinstance(message.string, str) \
            else tuple(message.string or ())
    return found


def test_the_language_setting_offers_exactly_the_catalogs() -> None:
    assert typing.get_args(Language) == LANGUAGES
    for language in LANGUAGES:
        assert (ROOT / "core/i18n/locale" / language / "LC_MESSAGES/ladderbot.po").is_file()


def test_every_code_the_code_uses_has_words_and_no_words_lie_unused() -> None:
    used, english = used_codes(), set(words_of(SOURCE))
    assert used, "the extraction found no message at all"
    assert sorted(used - english) == [], "codes without English words"
    assert sorted(english - used) == [], "words no code says any more"


@pytest.mark.parametrize("language", [lang for lang in LANGUAGES if lang != SOURCE])
def test_every_message_is_translated_with_the_same_placeholders(language: str) -> None:
    english, words = words_of(SOURCE), words_of(language)
    assert sorted(english.keys() - words.keys()) == [], f"missing in {language}"
    for code, forms in words.items():
        assert all(form.strip() for form in forms), f"{language} {code}: empty"
        wanted = {p for form in english[code] for p in PLACEHOLDER.findall(form)}
        said = [set(PLACEHOLDER.findall(form)) for form in forms]
        # Every form names every placeholder but the count (a language may say "one"
        # where English says "a"), and none English lacks.
        for form in said:
            assert form <= wanted, f"{language} {code}: {form - wanted} unknown"
            assert wanted - {"count"} <= form, f"{language} {code}: lacks {wanted - form}"
        assert len(forms) == (get_plural(language).num_plurals if len(english[code]) > 1
                              else 1), f"{language} {code}: plural forms"


@pytest.mark.parametrize("language", LANGUAGES)
def test_plural_rules_in_the_headers_are_the_languages_own(language: str) -> None:
    read = catalog(language)
    rules = get_plural(language)
    assert (read.num_plurals, read.plural_expr) == (rules.num_plurals, rules.plural_expr)
    assert not [m.id for m in read if m.fuzzy and m.id], "fuzzy words are not used"


@pytest.mark.parametrize(("count", "form"), [
    (1, "рейтинговая игра"), (2, "рейтинговые игры"), (4, "рейтинговые игры"),
    (5, "рейтинговых игр"), (11, "рейтинговых игр"), (12, "рейтинговых игр"),
    (21, "рейтинговая игра"), (22, "рейтинговые игры"), (25, "рейтинговых игр"),
    (111, "рейтинговых игр")])
def test_russian_says_its_three_plural_forms(count: int, form: str) -> None:
    said = render(t("member.calibrates_you", count=count), "ru")
    assert f"{count} {form}," in said


def test_english_and_dutch_say_one_and_many() -> None:
    assert render(t("member.calibrates_you", count=1), "en") == \
        "The first rated game calibrates: tables list you after it."
    assert render(t("member.calibrates_you", count=3), "nl") == \
        "De eerste 3 ratingpartijen zijn ter kalibratie: daarna sta je in de ranglijsten."


def test_a_users_text_is_never_read_as_words() -> None:
    hostile = "{ladder} {0} {__class__} %s ⟦"
    said = render(t("leave.left", name=hostile, ladder="main", join="/join"), "en")
    assert said == f"{hostile} left main. The record stays: /join to come back."
    assert render(hostile, "ru") == hostile


def test_messages_join_and_nest_in_the_readers_language() -> None:
    inner = t("member.off_reason", by="mod", reason="cheating")
    message = joined(t("join.banned", ladder="main", why=inner), "", "as typed")
    assert render(message, "nl") == ("Je bent geblokkeerd op main (door mod: cheating). Een "
                                     "moderator kan dat opheffen met /mod unban. as typed")
    assert str(message).startswith("You are banned from main (by mod: cheating).")


def test_the_pseudo_language_wraps_every_message_and_nothing_else() -> None:
    message = joined(t("join.already", ladder="main"), "typed")
    assert render(message, PSEUDO) == "⟦You are on main already.⟧ typed"


@pytest.mark.parametrize(("wanted", "fallback", "said"), [
    ("ru", "en", "ru"), ("en-GB", "ru", "en"), ("nl_BE", "en", "nl"), ("pt-BR", "nl", "nl"),
    (None, "ru", "ru"), ("", "en", "en"), ("RU", "en", "ru")])
def test_a_readers_language_where_we_speak_it(wanted: str | None, fallback: str,
                                             said: str) -> None:
    assert language_of(wanted, fallback) == said


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_message_renders_with_and_without_a_count(language: str) -> None:
    # The 250-roles refusal, given count=, was looked up as a plural form its words do
    # not have: it showed its bare code `roles.too_many` in every language.
    english = words_of(SOURCE)
    for code, forms in english.items():
        wanted = {p for form in forms for p in PLACEHOLDER.findall(form)}
        params: dict[str, typing.Any] = {name: "X" for name in wanted - {"count"}}
        # (words that say the count need one; any other may be given one)
        for count in [*([None] if "count" not in wanted else []), 1, 2, 5, 21]:
            said = render(t(code, count=count, **params), language)
            assert said.strip() and said != code, (language, code, count)
            assert code not in said, (language, code, count)


DECIMAL = {"en": "1.5", "ru": "1,5", "nl": "1,5"}  # (CLDR's decimal sign of each)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_message_says_numbers_by_its_languages_rules(language: str) -> None:
    # Each message with every number parameter 1.5, and each count 1, 2, 5 and 21: the
    # language's own decimal sign and plural form, never a bare code. A Russian reply
    # said `tau 0,5` and `(+162.3)`, two decimal signs in one reply.
    for code, forms in words_of(SOURCE).items():
        wanted = {p for form in forms for p in PLACEHOLDER.findall(form)} - {"count"}
        for count in (1, 2, 5, 21):
            said = render(t(code, count=count, **dict.fromkeys(wanted, Number(1.5))),
                          language)
            assert code not in said, (language, code, count)
            assert not wanted or DECIMAL[language] in said, (language, code, said)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_presets_named_in_words_are_every_preset(language: str) -> None:
    # /help ladder and /ladder create without a preset named five of the seven.
    from core.domain.settings import PRESETS

    for code in ("help.ladder", "mod.which_preset"):
        said = render(t(code), language)
        assert all(name in said for name in PRESETS), (language, code, said)
