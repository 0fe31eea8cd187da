"""A ladder speaks its language (`language=en|ru|nl`); what only its asker reads follows
the asker's own language where we speak it. The lines are checked as a user reads them,
through the console and through the command layer."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from core.domain.records import Context
from core.service.dispatch import handle
from storage.memory.store import MemoryStore
from tests.support.chat import T0, Chat, user
from tests.support.console import console

ROOT = Path(__file__).resolve().parents[2]

RUSSIAN = """\
!time 2026-01-05T10:00:00+00:00
@mod: /ladder create main preset=duel language=ru
@alice: /join
@alice: /join
@alice: /leave
@alice: /join
"""


def said(out: str) -> list[str]:
    return [line.removeprefix("bot: ") for line in out.splitlines()]


def test_a_russian_duel_ladder_on_the_console(tmp_path: Path) -> None:
    lines = said(console(tmp_path / "l.db", RUSSIAN))
    assert lines[3:] == [
        "alice вступает в main с рейтингом 1000. Калибровка: 5 рейтинговых игр, после них "
        "вы появитесь в таблицах.",
        "Вы уже играете в main.",
        "alice покидает main. Результаты сохраняются: /join, чтобы вернуться.",
        "alice возвращается в main с рейтингом 1000. Калибровка: 5 рейтинговых игр, после "
        "них вы появитесь в таблицах.",
    ]


def test_a_dutch_ladder_on_the_console_and_its_language_changed(tmp_path: Path) -> None:
    lines = said(console(tmp_path / "l.db", "!time 2026-01-05T10:00:00+00:00\n"
                         "@mod: /ladder create main preset=dutch language=nl\n"
                         "@bob: /join\n@bob: /leave\n@mod: /ladder set language=en\n"
                         "@bob: /join\n"))
    assert lines[-4:] == [
        "bob doet mee aan main met rating 0.",
        "bob stopt met main. De gegevens blijven bewaard: /join om terug te komen.",
        "main: language=en (was nl).",
        "bob is back on main at 0.",
    ]


async def ask(store: Any, name: str, text: str, locale: str | None = None,
              alone: bool = False, moderator: bool = False) -> Any:
    ctx = Context("console", user(name), T0, moderator=moderator, locale=locale, alone=alone)
    return await store.run(lambda repo: handle(repo, ctx, text, user))


async def test_a_refusal_follows_the_askers_language_the_rest_the_ladders(store: Any) -> None:
    await ask(store, "mod", "/ladder create main preset=duel language=nl", moderator=True)
    joined = await ask(store, "alice", "/join", locale="ru")
    assert joined.text.startswith("alice doet mee aan main met rating 1000.")  # the chat's
    again = await ask(store, "alice", "/join", locale="ru")
    assert (again.text, again.private) == ("Je doet al mee aan main.", False)
    banned = await ask(store, "mod", "/mod ban @alice cheating", moderator=True)
    assert banned.text.startswith("mod blokkeert alice op main: cheating.")
    back = await ask(store, "alice", "/join", locale="ru-RU")
    assert back.error and back.private
    assert back.text == ("Вы заблокированы в main (модератор mod: cheating). Снять "
                         "блокировку может модератор: /mod unban.")
    unknown = await ask(store, "alice", "/join", locale="pt-BR")
    assert unknown.text.startswith("Je bent geblokkeerd op main (door mod: cheating).")


async def test_a_chat_with_no_ladder_speaks_the_askers_language_or_the_lines(
        store: Any) -> None:
    # It answered in English, although the line said language=ru (issue 51).
    refused = await ask(store, "mod", "/ladder create main preset=dule language=ru",
                        moderator=True)
    assert refused.text.startswith("Набора правил «dule» нет. Может быть, duel?")
    listed = await ask(store, "alice", "/ladder list", locale="nl-NL")  # (Discord's locale)
    assert (listed.text, listed.private) == (
        "Hier is nog geen ladder. Een moderator maakt er een: /ladder create main "
        "preset=duel", False)
    # the asker's own language comes first; an unknown one falls back to the line's
    refused = await ask(store, "mod", "/ladder create main preset=dule language=ru",
                        locale="nl", moderator=True)
    assert refused.text.startswith("Er is geen reglement 'dule'.")
    refused = await ask(store, "mod", "/ladder create main preset=dule language=nl",
                        locale="pt-BR", moderator=True)
    assert refused.text.startswith("Er is geen reglement 'dule'.")


async def test_in_a_private_chat_every_reply_is_the_askers_language(store: Any) -> None:
    await ask(store, "mod", "/ladder create main preset=duel", moderator=True)
    reply = await ask(store, "alice", "/join", locale="nl", alone=True)
    assert reply.text.startswith("alice doet mee aan main met rating 1000.")


def test_the_languages_pages_examples_in_russian_and_dutch_run_as_shown(
        tmp_path: Path) -> None:
    # (they were README's; the languages page of the docs holds them now)
    page = (ROOT / "docs" / "players" / "languages.md").read_text()
    blocks = page.split("The words live in")[0].split("\n\n")
    examples = [b for b in blocks if b.startswith("    !time")]
    assert len(examples) == 2
    for n, block in enumerate(examples):
        lines = [line.strip() for line in block.splitlines()]
        script = "".join(f"{line}\n" for line in lines if not line.startswith("bot:"))
        said = console(tmp_path / f"{n}.db", script).splitlines()
        shown = [line for line in lines if line.startswith("bot:")]
        assert [line for line in said if line in shown] == shown, "\n".join(said)


def test_a_russian_position_ladder_challenges_and_moves_rungs(tmp_path: Path) -> None:
    lines = said(console(tmp_path / "l.db", "!time 2026-01-05T10:00:00+00:00\n"
                         "@mod: /ladder create cup preset=nhwc language=ru\n"
                         "@ann: /join\n@bob: /join\n@cat: /join\n@cat: /challenge @bob\n"
                         "@bob: /accept\n@cat: /report win @bob major\n@bob: /confirm\n"))
    assert lines[-4:] == [
        # (names stay in the nominative: no case, and no verb with a gender, needs them
        # changed; "cat вызывает @bob", "от cat" wanted "боба", "от кота")
        "Вызов: cat — @bob (ступень 3 вызывает ступень 2). bob: /accept или /decline до "
        "2026-01-08 10:00 UTC; без ответа вам засчитают поражение (minor).",
        "Вызов #1 принят: cat на ступени 3 — bob на ступени 2. Сыграйте до "
        "2026-01-12 10:00 UTC, затем /report win|loss|draw @user "
        "minor|major|overwhelming; если не сыграете к этому сроку, вызов сгорит.",
        "Результат матча #1: cat — bob, победа: cat (major). bob: /confirm или /dispute, на "
        "ответ есть 24 часа; иначе результат засчитают как есть.",
        "Матч #1 подтверждён: cat — bob, победа: cat (major). cat: ступень 3 -> 1 (вверх на "
        "2), bob: ступень 2 -> 3 (вниз на 1).",
    ]


def test_a_malformed_command_is_refused_in_the_chats_language(tmp_path: Path) -> None:
    lines = said(console(tmp_path / "l.db", "!time 2026-01-05T10:00:00+00:00\n"
                         "@mod: /ladder create main preset=duel language=ru\n"
                         "@alice: /join\n@alice: /report\n@alice: /repotr win @bob\n"
                         "@alice: /standings page=0\n"))
    assert lines[-5:] == [
        "Скажите, чем закончилась игра.",
        "Как писать: /report win|loss|draw @user [2-1] [minor|major|overwhelming] [moves=N] "
        "[unrated] [again] [tournament=NAME|none] | /report ffa @1st @2nd ... | "
        "/report teams @a @b vs @c @d [2-1] [draw]",
        "Я не знаю команды /\u200brepotr. Может быть, /report? Список команд: /help.",
        "page=N — номер страницы от 1 до 100\xa0000.",  # (Russian groups digits by a space)
        "Как писать: /standings [season|week|ladder|rating] [page=N]",
    ]


def test_a_glicko2_ladder_refuses_a_free_for_all_in_its_language(tmp_path: Path) -> None:
    lines = said(console(tmp_path / "l.db", "!time 2026-01-05T10:00:00+00:00\n"
                         "@mod: /ladder create main preset=glicko2 language=ru\n"
                         "@ann: /join\n@bob: /join\n@cat: /join\n"
                         "@ann: /report ffa @ann @bob @cat\n"))
    assert lines[-1] == ("main: Glicko-2 учитывает только игры один на один: ладдер с "
                         "preset=openskill учитывает игры всех против всех и командные.")


async def test_one_decimal_sign_in_a_reply_and_table_names_in_the_ladders_words() -> None:
    # Russian said `tau 0,5` in one reply and `(+162.3)` in the next; and "таблицы season,
    # week и ladder" (issue 51). A Glicko-2 game moves ratings by fractions.
    chat = Chat(MemoryStore(), chat="ru")
    await chat.ladder("glicko2", "language=ru", "confirm=false")
    await chat.join("a", "b")
    moved = await chat.ok("a", "/report win @b")
    assert re.search(r"\(\+\d+,\d\)", moved) and re.search(r"\(-\d+,\d\)", moved)
    assert not re.search(r"\d\.\d", moved)
    assert "tau 0,5" in await chat.ok("a", "/ladder info")
    await chat.ladder("duel", "language=ru", name="cup")
    assert "таблицы сезона, недели и ладдера" in await chat.ok("a", "/ladder info ladder=cup")
    nl = Chat(MemoryStore(), chat="nl")
    await nl.ladder("glicko2", "language=nl", "confirm=false")
    await nl.join("a", "b")
    assert re.search(r"\(\+\d+,\d\)", await nl.ok("a", "/report win @b"))
