"""The moderator page's result form (issue 55): a new result with the margin a position
ladder needs and the score a best-of ladder keeps, as `/mod set` takes them; a margin or
score no page offers is refused and changes nothing."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from aiohttp.test_utils import TestClient

from core.domain.model import Margin
from core.domain.records import MatchRecord, UserRef
from storage.sqlite.store import SqliteStore
from tests.support.chat import Chat
from tests.support.dashboard import GROUP, HOSTILE, csrf_of, dashboard, login, moderated_by


@asynccontextmanager
async def moderating(tmp_path: Path, *ladder: str
                     ) -> AsyncIterator[tuple[TestClient[Any, Any], Chat]]:
    """A ladder made with `ladder` (a preset and options) that mod (Telegram 1) and the
    hostile name play, mod logged in on the dashboard."""
    async with SqliteStore(tmp_path / "l.db") as store:
        chat = Chat(store, chat=GROUP)
        chat.resolve = lambda name: UserRef(  # type: ignore[method-assign]
            "telegram:1" if name == "mod" else f"telegram:{7 + len(name)}", name)
        await chat.ladder(*ladder)
        await chat.join("mod", HOSTILE)
        async with dashboard(chat, moderated_by("telegram:1")) as (client, _):
            await login(client, chat.at, uid="1", name="mod")
            yield client, chat


async def _page(client: TestClient[Any, Any]) -> tuple[str, dict[str, str]]:
    page = await (await client.get("/ladders/1/manage")).text()
    return page, {"csrf": csrf_of(page), "action": "set", "match": "1", "text": "a mistake"}


async def _match(chat: Chat) -> MatchRecord:
    found: MatchRecord | None = await chat.store.run(lambda repo: repo.match(1, 1),
                                                     commit=False)
    assert found is not None
    return found


async def test_a_position_ladders_result_is_set_with_its_margin(tmp_path: Path) -> None:
    async with moderating(tmp_path, "nhwc") as (client, chat):
        await chat.ok(HOSTILE, "/challenge @mod")
        await chat.ok("mod", "/accept")
        await chat.ok(HOSTILE, "/report win @mod major")
        page, form = await _page(client)
        assert '<select name="margin"' in page and 'name="score"' not in page
        for bad in ({"margin": "huge"}, {"margin": "minor 2-1"}, {"score": "two"}):
            assert (await client.post("/ladders/1/manage",
                                      data={**form, "result": "1", **bad})).status == 400
        assert (await _match(chat)).result.margin is Margin.MAJOR
        unsaid = await client.post("/ladders/1/manage", data={**form, "result": "1"})
        assert unsaid.status == 200  # (no margin said: the one reported, as in chat)
        match = await _match(chat)
        assert match.result.sides[0] == (1,) and match.result.margin is Margin.MAJOR
        said = await client.post("/ladders/1/manage",
                                 data={**form, "result": "1", "margin": "minor"})
        assert said.status == 200, await said.text()
        match = await _match(chat)
        assert match.result.margin is Margin.MINOR
        assert match.result.sides[0] == (1,)  # (mod, player 1, won)


async def test_a_best_of_ladders_result_is_set_with_its_score(tmp_path: Path) -> None:
    async with moderating(tmp_path, "duel", "bestof=3") as (client, chat):
        await chat.ok(HOSTILE, "/report win @mod 2-1")
        page, form = await _page(client)
        assert 'name="score"' in page and '<select name="margin"' not in page
        said = await client.post("/ladders/1/manage",
                                 data={**form, "result": "1", "score": "1-2"})
        assert said.status == 200, await said.text()
        match = await _match(chat)
        assert match.result.sides[0] == (1,) and match.result.score == (2, 1)
        wrong = await client.post("/ladders/1/manage",
                                  data={**form, "result": "1", "score": "3-0"})
        assert wrong.status == 400  # (best of 3: the chat's refusal)
        assert (await _match(chat)).result.score == (2, 1)
