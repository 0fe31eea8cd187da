"""The dashboard's sessions in every store (issue 55): kept, read until they end, ended
by logging out, and let go of once ended."""

from __future__ import annotations

from typing import Any

from core.domain.web_session import WebSession


async def test_a_session_lives_until_it_ends_in_every_store(store: Any) -> None:
    one = WebSession("a" * 64, "telegram:42", "<b>al</b>", "c" * 43, 1000, 2000)
    other = WebSession("b" * 64, "discord:7", "bo", "d" * 43, 1500, 9000)

    def work(repo: Any) -> list[Any]:
        repo.save_session(one, 1000)
        seen = [repo.web_session(one.token, 1999), repo.web_session(one.token, 2000)]
        repo.save_session(other, 2500)  # (lets go of the first, ended by then)
        seen.append(repo.web_session(other.token, 2500))
        repo.end_session(other.token)
        seen.append(repo.web_session(other.token, 2500))
        return seen

    assert await store.run(work) == [one, None, other, None]
    assert await store.run(lambda repo: repo.web_session("e" * 64, 0), commit=False) is None


async def test_the_chats_a_user_moderates_in_every_store(store: Any) -> None:
    def work(repo: Any) -> list[list[str]]:
        repo.note_moderator("telegram:1", "telegram:-200", 1000)
        repo.note_moderator("telegram:1", "telegram:-100", 1000)
        repo.note_moderator("telegram:1", "telegram:-100", 2000)  # (again: one chat)
        repo.note_moderator("discord:1", "discord:5", 1000)
        return [repo.moderated_chats("telegram:1"), repo.moderated_chats("discord:1"),
                repo.moderated_chats("telegram:2")]

    assert await store.run(work) == [["telegram:-100", "telegram:-200"], ["discord:5"], []]
