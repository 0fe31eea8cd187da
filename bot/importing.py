"""`ladderbot import FILE`: a match CSV into a ladder (core.service.importing), in one
transaction; with --dry-run the same work is rolled back, and what it would give shown."""

from __future__ import annotations

import argparse
import asyncio
import time
from pathlib import Path
from typing import Any

from core.domain.calendar import iso
from core.domain.errors import LadderError
from core.domain.match_file import read_match_file
from core.domain.records import Context, named
from core.domain.settings import Policy
from core.i18n import Number, listed, render, t
from core.service.dispatch import handle
from core.service.importing import IMPORTER, Imported, import_matches
from storage.stores import store_for

MAX_FILE = 256 * 1024 * 1024  # bytes read at most (about four million matches)


def _read(path: Path) -> bytes:
    with path.open("rb") as file:
        return file.read(MAX_FILE + 1)


async def run_import(args: argparse.Namespace, path: str, policy: Policy) -> str:
    """Import the file of `args`; what to print."""
    data = await asyncio.to_thread(_read, Path(args.file))
    if len(data) > MAX_FILE:
        raise LadderError(t("import.too_large", file=args.file,
                            most=Number(MAX_FILE // 1024 // 1024)))
    matches = read_match_file(data)
    if not matches:
        return render(t("import.nothing"), "en")
    settings = policy.settings_for(args.preset) if args.preset else None
    now = int(time.time())  # (when the import was made, as its audit line says)

    def work(repo: Any) -> tuple[Imported, str]:
        done = import_matches(repo, args.chat, args.ladder, settings, matches, now)
        ladder = repo.ladder(args.chat, done.ladder)
        asked = "/standings rating" + ("" if ladder.is_default else f" ladder={ladder.name}")
        reply = handle(repo, Context(args.chat, IMPORTER, ladder.clock), asked, named, policy)
        return done, "" if reply is None else render(reply.text, "en")

    async with store_for(path) as store:
        done, table = await store.run(work, commit=not args.dry_run)
    lines = [t("import.done", count=len(done.matches), ladder=done.ladder,
               first=iso(done.first or 0), last=iso(done.last or 0))]
    if done.new_players:
        lines.append(t("import.new_players", count=len(done.new_players),
                       names=listed(list(done.new_players))))
    if args.dry_run:
        lines.append(t("import.dry_run"))
    else:
        lines.append(t("import.batch", id=done.batch, ladder=done.ladder))
    return "\n".join([*(render(line, "en") for line in lines), table])
