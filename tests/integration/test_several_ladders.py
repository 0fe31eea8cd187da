"""A chat of several ladders (issue 51): a command without `ladder=` goes to the ladder it
can only mean (where something waits for the asker, else the only one they play, else the
default); where two fit it asks which and does nothing. Prompts to answer name their
ladder, and so do scheduled announcements, when the chat has more than one. Each case
failed before: the command went to the default ladder."""

from __future__ import annotations

from core.domain.calendar import HOUR
from storage.memory.store import MemoryStore
from tests.support.chat import Chat

ALEKSEI, DMITRI, SERGEI, MARIA, IVAN, OLGA = "Алексей", "Дмитрий", "Сергей", "Мария", "Иван", \
    "Ольга"


async def five_ladders(chat: Chat, language: str) -> None:
    """main (duel, the default), glicko, the nhwc ladder cup and wl with a 1v1 queue."""
    await chat.ladder("duel", f"language={language}")
    await chat.ladder("glicko2", f"language={language}", name="glicko")
    await chat.ladder("nhwc", f"language={language}", name="cup")
    await chat.ladder("warlight", f"language={language}", "queue=1v1", name="wl")
    await chat.join(ALEKSEI, DMITRI)
    await chat.join(ALEKSEI, DMITRI, SERGEI, ladder="ladder=glicko")
    await chat.join(MARIA, IVAN, ladder="ladder=cup")
    await chat.join(ALEKSEI, OLGA, ladder="ladder=wl")


async def test_answers_go_to_the_ladder_where_they_are_awaited(store: object) -> None:
    chat = Chat(store)
    await five_ladders(chat, "ru")
    prompt = await chat.ok(ALEKSEI, f"/report win @{DMITRI} ladder=glicko")
    assert f"{DMITRI}: /confirm ladder=glicko или /dispute ladder=glicko," in prompt
    assert (await chat.ok(DMITRI, "/confirm")).startswith("Матч #1 подтверждён")
    # Сергей plays on glicko alone: his /confirm is about glicko, not "join main first"
    assert await chat.refused(SERGEI, "/confirm") == \
        "Нет результатов, которые ждут вашего подтверждения."
    challenged = await chat.ok(IVAN, f"/challenge @{MARIA}")
    assert "/accept ladder=cup или /decline ladder=cup" in challenged
    assert (await chat.ok(MARIA, "/accept")).startswith("Вызов #1 принят")
    await chat.ok(ALEKSEI, "/queue ladder=wl")
    formed = await chat.ok(OLGA, "/queue ladder=wl")
    assert "Ответьте /ready ladder=wl" in formed
    assert "готовы 1 из 2" in await chat.ok(ALEKSEI, "/ready")
    assert [m["status"] for m in (await chat.export("glicko"))["matches"]] == ["confirmed"]


async def test_two_ladders_awaiting_are_asked_about_never_guessed() -> None:
    chat = Chat(MemoryStore())
    await five_ladders(chat, "en")
    await chat.ok(ALEKSEI, f"/report win @{DMITRI}")
    await chat.ok(ALEKSEI, f"/report win @{DMITRI} ladder=glicko")
    asked = await chat.refused(DMITRI, "/confirm")
    assert asked == ("Something waits for you on 2 ladders here: say which, "
                     "/confirm ladder=main or /confirm ladder=glicko.")
    for ladder in ("main", "glicko"):
        assert [m["status"] for m in (await chat.export(ladder))["matches"]] == ["pending"]
    # A match number says which: #1 waits on both, so it is asked too; the reporter's
    # own report to withdraw is as plain
    assert (await chat.refused(DMITRI, "/dispute 1 no")).startswith("Something waits for you")
    assert "/withdraw ladder=main or /withdraw ladder=glicko" in await chat.refused(
        ALEKSEI, "/withdraw")
    assert (await chat.ok(DMITRI, "/confirm ladder=glicko")).startswith("Match #1 confirmed")
    assert (await chat.ok(DMITRI, "/confirm")).startswith("Match #1 confirmed")  # main's now
    assert [m["status"] for m in (await chat.export())["matches"]] == ["confirmed"]


async def test_a_match_number_goes_where_that_match_awaits_the_asker() -> None:
    chat = Chat(MemoryStore())
    await five_ladders(chat, "nl")
    await chat.ok(ALEKSEI, f"/report win @{DMITRI}")
    await chat.ok(ALEKSEI, f"/report win @{DMITRI} ladder=glicko again")
    await chat.ok(ALEKSEI, f"/report win @{DMITRI} ladder=glicko again")
    assert (await chat.ok(DMITRI, "/confirm 2")).startswith("Wedstrijd #2 bevestigd")
    assert [m["status"] for m in (await chat.export("glicko"))["matches"]] == [
        "pending", "confirmed"]


async def test_the_default_stays_for_joining_and_for_who_plays_several() -> None:
    chat = Chat(MemoryStore())
    await five_ladders(chat, "en")
    # Олья plays only wl, but /join is for a ladder one does not play yet: the default
    assert "main" in await chat.ok(OLGA, "/join")
    # Сергей plays only glicko: what he asks about is glicko
    assert (await chat.ok(SERGEI, "/standings")).startswith("glicko: ratings")
    # Алексей plays three: nothing waits, so the default
    assert (await chat.ok(ALEKSEI, "/profile")).startswith(f"{ALEKSEI} on main")


async def test_scheduled_announcements_name_their_ladder_in_a_chat_of_several() -> None:
    chat = Chat(MemoryStore())
    await chat.ladder("duel", "language=nl")
    await chat.ladder("duel", "language=nl", name="beker")
    for ladder in ("", "ladder=beker"):
        await chat.join("a", "b", ladder=ladder)
        await chat.ok("a", f"/report win @b {ladder}".strip())
    said = [a.text.split(": ", 1) for a in await chat.tick(25 * HOUR)]
    assert [(ladder, text.split(" ")[0:2]) for ladder, text in said] == [
        ("main", ["Wedstrijd", "#1"]), ("beker", ["Wedstrijd", "#1"])]
    alone = Chat(MemoryStore(), chat="alone")
    await alone.ladder("duel", "language=nl")
    await alone.join("a", "b")
    await alone.ok("a", "/report win @b")
    assert (await alone.tick(25 * HOUR))[0].text.startswith("Wedstrijd #1")
