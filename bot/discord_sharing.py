"""Discord's commands for one ladder across platforms: /link and /unlink, and /ladder
share, join-share and unshare (their answers are ephemeral: a code is seen by its asker
alone)."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.discord import DiscordPlatform
from bot.discord_words import options, said
from core.commands.values import LinkAccount, ShareLadder, UnlinkAccount, Unshare
from core.commands.words import LADDER_LENGTH
from core.domain.records import UserRef
from core.i18n import N_
from core.service.handlers.sharing import CODE_LENGTH
from core.service.session import NAMED

# A code as typed: its letters, perhaps a dash and spaces.
CODE = app_commands.Range[str, 1, CODE_LENGTH + 4]
NAME = app_commands.Range[str, 1, LADDER_LENGTH]  # a ladder name (core/commands/words.py)
LADDER = NAME


def named(name: str) -> UserRef:
    """A player named by their ladder name (one on Telegram only: no user option finds
    them)."""
    return UserRef(f"{NAMED}{name.strip().lstrip('@')}", name.strip().lstrip("@"))


def register_sharing(p: DiscordPlatform, ladder_group: app_commands.Group) -> None:
    """The commands of issue 29 on the tree and in the /ladder group."""
    tree = p.tree

    @ladder_group.command(name="share", description=said("menu.ladder_share"))
    @options()
    async def ladder_share(i: discord.Interaction[Any], ladder: LADDER | None = None) -> None:
        await p.answer(i, ShareLadder(), ladder)

    @ladder_group.command(name="join-share", description=said("menu.ladder_join_share"))
    @options(code=N_("menu.opt_share_code"), name=N_("menu.opt_share_name"))
    async def ladder_join_share(i: discord.Interaction[Any], code: CODE, name: NAME) -> None:
        await p.answer(i, None, None, f"/ladder join-share {code.strip()} {name.strip()}")

    @ladder_group.command(name="unshare", description=said("menu.ladder_unshare"))
    @options()
    async def ladder_unshare(i: discord.Interaction[Any], ladder: LADDER | None = None) -> None:
        await p.answer(i, Unshare(), ladder)

    @tree.command(name="link", description=said("menu.link"))
    @app_commands.guild_only()
    @options(code=N_("menu.opt_link_code"))
    async def link(i: discord.Interaction[Any], code: CODE | None = None) -> None:
        await p.answer(i, LinkAccount(code.strip() if code else None))

    @tree.command(name="unlink", description=said("menu.unlink"))
    @app_commands.guild_only()
    async def unlink(i: discord.Interaction[Any]) -> None:
        await p.answer(i, UnlinkAccount())
