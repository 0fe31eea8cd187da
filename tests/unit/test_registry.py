"""The words' registry (core/commands/registry.py) is the one table of commands, and the
bus (core/service/bus.py) runs each: every command type has exactly one handler and
permission, and what the parser, /help, Telegram's menu and Discord's command tree offer
is what the registry lists."""

from __future__ import annotations

import sys

from core.commands.base import Command
from core.commands.reading import parse
from core.commands.registry import KINDS, SPECS, USAGE, WORDS
from core.domain.records import UserRef
from core.service.bus import HANDLERS

ME = UserRef("console:alice", "alice")


def test_every_command_type_has_one_handler() -> None:
    def below(kind: type[Command]) -> set[type[Command]]:
        # (a slotted dataclass is a new class: the one it replaced is a subclass too)
        return {k for sub in kind.__subclasses__() for k in (sub, *below(sub))
                if getattr(sys.modules[k.__module__], k.__name__) is k}

    kinds = below(Command)
    assert set(KINDS) == kinds == set(HANDLERS)
    for kind in kinds:
        handler = HANDLERS[kind]
        ways = [handler.run, handler.chat, handler.known]
        assert sum(way is not None for way in ways) == 1, kind
        # A command about the chat's ladders as a whole runs on the chat, the rest on a
        # ladder (or from nothing stored).
        assert (handler.chat is not None) == kind.chat_wide, kind


def test_every_word_parses_and_a_bare_word_makes_its_command() -> None:
    for word, spec in WORDS.items():
        assert spec.word in USAGE
        if spec.bare is not None:
            parsed = parse(f"/{word}", ME, lambda name: None)
            assert parsed is not None and parsed.command == spec.bare


def test_moderators_commands_are_exactly_the_mod_word_and_the_ladder_admin() -> None:
    moderated = {kind.__name__ for kind in KINDS if kind.moderator}
    assert moderated == {
        "CreateLadder", "ChangeSettings", "MakeDefault", "RenameLadder", "DeleteLadder",
        "VoidMatch", "SetResult", "AdjustRating", "RemovePlayer", "AddPlayer", "BanPlayer",
        "UnbanPlayer", "CloseSeason", "CancelChallenge", "PinStandings", "UnpinStandings",
        "ShareLadder", "JoinShare", "Unshare",
        "CreateTournament", "StartTournament", "CancelTournament",  # (a tournament's running)
        "ApproveClaim", "UndoImport", "WhatIf",  # (an import's; a replay's cost)
        "SwitchRulebook", "ImportFile"}  # (a history re-derived; a file taken in)


def test_discords_tree_registers_every_word_of_the_registry() -> None:
    from bot.config import Config
    from bot.discord.platform import DiscordPlatform

    platform = DiscordPlatform(Config(), None)
    names = {c.name for c in platform.tree.get_commands()}
    assert {spec.word for spec in SPECS} <= names
    # What Discord offers beyond the registry's words is a form of one of them.
    assert {n.split("-")[0] for n in names} <= {spec.word for spec in SPECS}
