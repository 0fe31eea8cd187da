"""What the real Discord and Telegram servers refuse, for the stand-ins to refuse alike.

Discord's limits are from discord-api-docs (the message resource, message components,
application commands and interactions); Telegram's from python-telegram-bot's
`telegram.constants`, which mirrors the Bot API. Each check returns the problems found,
in the words the server would use (an empty list: the server accepts it).
"""

from __future__ import annotations

import json
import re
from typing import Any

import discord
from telegram import constants as tg

# ---- Discord (discord-api-docs: resources/message, components, application-commands)
CONTENT = 2000
EMBEDS = 10
EMBED_TITLE, EMBED_DESCRIPTION, EMBED_FIELDS = 256, 4096, 25
FIELD_NAME, FIELD_VALUE, FOOTER, AUTHOR, EMBED_TOTAL = 256, 1024, 2048, 256, 6000
ACTION_ROWS, ROW_BUTTONS, CUSTOM_ID, LABEL = 5, 5, 100, 80
CHOICES, CHOICE_NAME = 25, 100
COMMAND_NAME = re.compile(r"^[-_\w]{1,32}$")
DESCRIPTION = 100
COMMAND_OPTIONS = 25


def _embed_problems(embed: dict[str, Any], n: int) -> tuple[list[str], int]:
    """Problems of one embed, and how many characters it counts toward the total."""
    problems = []
    sizes = {"title": (embed.get("title") or "", EMBED_TITLE),
             "description": (embed.get("description") or "", EMBED_DESCRIPTION),
             "footer.text": ((embed.get("footer") or {}).get("text") or "", FOOTER),
             "author.name": ((embed.get("author") or {}).get("name") or "", AUTHOR)}
    total = 0
    for key, (text, most) in sizes.items():
        total += len(text)
        if len(text) > most:
            problems.append(f"embeds.{n}.{key}: Must be {most} or fewer in length.")
    fields = embed.get("fields") or []
    if len(fields) > EMBED_FIELDS:
        problems.append(f"embeds.{n}.fields: Must be {EMBED_FIELDS} or fewer in length.")
    for m, field in enumerate(fields):
        name, value = field.get("name") or "", field.get("value") or ""
        total += len(name) + len(value)
        if not name or len(name) > FIELD_NAME:
            problems.append(f"embeds.{n}.fields.{m}.name: Must be between 1 and {FIELD_NAME}.")
        if not value or len(value) > FIELD_VALUE:
            problems.append(f"embeds.{n}.fields.{m}.value: Must be between 1 and "
                            f"{FIELD_VALUE}.")
    return problems, total


def _component_problems(rows: list[dict[str, Any]]) -> list[str]:
    problems = []
    if len(rows) > ACTION_ROWS:
        problems.append(f"components: Must be {ACTION_ROWS} or fewer in length.")
    for n, row in enumerate(rows):
        buttons = row.get("components") or []
        if not 1 <= len(buttons) <= ROW_BUTTONS:
            problems.append(f"components.{n}.components: Must be between 1 and {ROW_BUTTONS}.")
        for m, button in enumerate(buttons):
            custom = button.get("custom_id")
            if custom is not None and not 1 <= len(custom) <= CUSTOM_ID:
                problems.append(f"components.{n}.components.{m}.custom_id: Must be between 1 "
                                f"and {CUSTOM_ID} in length.")
            if len(button.get("label") or "") > LABEL:
                problems.append(f"components.{n}.components.{m}.label: Must be {LABEL} or "
                                "fewer in length.")
    return problems


def discord_message(data: dict[str, Any], create: bool = False) -> list[str]:
    """What Discord refuses (HTTP 400, code 50035) in a message or interaction reply
    (`create`: a new message, which may not be empty; an edit may)."""
    problems = []
    if create and not (data.get("content") or "").strip() and not data.get("embeds") and \
            not data.get("attachments") and not data.get("components"):
        problems.append("Cannot send an empty message")
    if len(data.get("content") or "") > CONTENT:
        problems.append(f"content: Must be {CONTENT} or fewer in length.")
    embeds = data.get("embeds") or []
    if len(embeds) > EMBEDS:
        problems.append(f"embeds: Must be {EMBEDS} or fewer in length.")
    total = 0
    for n, embed in enumerate(embeds):
        found, size = _embed_problems(embed, n)
        problems += found
        total += size
    if total > EMBED_TOTAL:
        problems.append(f"embeds: Embed size exceeds maximum size of {EMBED_TOTAL}")
    return problems + _component_problems(data.get("components") or [])


