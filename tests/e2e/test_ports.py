"""The adapters' port (issue 30): the scheduler and the gateway type against
`core.ports.repository.PlatformStore`, and run alike on SQLite, PostgreSQL and the in-memory twin
(the twin had no outbox, handles or job lead before)."""

from __future__ import annotations

from typing import Any

from bot.gateway import Asker, Gateway, Said
from bot.limits import Limiter
from bot.scheduler import Scheduler
from core.domain.records import Announcement, UserRef
from tests.support.chat import T0, Chat

DAY = 86400


async def test_the_scheduler_posts_a_season_close_on_every_store(store: Any) -> None:
    chat = Chat(store, chat="telegram:1")
    await chat.ok("mod", "/ladder create main preset=duel calibration=0 season_min_games=1 "
                         "confirm=false")
    for name in ("alice", "bob"):
        await chat.ok(name, "/join")
    await chat.ok("alice", "/report win @bob")
    posted: list[Announcement] = []

    async def post(announcement: Announcement) -> None:
        posted.append(announcement)

    await Scheduler(store, post, lambda: float(T0 + 30 * DAY)).tick()
    assert [a.chat for a in posted] == ["telegram:1"]
    assert "alice" in posted[0].text  # January's winner, in the Hall of Fame


async def test_the_gateway_resolves_a_learned_handle_on_every_store(store: Any) -> None:
    from core.domain.settings import Policy

    gateway = Gateway(store, Policy(), lambda: float(T0), Limiter())
    mod = Asker("telegram:1", UserRef("telegram:1", "mod"), moderator=True)
    await gateway.run(mod, Said("/ladder create main preset=duel confirm=false"))
    bob = UserRef("telegram:3", "Bob B")
    await store.run(lambda repo: repo.learn_handle("telegram", "bobby", bob, T0))
    for who in (UserRef("telegram:2", "alice"), bob):
        await gateway.run(Asker("telegram:1", who), Said("/join"))
    reply = await gateway.run(Asker("telegram:1", UserRef("telegram:2", "alice")),
                              Said("/report win @bobby", handles="telegram"))
    assert reply is not None and not reply.error, reply
    assert "alice beat Bob B" in str(reply.text)
