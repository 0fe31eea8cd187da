"""Discord's buttons: Confirm, Dispute, Withdraw and Ready under a report or a ready
check, one a ladder under a "which ladder?" question, Previous and Next under a page.
Their custom ids carry what they answer, so they keep working after a restart; a press
goes to the platform that made them."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord

from bot.gateway import (
    PAGE_DATA,
    PRESSABLE,
    button_label,
)
from core.commands.words import LADDER_CHARS

if TYPE_CHECKING:
    from bot.discord.platform import DiscordPlatform


class ReportButton(discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
                   template=rf"lb:(?P<action>{'|'.join(PRESSABLE)}):"
                            r"(?P<match>\d+):"
                            rf"(?P<ladder>{LADDER_CHARS})"):
    """Confirm / Dispute (for the opponent) and Withdraw (for the reporter's side) under a
    pending report, Ready under a queue match's ready check; the custom id carries what
    it answers, so the buttons keep working after a restart."""

    def __init__(self, action: str, ladder: str, match: int, language: str = "en",
                 label: str = "") -> None:
        style = {"confirm": discord.ButtonStyle.success, "ready": discord.ButtonStyle.success,
                 "dispute": discord.ButtonStyle.danger}.get(action, discord.ButtonStyle.secondary)
        # (Rebuilt from a press, the label is not sent again: the message keeps its own.)
        super().__init__(discord.ui.Button(label=label or button_label(action, language),
                                           style=style,
                                           custom_id=f"lb:{action}:{match}:{ladder}"))
        self.action, self.ladder, self.match = action, ladder, match

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any],
                             match: re.Match[str]) -> ReportButton:
        return cls(match["action"], match["ladder"], int(match["match"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        platform: DiscordPlatform = interaction.client.ladderbot
        try:
            await platform.press(interaction, self.action, self.ladder, self.match)
        except Exception as error:  # buttons are not the command tree's: apologize here
            await platform.on_error(interaction, error)


class PageButton(discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
                 template=PAGE_DATA.pattern):
    """Previous or Next under a page of standings, players or history: the page it names,
    shown to the presser alone (a page for each press would crowd the channel)."""

    def __init__(self, data: str, label: str = "") -> None:
        super().__init__(discord.ui.Button(label=label or "…", custom_id=data,
                                           style=discord.ButtonStyle.secondary))
        self.data = data

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any],
                             match: re.Match[str]) -> PageButton:
        return cls(match.string)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        platform: DiscordPlatform = interaction.client.ladderbot
        try:
            await platform.turn_page(interaction, self.data)
        except Exception as error:  # buttons are not the command tree's: apologize here
            await platform.on_error(interaction, error)


def page_view(turns: tuple[tuple[str, str], ...]) -> discord.ui.View:
    """A page's Previous and Next buttons."""
    view = discord.ui.View(timeout=None)
    for label, data in turns:
        view.add_item(PageButton(data, label))
    return view


def choice_view(choices: tuple[tuple[str, str, str], ...]) -> discord.ui.View:
    """A "which ladder?" question's buttons: the command again, on one ladder each (match
    0: the one waiting there)."""
    view = discord.ui.View(timeout=None)
    for row, (label, action, ladder) in enumerate(choices):
        button = ReportButton(action, ladder, 0, label=label)
        button.item.row = row
        view.add_item(button)
    return view


def report_view(actions: tuple[str, ...], ladder: str, match: int,
                language: str) -> discord.ui.View:
    """The buttons of a pending report (or a ready check), labelled in `language`."""
    view = discord.ui.View(timeout=None)
    for action in actions:
        view.add_item(ReportButton(action, ladder, match, language))
    return view
