"""`ladderbot import FILE`: a match CSV into a ladder (core.service.importing), or a
history (`export --history`, storage.ladder_file) into a new one, in one transaction; with
--dry-run the same work is rolled back, and what it would give shown."""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import sys
import time
from pathlib import Path
from typing import Any

from tqdm import tqdm

from core.domain.calendar import iso
from core.domain.errors import LadderError
from core.domain.match_file import read_match_file
from core.domain.records import Context, named
from core.domain.settings import Policy
from core.i18n import Number, listed, render, t
from core.service.dispatch import handle
from core.service.importing import IMPORTER, Imported, import_matches
from core.service.planning import schedule
from storage.ladder_file import restore
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
    if args.file.lower().endswith(".json"):
        return await _import_history(args, path, policy, data)
    matches = read_match_file(data)
    if not matches:
        return render(t("import.nothing"), policy.language)
    settings = policy.settings_for(args.preset) if args.preset else None
    now = int(time.time())  # (when the import was made, as its audit line says)

    # A bar on a terminal only: a script's or a log's output stays the lines below.
    # (a terminal that reports no size, as some do, gets shutil's fallback of 80 x 24:
    # tqdm drew nothing in 0 columns and hid its bar below a screen of 0 lines)
    size = shutil.get_terminal_size()
    bar = tqdm(total=len(matches), unit=" matches", disable=not sys.stderr.isatty(),
               leave=False, ncols=size.columns, nrows=size.lines)

    def work(repo: Any) -> tuple[Imported, tuple[str, str]]:
        bar.reset()  # (a unit of work may be tried again)
        done = import_matches(repo, args.chat, args.ladder, settings, matches, now,
                              progress=bar.update)
        return done, _standings(repo, args.chat, done.ladder, policy)

    with bar:
        async with store_for(path) as store:
            done, (table, language) = await store.run(work, commit=not args.dry_run)
    lines = [t("import.done", count=len(done.matches), ladder=done.ladder,
               first=iso(done.first or 0), last=iso(done.last or 0))]
    if done.new_players:
        lines.append(t("import.new_players", count=len(done.new_players),
                       names=listed(list(done.new_players))))
    if args.dry_run:
        lines.append(t("import.dry_run"))
    else:
        lines.append(t("import.batch", id=done.batch, ladder=done.ladder))
    return "\n".join([*(render(line, language) for line in lines), table])


def _standings(repo: Any, chat: str, name: str, policy: Policy) -> tuple[str, str]:
    """The ladder's standings, as /standings answers in its chat, and the language they
    are in (the ladder's: the lines printed above them are said in it too)."""
    ladder = repo.ladder(chat, name)
    asked = "/standings rating" + ("" if ladder.is_default else f" ladder={ladder.name}")
    reply = handle(repo, Context(chat, IMPORTER, ladder.clock), asked, named, policy)
    if reply is None:
        return "", policy.language
    return render(reply.text, reply.language), reply.language


async def _import_history(args: argparse.Namespace, path: str, policy: Policy,
                          data: bytes) -> str:
    """A history (`ladderbot export --history`) into a new ladder."""
    if args.preset:
        raise LadderError(t("import.json_preset"))
    try:
        exported = json.loads(data)
    except ValueError as error:  # (UnicodeDecodeError is one)
        raise LadderError(t("import.json_bad", why=str(error))) from None
    if not isinstance(exported, dict) or not isinstance(exported.get("history"), dict):
        raise LadderError(t("import.json_bad", why=t("import.json_no_history")))

    def work(repo: Any) -> tuple[int, tuple[str, str]]:
        restore(repo, args.chat, args.ladder, exported["history"])
        schedule(repo, args.chat, args.ladder)  # (its next job, for the scheduler)
        return len(exported["history"]["events"]), _standings(repo, args.chat, args.ladder,
                                                              policy)

    async with store_for(path) as store:
        events, (table, language) = await store.run(work, commit=not args.dry_run)
    lines = [t("import.json_done", ladder=args.ladder, events=Number(events), count=events)]
    if args.dry_run:
        lines.append(t("import.dry_run"))
    return "\n".join([*(render(line, language) for line in lines), table])
