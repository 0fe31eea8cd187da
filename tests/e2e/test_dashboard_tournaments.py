"""The moderator page's tournaments (issue 55): created, started and cancelled by forms
that stand for the chat's `/tournament` lines, refused in the chat's words; a name or
option no page makes is refused and changes nothing."""

from __future__ import annotations

import html
from pathlib import Path

from tests.e2e.test_dashboard_results import moderating
from tests.support.dashboard import HOSTILE, csrf_of


async def test_a_tournament_is_created_started_and_cancelled_from_the_page(
        tmp_path: Path) -> None:
    async with moderating(tmp_path, "duel") as (client, chat):
        await chat.join("alice", "bo")
        csrf = csrf_of(await (await client.get("/ladders/1/manage")).text())
        new = {"csrf": csrf, "action": "tournament_create", "name": "Cup",
               "format": "swiss", "rounds": "3", "bestof": "", "round_hours": "48",
               "rated": "false", "reset": "true"}
        rounds = await chat.refused("mod", "/tournament create Cup format=single rounds=3")
        said = await client.post("/ladders/1/manage", data={**new, "format": "single"})
        assert said.status == 400
        assert html.escape(rounds, quote=False) in await said.text()
        for bad in ({"name": "a b"}, {"name": "x=y"}, {"format": "nope"},
                    {"rounds": "three"}, {"rated": "maybe"}, {"name": ""}):
            assert (await client.post("/ladders/1/manage", data={**new, **bad})).status \
                == 400, bad
        assert (await chat.export())["tournaments"] == []
        made = await client.post("/ladders/1/manage", data=new)
        assert made.status == 200, await made.text()
        for name in ("mod", HOSTILE, "alice", "bo"):
            await chat.ok(name, "/tournament join Cup")
        page = await (await client.get("/ladders/1/manage")).text()
        shown = page[page.index('id="tournaments"'):]
        assert "Cup" in shown and "&lt;script&gt;" in shown and HOSTILE not in page
        assert 'value="tournament_start"' in shown
        start = {"csrf": csrf, "action": "tournament_start", "name": "Cup"}
        assert (await client.post("/ladders/1/manage", data=start)).status == 200
        (cup,) = await chat.store.run(lambda repo: repo.tournaments(1), commit=False)
        assert (cup.format.value, cup.status.value, cup.rounds) == ("swiss", "running", 3)
        assert (cup.rated, cup.round_hours, cup.bestof, cup.round) == (False, 48, None, 1)
        cancel = {"csrf": csrf, "action": "tournament_cancel", "name": "Cup",
                  "text": ""}
        assert (await client.post("/ladders/1/manage", data=cancel)).status == 400
        cancelled = await client.post("/ladders/1/manage",
                                      data={**cancel, "text": "the hall is closed"})
        assert cancelled.status == 200, await cancelled.text()
        assert (await chat.export())["tournaments"][0]["status"] == "cancelled"
        page = await (await client.get("/ladders/1/manage")).text()
        assert 'value="tournament_cancel"' not in page
