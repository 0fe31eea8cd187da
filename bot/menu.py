"""The command menu's words, for every platform: what each command does, one line a
command, as Telegram's menu lists it and Discord's describes it (catalog codes)."""

from __future__ import annotations

from core.i18n import N_

# In the order the menus list them (the order of `/help`).
MENU = {"ladder": N_("menu.ladder"), "join": N_("menu.join"), "leave": N_("menu.leave"),
        "challenge": N_("menu.challenge"), "accept": N_("menu.accept"),
        "decline": N_("menu.decline"), "available": N_("menu.available"),
        "unavailable": N_("menu.unavailable"), "report": N_("menu.report"),
        "confirm": N_("menu.confirm"), "dispute": N_("menu.dispute"),
        "withdraw": N_("menu.withdraw"), "standings": N_("menu.standings"),
        "profile": N_("menu.profile"), "history": N_("menu.history"),
        "players": N_("menu.players"), "halloffame": N_("menu.halloffame"),
        "mod": N_("menu.mod"), "help": N_("menu.help")}
