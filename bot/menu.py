"""The command menu's words, for every platform: what each command does, one line a
command, as Telegram's menu lists it and Discord's describes it (catalog codes)."""

from __future__ import annotations

from core.commands.registry import SPECS

# In the order the menus list them (the order of `/help`), from the registry.
MENU = {spec.word: spec.menu for spec in SPECS}
