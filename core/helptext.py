"""What each command word takes (its usage line) and does (its help)."""

from __future__ import annotations

from core.i18n import N_, Message, Text, joined, t
from core.rulebooks import rulebook_summary
from core.setting_keys import PROPERTIES, SETTING_GROUPS, SETTING_SPECS
from core.settings import Policy

USAGE: dict[str, str] = {
    "ladder": "/ladder create NAME preset=PRESET [key=value ...] | /ladder set key=value ... | "
              "/ladder info | /ladder list | /ladder default NAME | /ladder rename NEW | "
              "/ladder delete NAME",
    "join": "/join",
    "leave": "/leave",
    "challenge": "/challenge @user | /challenge cancel [@user]",
    "accept": "/accept [@user]",
    "decline": "/decline [reason]",
    "available": "/available",
    "unavailable": "/unavailable",
    "report": "/report win|loss|draw @user [minor|major|overwhelming] [moves=N] [unrated] "
              "[again] | "
              "/report ffa @first @second ... | /report teams @a @b vs @c @d [draw]",
    "confirm": "/confirm [MATCH_ID]",
    "dispute": "/dispute [MATCH_ID] [reason]",
    "withdraw": "/withdraw [MATCH_ID]",
    "standings": "/standings [season|week|ladder|rating] [page=N]",
    "profile": "/profile [@user]",
    "history": "/history [@user] [page=N]",
    "players": "/players [page=N]",
    "halloffame": "/halloffame",
    "mod": "/mod void MATCH_ID reason... | /mod set MATCH_ID RESULT reason... | "
           "/mod adjust @user +N|-N reason... | /mod remove @user reason... | "
           "/mod cancel CHALLENGE_ID reason... | /mod add @user | /mod ban @user reason... | "
           "/mod unban @user reason... | /mod season close [reason]",
    "help": "/help [command]",
}

# What each command does: the message `help.<word>`.
HELP: dict[str, str] = {
    "ladder": N_("help.ladder"),
    "join": N_("help.join"),
    "leave": N_("help.leave"),
    "challenge": N_("help.challenge"),
    "accept": N_("help.accept"),
    "decline": N_("help.decline"),
    "available": N_("help.available"),
    "unavailable": N_("help.unavailable"),
    "report": N_("help.report"),
    "confirm": N_("help.confirm"),
    "dispute": N_("help.dispute"),
    "withdraw": N_("help.withdraw"),
    "standings": N_("help.standings"),
    "profile": N_("help.profile"),
    "history": N_("help.history"),
    "players": N_("help.players"),
    "halloffame": N_("help.halloffame"),
    "mod": N_("help.mod"),
    "help": N_("help.help"),
}


def usage(word: str) -> Text:
    """The usage line of a command word (its words stay as they are in every language)."""
    return t("usage.line", line=USAGE.get(word, USAGE["help"]))


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
        return joined(t(HELP[word]), usage(word), sep="\n")
    return t("help.unknown", topic=topic[:40])


def _settings() -> Message:
    """Every key by what it configures, with its meaning and range."""
    lines: list[Message] = [t("help.settings_head")]
    for _, title, keys in SETTING_GROUPS:
        lines.append(t("help.group", title=t(title)))
        lines += [joined("  ", SETTING_SPECS[key].describe(), sep="") for key in keys]
    lines.append(t("help.group", title=t("help.properties")))
    lines += [joined("  ", t("help.key", key=key, help=t(code)), sep="")
              for key, code in PROPERTIES.items()]
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
