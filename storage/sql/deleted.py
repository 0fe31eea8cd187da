"""A deleted ladder's export, written beside the database (either store's)."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path


def export_file(folder: Path, chat: str, name: str, text: str, at: int) -> str:
    """Write a deleted ladder's export beside the database, under a name of its own
    (`deleted-telegram_-100123-main-20260105T100000.json`, when it was deleted); return
    its path."""
    safe = re.sub(r"[^A-Za-z0-9_-]", "_", chat)
    stamp = datetime.fromtimestamp(at, UTC).strftime("%Y%m%dT%H%M%S")
    path = folder / f"deleted-{safe}-{name}-{stamp}.json"
    count = 1
    while path.exists():
        count += 1
        path = folder / f"deleted-{safe}-{name}-{stamp}-{count}.json"
    path.write_text(text, encoding="utf-8")
    return str(path)
