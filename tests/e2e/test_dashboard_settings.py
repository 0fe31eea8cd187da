"""The moderator page's settings form (issue 55): every key this ladder takes, with its
meaning and range in the ladder's language; what the form changed goes through
`/ladder set`'s own command, refused in the chat's words; a forged or smuggled field is
refused and changes nothing."""

from __future__ import annotations

import html
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient

from core.domain.records import LadderInfo, UserRef
from core.domain.setting_keys import SETTING_SPECS
from core.domain.settings import Settings
from core.i18n import render, t
from core.service.queries.views import ladder_by_id
from storage.sqlite.store import SqliteStore
from tests.support.chat import Chat
from tests.support.dashboard import GROUP, HOSTILE, csrf_of, dashboard, login, moderated_by


@pytest.fixture
async def moderated(tmp_path: Path) -> AsyncIterator[tuple[TestClient[Any, Any], Chat, str]]:
    """A duel ladder on Telegram whose moderator (Telegram 1) is logged in on the
    dashboard; the client, the chat, and the page's CSRF token."""
    async with SqliteStore(tmp_path / "l.db") as store:
        chat = Chat(store, chat=GROUP)
        chat.resolve = lambda name: UserRef(  # type: ignore[method-assign]
            "telegram:1" if name == "mod" else f"telegram:{len(name) + 10}", name)
        await chat.ladder("duel")
        await chat.join("mod", HOSTILE)
        async with dashboard(chat, moderated_by("telegram:1")) as (client, _):
            await login(client, chat.at, uid="1", name="mod")
            yield client, chat, csrf_of(await (await client.get("/ladders/1/manage")).text())


def _form(page: str) -> dict[str, str]:
    """The settings form's fields as the page fills them (a select's chosen option)."""
    form = page[page.index('id="settings-form"'):]
    form = form[:form.index("</form>")]
    fields = dict(re.findall(r'<input id="set-[^"]+" name="(set\.[^"]+)" value="([^"]*)"',
                             form))
    for name, options in re.findall(r'<select id="set-[^"]+" name="(set\.[^"]+)">(.*?)</select>',
                                    form, re.S):
        chosen = re.search(r'<option value="([^"]+)" selected>', options)
        assert chosen is not None, name
        fields[name] = chosen.group(1)
    return {k: html.unescape(v) for k, v in fields.items()}


async def _settings(chat: Chat) -> Settings:
    ladder: LadderInfo | None = await chat.store.run(lambda repo: ladder_by_id(repo, 1),
                                                     commit=False)
    assert ladder is not None
    return ladder.settings


async def test_the_form_shows_this_ladders_keys_in_its_language(moderated: Any) -> None:
    client, chat, _ = moderated
    await chat.ok("mod", "/ladder set language=ru")
    page = await (await client.get("/ladders/1/manage")).text()
    fields = _form(page)
    assert fields["set.k"] == "32" and fields["set.confirm"] == "true"
    assert fields["set.max_gap"] == "none" and fields["set.public"] == "false"
    assert "set.rd" not in fields and "set.mu" not in fields  # (other rulebooks' keys)
    assert "set.channel" not in fields  # (a Discord channel, on a Telegram ladder)
    k = SETTING_SPECS["k"]
    assert k.range is not None
    for words in (render(k.help, "ru"), render(k.range.text(), "ru"),
                  render(t("group.elo"), "ru")):
        assert html.escape(words, quote=False) in page


async def test_what_the_form_changed_is_set_as_the_chat_would(moderated: Any) -> None:
    client, chat, csrf = moderated
    page = await (await client.get("/ladders/1/manage")).text()
    form = {**_form(page), "csrf": csrf, "action": "form"}
    same = await client.post("/ladders/1/manage", data=form)
    assert same.status == 200
    assert html.escape(await chat.ok("mod", "/ladder set k=32"), quote=False) \
        in await same.text()  # (nothing changed: the chat's words for it)
    changed = await client.post("/ladders/1/manage", data={
        **form, "set.k": " 24 ", "set.confirm": "false", "set.max_gap": "400"})
    assert changed.status == 200, await changed.text()
    settings = await _settings(chat)
    assert (settings.k, settings.confirm, settings.max_gap) == (24, False, 400)
    emptied = await client.post("/ladders/1/manage", data={**form, "set.k": "24",
                                                           "set.confirm": "false",
                                                           "set.max_gap": ""})
    assert emptied.status == 200 and (await _settings(chat)).max_gap is None
    page = await (await client.get("/ladders/1/manage")).text()
    assert "mod (web)" in page[page.index('id="audit"'):]


async def test_the_form_is_refused_in_the_chats_words(moderated: Any) -> None:
    client, chat, csrf = moderated
    page = await (await client.get("/ladders/1/manage")).text()
    form = {**_form(page), "csrf": csrf, "action": "form"}
    refusal = await chat.refused("mod", "/ladder set k=0")
    said = await client.post("/ladders/1/manage", data={**form, "set.k": "0"})
    assert said.status == 400
    assert html.escape(refusal, quote=False) in await said.text()
    # One field cannot carry another key, nor another ladder.
    smuggled = await client.post("/ladders/1/manage",
                                 data={**form, "set.k": "24 language=ru ladder=x"})
    assert smuggled.status == 400
    for forged in ({"set.rd": "100"}, {"set.ladder": "x"}, {"set.channel": "1"}):
        assert (await client.post("/ladders/1/manage",
                                  data={**form, **forged})).status == 400
    settings = await _settings(chat)
    assert (settings.k, settings.language) == (32, "en")
