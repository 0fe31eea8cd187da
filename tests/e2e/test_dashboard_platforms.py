"""Who moderates, as the dashboard asks each platform (issue 55), through the stand-ins:
on Discord, the server's owner, Manage Server (or Administrator) by a member's roles, or
the configured moderators' role, and their roles for a ladder's own; on Telegram, the group's
administrators. Someone the platform does not know there moderates nothing."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from bot.discord.roles import ADMINISTRATOR, MANAGE_GUILD
from tests.support.adapters import discord_harness, telegram_harness
from tests.support.discord_payloads import GUILD
from tests.support.telegram_fake import GROUP
from tests.support.telegram_fake import person as tg_person

SERVER = f"discord:{GUILD}"


async def test_discord_says_who_moderates_a_server(tmp_path: Path) -> None:
    async with discord_harness(tmp_path / "d.db") as dc:
        g = dc.fake.guild
        managers = g.add_role("Managers", 0, permissions=MANAGE_GUILD)["id"]
        admins = g.add_role("Admins", 0, permissions=ADMINISTRATOR)["id"]
        helpers = g.add_role("Helpers", 0)["id"]
        g.members.update({"11": {managers}, "12": {admins}, "13": {helpers}, "14": set()})
        g.left.add("15")
        ask = dc.platform.web_access
        assert await ask(SERVER, "discord:11") == (True, frozenset({managers}))
        assert (await ask(SERVER, "discord:12") or (False,))[0]
        assert await ask(SERVER, "discord:13") == (False, frozenset({helpers}))
        assert await ask(SERVER, "discord:14") == (False, frozenset())
        g.owner = "14"  # (the owner moderates, whatever their roles)
        assert await ask(SERVER, "discord:14") == (True, frozenset())
        g.owner = "1"
        assert await ask(SERVER, "discord:15") is None  # (not in the server)
        assert await ask(SERVER, "telegram:11") is None  # (another platform's account)
        # The configured moderators' role makes its holders moderators of every ladder.
        dc.platform.config = dataclasses.replace(dc.platform.config, discord=dataclasses.replace(
            dc.platform.config.discord, moderator_role=helpers))
        assert (await ask(SERVER, "discord:13") or (False,))[0]


async def test_telegram_says_who_administers_a_group(tmp_path: Path) -> None:
    mod = tg_person(101, "mod", "mod")
    async with telegram_harness(tmp_path / "t.db", [mod]) as tg:
        group = f"telegram:{GROUP['id']}"
        assert await tg.platform.web_access(group, "telegram:101") == (True, frozenset())
        assert await tg.platform.web_access(group, "telegram:102") == (False, frozenset())
        assert await tg.platform.web_access(group, "discord:101") is None
        assert await tg.platform.web_access("discord:1", "telegram:101") is None


async def test_a_chat_notes_its_moderators_for_the_dashboard(tmp_path: Path) -> None:
    """A command of a group's administrator notes the group as one they moderate (the
    dashboard lists its ladders to them); a player's, or one in a private chat, does not."""
    mod, player = tg_person(101, "mod", "mod"), tg_person(102, "pat", "pat")
    async with telegram_harness(tmp_path / "t.db", [mod]) as tg:
        await tg.say(mod, "/ladder create main preset=duel")
        await tg.say(player, "/join")
        await tg.say(mod, "/join")  # (noted once a process: no second write)
        await tg.say(mod, "/help", chat={"id": 101, "type": "private", "first_name": "mod"})
        group = f"telegram:{GROUP['id']}"
        seen = await tg.store.run(lambda repo: [repo.moderated_chats(f"telegram:{who}")
                                                for who in (101, 102)], commit=False)
        assert seen == [[group], []]  # (not the private chat, where the mod is alone)
