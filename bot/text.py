"""Text helpers shared by chat adapters."""

from __future__ import annotations

# What a user is told when a command fails unexpectedly; the traceback goes to the log.
APOLOGY = "Sorry, something went wrong on my side. It has been logged; please try again."


def split_text(text: str, limit: int) -> list[str]:
    """Cut a long reply at line breaks into messages a platform accepts; a line longer
    than a message is cut at its last space that fits (never inside a word, a name or an
    escape, unless one word alone is longer than a message)."""
    parts: list[str] = []
    current = ""
    for line in text.splitlines():
        while len(line) > limit:
            cut = line.rfind(" ", 0, limit + 1)
            cut = cut if cut > 0 else limit
            parts.append(line[:cut])
            line = line[cut:].lstrip(" ")
        if current and len(current) + 1 + len(line) > limit:
            parts.append(current)
            current = line
        else:
            current = f"{current}\n{line}" if current else line
    if current or not parts:
        parts.append(current)
    return parts
