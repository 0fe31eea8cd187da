"""`/help`: the command list, one command (its help and usage line, from the words'
registry), the settings and the presets."""

from __future__ import annotations

from core.commands.help import Help
from core.commands.registry import USAGE, WORDS, usage
from core.domain.rulebooks import rulebook_summary
from core.domain.setting_keys import PROPERTIES, SETTING_GROUPS, SETTING_SPECS
from core.domain.settings import Policy
from core.i18n import N_, Message, joined, t
from core.service.handlers.roles import ROLE_KEYS


def answer(cmd: Help, policy: Policy) -> Message:
    """/help, or /help TOPIC."""
    return help_text(cmd.topic, policy)


def help_text(topic: str | None, policy: Policy | None = None) -> Message:
    """The command list, or one topic."""
    if topic is None:
        return joined(t("help.commands"), *USAGE.values(), t("help.more"), sep="\n")
    if topic == "settings":
        return _settings()
    if topic in ("presets", "preset", "rulebooks"):
        return _presets(policy or Policy())
    word = "halloffame" if topic in ("hall", "hof") else topic
    if word in USAGE:
        return joined(t(WORDS[word].help), usage(word), sep="\n")
    return t("help.unknown", topic=topic[:40])


def _settings() -> Message:
    """Every key by what it configures, with its meaning and range."""
    lines: list[Message] = [t("help.settings_head")]
    for _, title, keys in SETTING_GROUPS:
        lines.append(t("help.group", title=t(title)))
        lines += [joined("  ", SETTING_SPECS[key].describe(), sep="") for key in keys]
    lines.append(t("help.group", title=t("help.properties")))
    lines += [joined("  ", t("help.key", key=key, help=t(code)), sep="")
              for key, code in (PROPERTIES | ROLE_KEYS).items()]
    return joined(*lines, sep="\n")


def _presets(policy: Policy) -> Message:
    """Every rulebook this bot offers, described."""
    custom = {name for name, _ in policy.presets}
    lines: list[Message] = [t("help.presets")]
    for name in policy.preset_names:
        settings = policy.settings_for(name)
        code = N_("help.preset_custom") if name in custom else N_("help.preset")
        lines.append(t(code, name=name, base=settings.preset, summary=rulebook_summary(settings)))
    return joined(*lines, sep="\n")
