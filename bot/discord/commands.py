"""Discord's slash commands, every one derived from core's forms (core.commands.forms):
its options' kinds, ranges, lengths, choices, descriptions in three languages and
autocomplete. Nothing is restated here: a form's values make its command (or the chat
line the text parser reads) in the core, which checks it as it checks a typed line.
"""

from __future__ import annotations

import inspect
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.discord.keys import user_ref
from bot.discord.words import said
from bot.gateway import own_words
from core.commands.forms import FORMS
from core.commands.params import Form, Kind, Param
from core.commands.registry import USAGE, WORDS
from core.domain.errors import LadderError

if TYPE_CHECKING:
    from bot.discord.platform import DiscordPlatform

HELP_TOPICS = [*USAGE, "settings", "presets"]  # offered as typed: more than 25 choices


def register(p: DiscordPlatform) -> None:
    """Every form as a slash command, a group's (`/ladder create`) in its group."""
    top: dict[str, app_commands.Command[Any, ..., None] | app_commands.Group] = {}
    for form in FORMS:
        command = _command(p, form)
        if len(form.path) == 1:
            top[form.path[0]] = command
            continue
        group = top.get(form.path[0])
        if not isinstance(group, app_commands.Group):
            group = app_commands.Group(name=form.path[0], guild_only=True,
                                       description=said(WORDS[form.path[0]].menu))
            top[form.path[0]] = group
        group.add_command(command)
    for item in top.values():
        p.tree.add_command(item)


def _command(p: DiscordPlatform, form: Form) -> app_commands.Command[Any, ..., None]:
    """One form's slash command: a callback whose signature is the form's options."""
    async def callback(interaction: discord.Interaction[Any], **values: Any) -> None:
        await _answer(p, form, interaction, values)

    options = form.options
    callback.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        [inspect.Parameter("interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD,
                           annotation=discord.Interaction)]
        + [inspect.Parameter(o.name, inspect.Parameter.KEYWORD_ONLY, annotation=_kind(o),
                             default=inspect.Parameter.empty if o.required else o.default)
           for o in options])
    described = {o.name: said(code) for o in options if (code := form.described(o))}
    app_commands.describe(**described)(callback)
    choices = {o.name: [app_commands.Choice(name=said(label) if label else value, value=value)
                        for value, label in o.choices] for o in options if o.choices}
    if choices:
        app_commands.choices(**choices)(callback)
    if form.guild_only and len(form.path) == 1:
        app_commands.guild_only()(callback)
    command: app_commands.Command[Any, ..., None] = app_commands.Command(
        name=form.path[-1], description=said(form.menu), callback=callback)
    for option in options:
        if option.complete == "matches":
            command.autocomplete(option.name)(p.match_choices)
        elif option.complete == "topics":
            command.autocomplete(option.name)(_help_topics)
    return command


def _kind(option: Param) -> Any:
    """The annotation Discord reads an option's type, range and length from."""
    kind: Any
    if option.kind is Kind.USER:
        kind = discord.User
    elif option.kind is Kind.BOOL:
        kind = bool
    elif option.kind is Kind.FILE:
        kind = discord.Attachment
    elif option.kind is Kind.INT:
        kind = app_commands.Range[int, option.low, option.high]
    else:
        kind = app_commands.Range[str, option.low, option.high]
    return kind if option.required or option.default is not None else kind | None


async def _answer(p: DiscordPlatform, form: Form, interaction: discord.Interaction[Any],
                  values: dict[str, Any]) -> None:
    """Make the form's command from its values, and run it (a refusal: to the asker)."""
    ladder = values.pop("ladder", None)
    files = [values.pop(o.name) for o in form.options if o.kind is Kind.FILE]
    typed = {name: user_ref(value) if isinstance(value, discord.User | discord.Member)
             else value for name, value in values.items()}
    try:
        made = form.build(typed, user_ref(interaction.user))
    except LadderError as error:
        await p.respond(interaction, own_words(error.reason, interaction.locale.value,
                                               p.config.policy))
        return
    sent = next((f for f in files if isinstance(f, discord.Attachment)), None)
    if isinstance(made, str):
        await p.answer(interaction, None, ladder, made, sent)
    else:
        await p.answer(interaction, made, ladder, file=sent)


async def _help_topics(interaction: discord.Interaction[Any],
                       current: str) -> list[app_commands.Choice[str]]:
    """/help's topics that fit what is typed (Discord takes at most 25 choices)."""
    wanted = current.strip().lstrip("/").lower()
    return [app_commands.Choice(name=w, value=w) for w in HELP_TOPICS if wanted in w][:25]