def discord_choices(data: dict[str, Any]) -> list[str]:
    """What Discord refuses in an autocomplete answer (interaction response type 8)."""
    choices = data.get("choices") or []
    problems = [] if len(choices) <= CHOICES else [
        f"choices: Must be {CHOICES} or fewer in length."]
    problems += [f"choices.{n}.name: Must be between 1 and {CHOICE_NAME} in length."
                 for n, c in enumerate(choices) if not 1 <= len(c.get("name") or "") <= CHOICE_NAME]
    return problems


# Discord's locales (its reference, "Locales"); a localization in any other is refused.
DISCORD_LOCALES = {locale.value for locale in discord.Locale}


def _localized(command: dict[str, Any], where: str) -> list[str]:
    """What Discord refuses in a command's (or option's, or choice's) localizations."""
    problems = []
    for key, limit in (("description_localizations", DESCRIPTION),
                       ("name_localizations", CHOICE_NAME)):
        for locale, words in (command.get(key) or {}).items():
            if locale not in DISCORD_LOCALES:
                problems.append(f"{where}.{key}.{locale}: Invalid Form Body (locale)")
            elif not 1 <= len(words) <= limit:
                problems.append(f"{where}.{key}.{locale}: Must be between 1 and {limit} in "
                                "length.")
    for n, choice in enumerate(command.get("choices") or []):
        problems += _localized({"name_localizations": choice.get("name_localizations")},
                               f"{where}.choices.{n}")
    return problems


# An option's numbers and lengths (application-commands, "Application Command Option
# Type" and "Option Structure"; the spec's Int53Type: discord-api-docs PR #7458).
INTEGER_LIMIT = 2**53 - 1
NUMBER_LIMIT = 2**53
LENGTH_LIMIT = 6000
COMMAND_TOTAL = 8000  # name, description and value characters of a command, all told


def discord_commands(commands: list[dict[str, Any]]) -> list[str]:
    """What Discord refuses in a bulk overwrite of application commands (one refused
    command fails them all: the PUT is one request)."""
    problems = []
    for n, command in enumerate(commands):
        problems += _command_problems(command, str(n))
        if (size := _size(command)) > COMMAND_TOTAL:
            problems.append(f"{n}: Command exceeds maximum size ({COMMAND_TOTAL}): {size}")
    return problems


def _longest(node: dict[str, Any], field: str) -> int:
    """A field's length as the size limit counts it: its longest localization."""
    words = [node.get(field) or "", *(node.get(f"{field}_localizations") or {}).values()]
    return max(len(str(w)) for w in words)


def _size(node: dict[str, Any]) -> int:
    """The characters of a command's names, descriptions and choice values, all told."""
    size = _longest(node, "name") + _longest(node, "description")
    for choice in node.get("choices") or []:
        size += _longest(choice, "name") + len(str(choice.get("value", "")))
    return size + sum(_size(option) for option in node.get("options") or [])


def _option_problems(option: dict[str, Any], where: str) -> list[str]:
    """What Discord refuses in one option's ranges, lengths and choices."""
    problems = []
    kind = option.get("type")
    most = INTEGER_LIMIT if kind == 4 else NUMBER_LIMIT
    for key in ("min_value", "max_value"):
        value = option.get(key)
        if value is not None and (kind not in (4, 10) or not -most <= value <= most):
            problems.append(f"{where}.{key}: int53 must be between {-most} and {most}")
    for key, low in (("min_length", 0), ("max_length", 1)):
        value = option.get(key)
        if value is not None and (kind != 3 or not low <= value <= LENGTH_LIMIT):
            problems.append(f"{where}.{key}: Must be between {low} and {LENGTH_LIMIT}.")
    if option.get("autocomplete") and option.get("choices"):
        problems.append(f"{where}.autocomplete: Autocomplete and choices are exclusive")
    for m, choice in enumerate(option.get("choices") or []):
        if kind == 3 and not 1 <= len(str(choice.get("value", ""))) <= CHOICE_NAME:
            problems.append(f"{where}.choices.{m}.value: Must be between 1 and "
                            f"{CHOICE_NAME} in length.")
    return problems


