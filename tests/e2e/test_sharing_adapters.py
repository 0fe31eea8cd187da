"""Issue 29's reply paths through both strict stand-ins, with hostile names: the codes,
the shared ladder's news posted from the outbox on the other platform (a pending report
with its buttons), and nothing a player typed becoming a ping, a link or formatting."""

from __future__ import annotations

import re
from pathlib import Path

from storage.sql.repo import SqlRepo
from tests.support.adapters import (
    T0,
    DiscordHarness,
    TelegramHarness,
    discord_harness,
    telegram_harness,
)
from tests.support.discord_payloads import CHANNEL, MANAGE_GUILD, command, member, option
from tests.support.discord_payloads import person as discord_person
from tests.support.telegram_fake import GROUP
from tests.support.telegram_fake import person as telegram_person

CODE = re.compile(r"\b([A-Z2-9]{4}-[A-Z2-9]{4})\b")
MOD = member(discord_person(1300000000000000201, "mod"), permissions=MANAGE_GUILD)
EVIL = member(discord_person(1300000000000000202, "@everyone [x](https://y) **b**"))
TMOD = telegram_person(301, "Tess", "tmod")
TRICK = telegram_person(302, "<@123> https://e.vil/login ||sp||")  # no username: named so


async def posted(dc: DiscordHarness, tg: TelegramHarness) -> list[str]:
    """Post what waits in the outbox, each on its own platform (as the runtime does)."""
    due = await dc.store.run(lambda repo: repo.outbox_due(2**40))
    for item, _, announcement in due:
        platform = dc.platform if announcement.chat.startswith("discord:") else tg.platform
        await platform.post(announcement)
        def done(repo: SqlRepo, posted: int = item) -> None:
            repo.outbox_done(posted)

        await dc.store.run(done)
    return [a.text for _, _, a in due]


async def test_sharing_and_reports_across_the_stand_ins_with_hostile_names(
        tmp_path: Path) -> None:
    db = tmp_path / "shared.db"
    async with discord_harness(db) as dc, telegram_harness(db, [TMOD]) as tg:
        dc.clock.now = T0 + 10_000  # the one clock of both (the Telegram harness's)
        await dc.send(command("create", option("name", "main"), option("preset", "duel"),
                              by=MOD, group="ladder"))
        answer = await dc.send(command("share", by=MOD, group="ladder"))
        assert answer.get("flags", 0) & 64  # ephemeral
        code = CODE.search(answer["content"])
        assert code is not None
        [joined] = await tg.say(TMOD, f"/ladder join-share {code.group(1)} cup")
        assert "now plays cup" in joined
        await dc.send(command("join", by=EVIL))
        await tg.say(TRICK, "/join")
        news = await posted(dc, tg)
        assert any("called cup" in text for text in news)
        name = TRICK["first_name"]
        answer = await dc.send(command("report", option("result", "win"),
                                       option("opponent_name", name), by=EVIL))
        assert "reported" in answer["content"]
        await posted(dc, tg)
        pending = tg.api.sent(GROUP["id"])[-1]
        assert "Match #1 reported" in pending["text"] and "reply_markup" in pending
        data = pending["reply_markup"]["inline_keyboard"][0][0]["callback_data"]
        assert data == "confirm:cup:1"  # that chat's name for the ladder
        confirmed = await tg.press(TRICK, data)
        assert any("1016 (+16)" in text for text in confirmed)
        await posted(dc, tg)
        assert any("1016 (+16)" in p for p in dc.fake.channel_posts(CHANNEL))
        # a code, asked for in a group, is refused there (the group would read it)
        [refusal] = await tg.say(TRICK, "/link")
        assert "private chat" in refusal
    # (each harness checks on leaving that nothing was refused and nothing became a link)
