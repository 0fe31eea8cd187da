"""How a core reply is shown on Discord: escaped, pinging only whom it means, split into
messages and embeds Discord accepts.

Everything a reply becomes on Discord is decided here, so the limits and the escaping
are one rule: the platform only sends what this makes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import discord

from bot.gateway import buttons_of, choice_buttons, page_buttons, page_label
from bot.text import contain_bidi, split_text, unlink
from core.domain.records import Reply

MAX_CONTENT = 2000
# An embed's title and description (discord-api-docs, "Embed Limits"): one of each, at
# most, stays within the 6,000 characters all of a message's embeds may hold.
EMBED_TITLE, EMBED_DESCRIPTION = 256, 4096
MENTION = re.compile(r"<@!?(\d{15,21})>")
ESCAPED_MENTION = re.compile(r"@(<@!?\d{15,21}>)")
# Each character Discord's markdown reads, and a quote, heading or list at a line's start.
# (discord.py's escape_markdown takes "[...](...)" from a line's first "[" to its last
# ")" as one masked link and escapes only its "[": a second link, and every "*", "_",
# "~" and "|" between them, stayed formatting.)
MARKDOWN = re.compile(r"([\\_*~`|\[])|^(>{1,3}\s|#{1,3}|\s*-)", re.MULTILINE)


def shown(text: str, own: str | None = None) -> str:
    """A text as Discord should show it: players' names and reasons as typed, never as
    Discord formatting, masked or bare links (the core's texts use no markdown of their
    own; `own` is the bot's web address, the one link it gives), and the core's "@name"
    of a user known only by a mention (`<@123>`, the name the adapter gives such a user)
    as that mention alone, not "@@name"."""
    escaped = MARKDOWN.sub(lambda m: "\\" + m.group(0), unlink(contain_bidi(text), own))
    return ESCAPED_MENTION.sub(r"\1", escaped)


def pinged(text: str, named: frozenset[int] = frozenset(),
           called: frozenset[int] = frozenset()) -> discord.AllowedMentions:
    """Whom a core text means to mention: the users it addresses as `@<@123>` (a user known
    only by a mention) among those the asker `named` as players. Never a mention that came
    in with what someone typed: "@<@123>" typed into a reason or a display name reads the
    same as the core's address, so only whom the command itself named may be pinged; and
    the users it `called` (a formed match's players, by the bot's own line: `calling`)."""
    ids = sorted(({int(MENTION.match(m).group(1))  # type: ignore[union-attr]
                   for m in ESCAPED_MENTION.findall(text)} & named) | called)
    return discord.AllowedMentions(everyone=False, roles=False, replied_user=False,
                                   users=[discord.Object(i) for i in ids])


def called_ids(keys: tuple[str, ...]) -> frozenset[int]:
    """The Discord users among the user keys a reply or announcement calls."""
    return frozenset(int(k.split(":", 1)[1]) for k in keys
                     if k.startswith("discord:") and k.split(":", 1)[1].isdigit())


def calling(text: str, ids: frozenset[int]) -> str:
    """A shown text with a line that mentions the users it calls (a formed match's
    players): the bot's own mentions, made after what anyone typed was escaped."""
    return text if not ids else text + "\n" + " ".join(f"<@{i}>" for i in sorted(ids))


def chunks(text: str, limit: int = MAX_CONTENT) -> list[str]:
    """Cut text at line breaks into messages Discord accepts."""
    return split_text(text, limit)


@dataclass(frozen=True)
class Rendered:
    """A reply as Discord messages: the keyword arguments of each send, in order, whether
    they are the asker's alone, and what they carry besides: the chart (in the first
    one's embed, or after the last one's text), and the buttons of a pending report (its
    ladder and match)."""

    messages: list[dict[str, Any]]
    private: bool
    chart: bool
    # the buttons' actions, ladder, number and language: a pending report's, a ready check's
    buttons: tuple[tuple[str, ...], str, int, str] | None
    # a page of more: its Previous and Next buttons (label, custom id), in its language
    pages: tuple[tuple[str, str], ...] = ()
    # a "which ladder?" question's buttons: (label, action, ladder)
    choices: tuple[tuple[str, str, str], ...] = ()


def render(reply: Reply, embed: bool = False, own: str | None = None,
           named: frozenset[int] = frozenset()) -> Rendered:
    """The messages a reply becomes: a table or profile as embeds (a body too long for
    one goes on in more, each cut at a line break; it was cut at 4,096 characters,
    mid-line, and the rest lost), anything else as text messages cut at line breaks.
    `named`: the users the asker named as players, whom the reply may ping."""
    private = reply.error or reply.private
    called = frozenset() if private else called_ids(reply.notify)
    common: dict[str, Any] = {"ephemeral": private,
                              "allowed_mentions": pinged(reply.said, named, called)}
    text = calling(shown(reply.said, own), called)
    messages: list[dict[str, Any]]
    if embed and not reply.error:
        title, _, body = text.partition("\n")
        if len(title) > EMBED_TITLE:  # (cut, a profile's title lost its rating and place:
            title, body = "", text  # a long name leads the description instead, whole)
        pages = chunks(body, EMBED_DESCRIPTION)
        colour = discord.Colour.blurple()
        messages = [{"embed": discord.Embed(title=title or None,
                                            description=pages[0] or None, colour=colour)}]
        messages += [{"embed": discord.Embed(description=more, colour=colour)}
                     for more in pages[1:]]
    else:
        messages = [{"content": part} for part in chunks(text)]
    found = buttons_of(reply.ready, reply.confirm_match, reply.kept)
    buttons = (found[0], reply.ladder, found[1], reply.language) \
        if found is not None and reply.ladder is not None else None
    turns = tuple((page_label(action, reply.language), data) for action, data in
                  page_buttons(reply.pages, reply.ladder)) \
        if reply.pages is not None and reply.ladder is not None and buttons is None else ()
    return Rendered([common | m for m in messages], private,
                    not reply.error and reply.chart is not None, buttons, turns,
                    tuple(choice_buttons(reply)))