def _command_problems(command: dict[str, Any], where: str) -> list[str]:
    problems = []
    name, description = command.get("name") or "", command.get("description") or ""
    if not COMMAND_NAME.match(name) or name != name.lower():
        problems.append(f"{where}.name: Command name is invalid")
    if command.get("type", 1) == 1 and not 1 <= len(description) <= DESCRIPTION:
        problems.append(f"{where}.description: Must be between 1 and {DESCRIPTION} in length.")
    problems += _localized(command, where)
    options = command.get("options") or []
    if len({o.get("name") for o in options}) != len(options):
        problems.append(f"{where}.options: Option names must be unique")
    if len(options) > COMMAND_OPTIONS:
        problems.append(f"{where}.options: Must be {COMMAND_OPTIONS} or fewer in length.")
    seen_optional = False
    for m, option in enumerate(options):
        if option.get("type") in (1, 2):  # a subcommand (group): a command of its own
            problems += _command_problems(option, f"{where}.options.{m}")
            continue
        problems += _command_problems({**option, "type": 1, "options": []},
                                      f"{where}.options.{m}")
        problems += _option_problems(option, f"{where}.options.{m}")
        if option.get("required") and seen_optional:
            problems.append(f"{where}.options.{m}: Required options must be placed before "
                            "non-required options")
        seen_optional = seen_optional or not option.get("required")
        if len(option.get("choices") or []) > CHOICES:
            problems.append(f"{where}.options.{m}.choices: Must be {CHOICES} or fewer in "
                            "length.")
    return problems


# ---- Telegram (python-telegram-bot's telegram.constants)
TEXT = tg.MessageLimit.MAX_TEXT_LENGTH
CAPTION = tg.MessageLimit.CAPTION_LENGTH
CALLBACK_DATA = tg.InlineKeyboardButtonLimit.MAX_CALLBACK_DATA
ANSWER_TEXT = tg.CallbackQueryLimit.ANSWER_CALLBACK_QUERY_TEXT_LENGTH
BOT_COMMAND = re.compile(rf"^[a-z0-9_]{{{tg.BotCommandLimit.MIN_COMMAND},"
                         rf"{tg.BotCommandLimit.MAX_COMMAND}}}$")
BOT_COMMAND_DESCRIPTION = (tg.BotCommandLimit.MIN_DESCRIPTION, tg.BotCommandLimit.MAX_DESCRIPTION)
BOT_COMMANDS = tg.BotCommandLimit.MAX_COMMAND_NUMBER


def _loaded(value: Any) -> Any:
    return json.loads(value) if isinstance(value, str) else value


# Files a message carries: each at most 10 MiB (the default upload limit, for apps too,
# since January 2025), at most 10 (discord-api-docs: reference.mdx, "Uploading Files";
# change-log "Default File Upload Limit Change"); a message's whole request at most 25 MiB.
DISCORD_FILE, DISCORD_FILES, DISCORD_REQUEST = 10 * 1024 * 1024, 10, 25 * 1024 * 1024


def discord_files(files: dict[str, bytes]) -> str | None:
    """Discord's refusal of a message's attachments, else None."""
    if len(files) > DISCORD_FILES or any(len(b) > DISCORD_FILE for b in files.values()) \
            or sum(len(b) for b in files.values()) > DISCORD_REQUEST:
        return "Request entity too large"
    return None


# A photo (sendPhoto): at most 10 MB, width and height at most 10,000 together, the one at
# most 20 times the other (core.telegram.org/bots/api#sendphoto).
PHOTO_BYTES, PHOTO_SIDES, PHOTO_RATIO = 10 * 1024 * 1024, 10_000, 20


def telegram_photo(png: bytes) -> str | None:
    """The Bot API's refusal of a PNG sent as a photo, else None."""
    if not png.startswith(b"\x89PNG"):
        return "Bad Request: IMAGE_PROCESS_FAILED"
    width, height = int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")
    if len(png) > PHOTO_BYTES or width + height > PHOTO_SIDES \
            or max(width, height) > PHOTO_RATIO * min(width, height):
        return "Bad Request: PHOTO_INVALID_DIMENSIONS"
    return None


# The largest file a bot may download (core.telegram.org/bots/api#getfile: 20 MB).
TELEGRAM_DOWNLOAD = 20 * 1024 * 1024


