"""The command registry (core/service/registry.py) is the one table of commands: every command
value has exactly one handler and permission, and what the parser, /help, Telegram's menu
and Discord's command tree offer is what the registry lists."""

from __future__ import annotations

import typing

from core.commands.values import Command, Help
from core.domain.records import UserRef
from core.service.reading import parse
from core.service.registry import ACTIONS, SPECS, USAGE, WORDS

ME = UserRef("console:alice", "alice")


def test_every_command_value_has_one_action_with_a_handler() -> None:
    kinds = set(typing.get_args(Command))
    listed = [action.kind for spec in SPECS for action in spec.actions]
    assert set(listed) == kinds
    for kind in kinds - {Help}:  # (help reads nothing stored: the service answers it)
        action = ACTIONS[kind]
        assert (action.run is None) != (action.chat is None), kind
    # One command value made by two words (/available, /unavailable) runs one way.
    twice = {k for k in listed if listed.count(k) > 1}
    for kind in twice:
        runs = {a.run for spec in SPECS for a in spec.actions if a.kind is kind}
        assert len(runs) == 1, kind


def test_every_word_parses_and_a_bare_word_makes_its_command() -> None:
    for word, spec in WORDS.items():
        assert spec.word in USAGE
        if spec.bare is not None:
            parsed = parse(f"/{word}", ME, lambda name: None)
            assert parsed is not None and parsed.command == spec.bare


def test_moderators_commands_are_exactly_the_mod_word_and_the_ladder_admin() -> None:
    moderated = {a.kind.__name__ for a in ACTIONS.values() if a.moderator}
    assert moderated == {
        "CreateLadder", "ChangeSettings", "MakeDefault", "RenameLadder", "DeleteLadder",
        "VoidMatch", "SetResult", "AdjustRating", "RemovePlayer", "AddPlayer", "BanPlayer",
        "UnbanPlayer", "CloseSeason", "CancelChallenge", "PinStandings", "UnpinStandings",
        "ShareLadder", "JoinShare", "Unshare"}


def test_discords_tree_registers_every_word_of_the_registry() -> None:
    from bot.config import Config
    from bot.discord import DiscordPlatform

    platform = DiscordPlatform(Config(), None)
    names = {c.name for c in platform.tree.get_commands()}
    assert {spec.word for spec in SPECS} <= names
    # What Discord offers beyond the registry's words is a form of one of them.
    assert {n.split("-")[0] for n in names} <= {spec.word for spec in SPECS}
