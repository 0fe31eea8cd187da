"""The renderers: whatever a reply holds, each platform gets messages it accepts, and
nothing is cut inside a line (or, in a line longer than a message, inside a word)."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.discord import render as discord_render
from bot.telegram import render as telegram_render
from core.domain.records import Reply
from tests.support import platform_limits as limits

HOSTILE = ["[x](https://y)", "<@123>", "@everyone", "&amp;", "\u202eevil", "**b**", "_i_",
           "evil.com", "https://e.vil/a", "مرحبا", "a" * 32]
# (the core never says a blank line alone: both platforms refuse an empty message)
word = st.one_of(st.sampled_from(HOSTILE), st.text(alphabet="abc xyz.:/", min_size=1,
                                                     max_size=40).filter(str.strip))
line = st.lists(word, min_size=1, max_size=12).map(" ".join)
lines = st.lists(line, min_size=1, max_size=400)


def whole_lines(parts: list[str], text: str) -> bool:
    """The parts are the text's lines, in order, none cut (lines within the limit)."""
    return "\n".join(parts).splitlines() == text.splitlines()


@settings(max_examples=60, deadline=None)
@given(lines)
def test_discord_text_replies_fit_and_keep_whole_lines(body: list[str]) -> None:
    text = "\n".join(body)
    made = discord_render.render(Reply(text))
    contents = [m["content"] for m in made.messages]
    assert all(limits.discord_message({"content": c}, create=True) == [] for c in contents)
    assert whole_lines(contents, discord_render.shown(text))
    assert all(limits.discord_links(c) == [] for c in contents)


@settings(max_examples=60, deadline=None)
@given(line, lines)
def test_discord_embeds_fit_and_keep_whole_lines(title: str, body: list[str]) -> None:
    text = "\n".join([title, *body])
    made = discord_render.render(Reply(text), embed=True)
    embeds = [m["embed"].to_dict() for m in made.messages]
    assert all(limits.discord_message({"embeds": [e]}) == [] for e in embeds)
    descriptions = [e.get("description", "") for e in embeds]
    shown = discord_render.shown(text)
    title, _, rest = shown.partition("\n")  # (a title too long leads the description)
    assert whole_lines(descriptions, rest if len(title) <= discord_render.EMBED_TITLE
                       else shown)


@settings(max_examples=60, deadline=None)
@given(lines)
def test_telegram_replies_fit_and_keep_whole_lines(body: list[str]) -> None:
    text = "\n".join(body)
    parts = [part for part, _ in telegram_render.render(Reply(text))]
    assert all(limits.telegram_call("sendMessage", {"text": p}) is None for p in parts)
    assert whole_lines(parts, telegram_render.shown(text))
    assert all(limits.telegram_links(p) == [] for p in parts)


@settings(max_examples=40, deadline=None)
@given(st.lists(word, min_size=300, max_size=600))
def test_a_line_longer_than_a_message_is_cut_between_words(words: list[str]) -> None:
    text = " ".join(words)
    discord = [m["content"] for m in discord_render.render(Reply(text)).messages]
    telegram = [p for p, _ in telegram_render.render(Reply(text))]
    for parts, limit, shown in ((discord, discord_render.MAX_CONTENT, discord_render.shown),
                                (telegram, telegram_render.MAX_MESSAGE, telegram_render.shown)):
        assert all(0 < len(p) <= limit for p in parts)
        # every word whole in one part: the parts' words are the text's words
        assert [w for p in parts for w in p.split()] == shown(text).split()


def test_a_long_list_is_cut_between_its_entries_not_inside_a_name() -> None:
    """Names hold spaces: cut at any space, a 35-player free-for-all split "&amp; x0019"
    over two messages."""
    names = [f"{n}. &amp; {'x' * 22}{n:04d}" for n in range(1, 120)]
    text = "Match #1 reported: finishing order: " + ", ".join(names) + "."
    for parts in ([m["content"] for m in discord_render.render(Reply(text)).messages],
                  [p for p, _ in telegram_render.render(Reply(text))]):
        assert len(parts) > 1
        assert all(p.endswith(",") for p in parts[:-1]), [p[-30:] for p in parts]
        assert all(p.split(". ", 1)[0].isdigit() for p in parts[1:])


def test_formatting_between_two_masked_links_is_escaped() -> None:
    """discord.py's escape_markdown reads "[a](...) **b** [c](...)" as one masked link from
    the first "[" to the last ")" and escapes only that "[": the "**" between stayed bold."""
    text = "1. [a](https://x.example) 2. **bold** _it_ ~~s~~ ||sp|| 3. [c](https://e.vil)"
    shown = discord_render.shown(text)
    assert re.findall(r"(?<!\\)[*_~|\[`]", shown) == [], shown
    assert shown.replace("\\", "").replace("\u200b", "") == text  # and looks as typed


def test_an_embeds_title_longer_than_discord_takes_is_not_cut() -> None:
    # A profile's first line of a 129-character Telegram name on a linked account was cut
    # at 256 characters: the rating, league and place were lost.
    name = "Ж" * 129 + " " + "x" * 120
    text = f"{name}: 1016 (Fighter), 3rd of 40 on main\nGames: 5"
    made = discord_render.render(Reply(text), embed=True)
    embeds = [m["embed"].to_dict() for m in made.messages]
    assert all(limits.discord_message({"embeds": [e]}) == [] for e in embeds)
    shown = "\n".join(f"{e.get('title', '')}\n{e.get('description', '')}" for e in embeds)
    assert "1016 (Fighter), 3rd of 40 on main" in shown and "Games: 5" in shown


def test_a_mention_after_a_closing_angle_bracket_is_shielded() -> None:
    """Telegram reads "<b>@somebody" as a mention of @somebody (its entities start after
    any sign but a letter, a digit, "_" or "@"); a Discord pill stays a pill's text."""
    from core.domain.names import shielded
    assert shielded("<b>@somebody</b>") == "<b>@\u200bsomebody</b>"
    assert shielded("<@123456789012345678>") == "<\u200b@123456789012345678>"
