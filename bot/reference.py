"""The documentation's reference pages, made from the code that they describe, so they
cannot drift from it: every command of the registry (its usage, and its help in each
language) and every setting (its group, what it does, its range and each preset's
value). `python -m bot.reference` writes them into docs/reference/; a test fails while
the written pages differ from what this makes.
"""

from __future__ import annotations

import sys
from pathlib import Path

from core.commands.registry import SPECS
from core.domain.setting_keys import PROPERTIES, SETTING_GROUPS, SETTING_SPECS
from core.domain.settings import PRESETS, format_value, preset
from core.i18n import LANGUAGES, render, t
from core.service.handlers.roles import ROLE_KEYS

DOCS = Path(__file__).resolve().parent.parent / "docs" / "reference"
MADE = "<!-- Made by `python -m bot.reference` from the registry and the catalogs: edit those. -->"
NAMES = {"en": "English", "ru": "Русский", "nl": "Nederlands"}


def _cell(text: str) -> str:
    """Text as one cell of a Markdown table."""
    return text.replace("|", "\\|").replace("\n", " ")


def commands() -> str:
    """Every command: its usage lines, then its help in each language."""
    lines = [MADE, "", "# Command reference", "",
             "Every command the bot understands, in every chat (Discord also offers them as "
             "slash commands with typed options; a command's words are the same in every "
             "language). Add `ladder=NAME` to act on another ladder of the chat.", ""]
    for spec in SPECS:
        lines += [f"## /{spec.word}", "", "```text", *spec.usage, "```", ""]
        if spec.aliases:
            lines += ["Also: " + ", ".join(f"`/{alias}`" for alias in spec.aliases), ""]
        for language in LANGUAGES:
            lines.append(f"- **{NAMES[language]}**: {render(t(spec.help), language)}")
        lines.append("")
    return "\n".join(lines)


def settings() -> str:
    """Every setting by what it configures: its meaning, range and presets' values."""
    shown = sorted(PRESETS)
    presets = [preset(name) for name in shown]
    lines = [MADE, "", "# Settings reference", "",
             "Every key `/ladder create NAME preset=PRESET key=value ...` and `/ladder set "
             "key=value ...` take, by what it configures, with each preset's value (`/help "
             "settings` says the same in the ladder's language). A key of one rulebook's "
             "own is refused on a ladder of another.", ""]
    for _, title, keys in SETTING_GROUPS:
        lines += [f"## {render(t(title), 'en')}", "",
                  "| key | what it does | values | " + " | ".join(shown) + " |",
                  "|---|---|---|" + "---|" * len(shown)]
        for key in keys:
            spec = SETTING_SPECS[key]
            values = render(spec.range.text(), "en") if spec.range is not None else ""
            each = [format_value(getattr(made, key)) for made in presets]
            lines.append(f"| `{key}` | {_cell(render(spec.help, 'en'))} | {_cell(values)} | "
                         + " | ".join(f"`{_cell(v)}`" for v in each) + " |")
        lines.append("")
    lines += ["## The ladder in its chat", "", "| key | what it does |", "|---|---|"]
    lines += [f"| `{key}` | {_cell(render(t(code), 'en'))} |"
              for key, code in (PROPERTIES | ROLE_KEYS).items()]
    return "\n".join(lines) + "\n"


PAGES = {"commands.md": commands, "settings.md": settings}


def main() -> int:
    """Write the reference pages (tests/e2e/test_docs.py says when they are stale)."""
    DOCS.mkdir(parents=True, exist_ok=True)
    for name, make in PAGES.items():
        (DOCS / name).write_text(make())
    return 0


if __name__ == "__main__":
    sys.exit(main())