def telegram_call(method: str, params: dict[str, Any]) -> str | None:
    """The Bot API's "Bad Request: ..." for a call it refuses, else None."""
    if method in ("sendMessage", "editMessageText"):
        text = params.get("text") or ""
        if not text.strip():
            return "Bad Request: message text is empty"
        if len(text) > TEXT:
            return "Bad Request: message is too long"
    if method in ("sendPhoto", "sendDocument") and len(params.get("caption") or "") > CAPTION:
        return "Bad Request: message caption is too long"
    if method == "sendPhoto" and params.get("_files"):  # (where the stand-in has its bytes)
        refused = telegram_photo(next(iter(params["_files"].values())))
        if refused:
            return refused
    markup = _loaded(params.get("reply_markup")) or {}
    for row in markup.get("inline_keyboard") or []:
        for button in row:
            data = button.get("callback_data")
            if data is not None and not 1 <= len(str(data).encode()) <= CALLBACK_DATA:
                return "Bad Request: BUTTON_DATA_INVALID"
    if method == "answerCallbackQuery" and len(params.get("text") or "") > ANSWER_TEXT:
        return "Bad Request: MESSAGE_TOO_LONG"
    if method == "setMyCommands":
        commands = _loaded(params.get("commands")) or []
        if not re.fullmatch(r"(?:[a-z]{2})?", params.get("language_code") or ""):
            return "Bad Request: invalid language code specified"  # a two-letter ISO 639-1
        low, high = BOT_COMMAND_DESCRIPTION
        if len(commands) > BOT_COMMANDS or any(
                not BOT_COMMAND.match(c.get("command", ""))
                or not low <= len(c.get("description", "")) <= high for c in commands):
            return "Bad Request: BOT_COMMANDS_TOO_MUCH" if len(commands) > BOT_COMMANDS \
                else "Bad Request: BOT_COMMAND_INVALID"
    return None


# ---- What the clients make links of (not refusals: what a reader could click)
# Discord links an unescaped masked link and an address with a scheme; Telegram an address
# with a scheme and a bare domain under a real top-level domain (a sample of them here).
_MASKED = re.compile(r"(?<!\\)\[[^\]\n]*\]\(\s*<?[a-z][\w+.-]*:", re.IGNORECASE)
_SCHEMED = re.compile(r"(?<![\w+.-])[a-z][\w+.-]*://[^\s<>]+", re.IGNORECASE)
_DOMAIN = re.compile(r"(?<![\w.\u200b-])(?:[a-z0-9-]+\.)+(?:com|net|org|ru|nl|io|gg|me|de|"
                     r"uk|co|info|xyz|app|dev|tv|su|eu|ly|to)(?![\w-])", re.IGNORECASE)


def discord_links(text: str) -> list[str]:
    """What Discord would show as links in a message's text."""
    return _MASKED.findall(text) + _SCHEMED.findall(text)


def telegram_links(text: str) -> list[str]:
    """What Telegram would show as links in a plain-text message."""
    return _SCHEMED.findall(text) + _DOMAIN.findall(text)


# Entities Telegram makes of plain text (tdlib's find_entities): a mention of a username
# (5 to 32 letters, digits and _), a command, a hashtag, a cashtag.
_MENTION = re.compile(r"(?<![\w@])@[A-Za-z][A-Za-z0-9_]{4,31}(?![\w@])")
_COMMAND = re.compile(r"(?<![\w/<>])/([A-Za-z0-9_]{1,64})(@[A-Za-z0-9_]{3,32})?(?![\w/<>])")
_TAG = re.compile(r"(?<![\w#$])(?:#\w*[^\W\d]\w*|\$[A-Z]{1,8}(?![\w]))")


def telegram_entities(text: str, commands: set[str], users: set[str]) -> list[str]:
    """What Telegram would make tappable in a plain-text message that the bot did not
    mean: a mention of anyone but the `users` it knows, a command other than its own
    `commands` (or any command addressed to a bot), a hashtag or cashtag."""
    found = [m.group() for m in _MENTION.finditer(text) if m.group()[1:].lower() not in users]
    found += [m.group() for m in _COMMAND.finditer(text)
              if m.group(2) or m.group(1).lower() not in commands]
    return found + _TAG.findall(text)
