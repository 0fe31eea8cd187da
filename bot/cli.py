"""The `ladderbot` command line."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import os
import signal
import sqlite3
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import psycopg

from bot import arguments
from bot import config as configuration
from bot.backup import BackupError, backup, restore, running
from bot.bootstrap import bootstrap
from bot.console import Console, input_lines, interactive
from bot.importing import run_import
from bot.runtime import NO_PLATFORM
from core.domain.errors import LadderError, NoLadder
from core.i18n import render
from core.service import dispatch
from core.service.queries.ladders import member_count
from core.service.queries.match_csv import ladder_csv
from storage.ladder_file import history
from storage.postgres.store import is_url
from storage.sql.versions import SchemaTooNew
from storage.sqlite.files import UnusableDatabase, discard_new
from storage.stores import store_for
from storage.transfer import TransferError, copy_database


def _database(args: argparse.Namespace) -> tuple[configuration.Config, str]:
    """The config, and the database it names: --db, else [database] url, else path."""
    config = configuration.load(args.config)
    return config, args.db or config.database_url or config.database_path


def _in_use(target: str, exclusive: bool = False) -> contextlib.AbstractContextManager[None]:
    """Mark a SQLite file as in use, so `ladderbot restore` refuses while we run (or, with
    `exclusive`, refuse if anything runs on it)."""
    if target == ":memory:" or is_url(target):
        return contextlib.nullcontext()
    return running(Path(target), exclusive)


async def _missing(target: str) -> bool:
    """A SQLite file that is not there (a server's database is the server's to know)."""
    return not is_url(target) and not await asyncio.to_thread(Path(target).exists)


async def _console(args: argparse.Namespace) -> int:
    config, path = _database(args)
    with _in_use(path):
        async with store_for(path, cache_mb=config.cache_mb) as store:
            console = Console(store, args.admin, sys.stdout, sys.stderr, config.policy)
            await console.run(input_lines(sys.stdin))
    return 0


def _terminal_console(args: argparse.Namespace) -> int:
    """The console on a terminal: lines edited with readline; Ctrl-C quits at once."""
    config, path = _database(args)
    store = store_for(path, cache_mb=config.cache_mb)

    async def start() -> Console:
        await store.__aenter__()
        return Console(store, args.admin, sys.stdout, sys.stderr, config.policy)

    async def stop() -> None:
        await store.__aexit__(None, None, None)

    with _in_use(path):
        interactive(start, stop)
    return 0


def _exported(repo: Any, args: argparse.Namespace, at: int) -> dict[str, Any]:
    """The export, with the ladder's history if asked."""
    data = dispatch.export(repo, args.chat, args.ladder, at)
    if args.history:
        data["history"] = history(repo, repo.ladder(args.chat, data["ladder"]))
    return data


async def _export(args: argparse.Namespace) -> int:
    _, path = _database(args)
    at = args.at if args.at is not None else int(time.time())
    async with store_for(path, existing=True) as store:
        try:
            if args.format == "csv":
                text = await store.run(
                    lambda repo: ladder_csv(repo, args.chat, args.ladder), commit=False)
                sys.stdout.write(text)
                return 0
            data = await store.run(lambda repo: _exported(repo, args, at), commit=False)
        except NoLadder as error:
            found = await store.run(lambda repo: [
                lad.chat for lad in repo.every_ladder()
                if lad.name == args.ladder or (args.ladder is None and lad.is_default)],
                commit=False)
            what = f"A ladder {args.ladder} is" if args.ladder else "Ladders are"
            where = f" {what} in: {', '.join(found)} (--chat)." if found else ""
            raise NoLadder(f"{error}{where} `ladderbot ladders` lists every chat and "
                           "ladder.") from None
    print(json.dumps(data, indent=2, ensure_ascii=False))
    return 0


async def _import(args: argparse.Namespace) -> int:
    config, path = _database(args)
    new = await _missing(path)
    if args.dry_run and new:
        path = ":memory:"  # (a dry run leaves no new database behind)
    with _in_use(path):
        try:
            print(await run_import(args, path, config.policy))
        except LadderError as error:  # (in the operator's language, as the lines it prints)
            if new and path != ":memory:":  # (nor does a refused one: a mistyped --db)
                await asyncio.to_thread(discard_new, Path(path))
            raise LadderError(render(error.reason, config.policy.language)) from None
    return 0


async def _ladders(args: argparse.Namespace) -> int:
    _, path = _database(args)
    async with store_for(path, existing=True) as store:
        rows = await store.run(_ladder_rows, commit=False)
    if len(rows) == 1:  # the header alone
        print("No ladders in this database yet.")
        return 0
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    for row in rows:
        print("  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True))
              .rstrip())
    return 0


def _ladder_rows(repo: Any) -> list[tuple[str, ...]]:
    """A header and one row a ladder: chat, name, rulebook, default, public, members."""
    rows: list[tuple[str, ...]] = [("CHAT", "LADDER", "RULEBOOK", "DEFAULT", "PUBLIC",
                                    "MEMBERS")]
    for ladder in sorted(repo.every_ladder(), key=lambda lad: (lad.chat, lad.id)):
        rows.append((ladder.chat, ladder.name, ladder.settings.preset,
                     "yes" if ladder.is_default else "", "yes" if ladder.public else "",
                     str(member_count(repo, ladder, ladder.clock))))
    return rows


async def _web(args: argparse.Namespace) -> int:
    from bot.web.pages import Web  # (0.4 s to import: only the commands that serve pages)

    config, path = _database(args)
    listen = args.listen or config.web_listen or "127.0.0.1:8080"
    # Opened before the lock is taken, so that no lock file is left beside a missing one.
    async with store_for(path, readonly=True) as store:
        with _in_use(path):
            site = Web(store, language=config.policy.language)
            address = await site.start(listen)
            print(f"Serving public ladders at {address}/ (Ctrl-C stops)", flush=True)
            stop = asyncio.Event()
            loop = asyncio.get_running_loop()
            for sig in (signal.SIGINT, signal.SIGTERM):
                loop.add_signal_handler(sig, stop.set)
            try:
                await stop.wait()
            finally:
                await site.stop()
    return 0


async def _discord(args: argparse.Namespace) -> int:
    import discord  # (0.3 s to import: only the commands that speak to Discord)

    from bot.discord.platform import DiscordPlatform
    from bot.discord.words import Words

    config = configuration.load(args.config)
    platform = DiscordPlatform(config, None)
    if args.dry_run:  # as sync sends them: in every language the menu speaks
        payloads = [await c.get_translated_payload(platform.tree, Words())
                    for c in platform.tree.get_commands()]
        print(json.dumps(payloads, indent=2, ensure_ascii=False))
        return 0
    if not config.discord.token:
        print(NO_PLATFORM, file=sys.stderr)
        return 2
    platform.use_servers()
    await platform.tree.set_translator(Words())
    try:
        await platform.client.login(config.discord.token)
        guild = discord.Object(id=args.guild) if args.guild else None
        if guild is not None:
            platform.tree.copy_global_to(guild=guild)
        synced = await platform.tree.sync(guild=guild)
    finally:
        await platform.client.close()
    where = f"server {args.guild}" if args.guild else "every server (global; may take a while)"
    print(f"Registered {len(synced)} commands for {where}: "
          + ", ".join(f"/{c.name}" for c in synced))
    return 0


async def _run(args: argparse.Namespace) -> int:
    config, path = _database(args)
    logging.basicConfig(level=config.log_level,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    if not (config.telegram.token or config.discord.token or config.web_listen):
        print(NO_PLATFORM, file=sys.stderr)
        return 2
    if (args.shards is None) != (args.shard_count is None) or \
            (args.shards and args.shards[-1] >= args.shard_count):
        print("ladderbot run: --shards FIRST-LAST and --shard-count N go together, with "
              "LAST below N (shards are numbered from 0)", file=sys.stderr)
        return 2
    with _in_use(path):
        async with store_for(path, cache_mb=config.cache_mb) as store:
            return await bootstrap(config, store, args.shards, args.shard_count).run()


def _sqlite_only(command: str, target: str) -> None:
    if is_url(target):
        raise BackupError(f"{target} is a PostgreSQL database: back it up with pg_dump and "
                          f"pg_restore, the server's own tools ({command} is for SQLite files)")


async def _backup(args: argparse.Namespace) -> int:
    _, path = _database(args)
    _sqlite_only("backup", path)
    folder = args.path.endswith(("/", os.sep))
    target = await asyncio.to_thread(backup, Path(path), Path(args.path), folder)
    print(f"Backed up {path} to {target} (checked: integrity ok).")
    return 0


async def _restore(args: argparse.Namespace) -> int:
    _, path = _database(args)
    _sqlite_only("restore", path)
    kept = await asyncio.to_thread(restore, Path(args.path), Path(path))
    print(f"Restored {args.path} into {path}."
          + (f" The database it replaced is kept at {kept}." if kept else ""))
    return 0


async def _migrate(args: argparse.Namespace) -> int:
    if await _missing(args.source):
        raise TransferError(f"there is no database at {args.source}")
    with _in_use(args.source, exclusive=True), _in_use(args.target, exclusive=True):
        async with store_for(args.source) as source, store_for(args.target) as target:
            def said(table: str, rows: int) -> None:
                if rows % 50_000 == 0:
                    print(f"  {table}: {rows:,} rows", flush=True)

            copied = await copy_database(source, target, said)
            print("Copied " + ", ".join(f"{t} {n:,}" for t, n in copied.items() if n) + ".")
            # The proof that nothing was lost: every ladder exports the same from both.
            at = int(time.time())
            ladders = await source.run(lambda repo: repo.every_ladder(), commit=False)
            for ladder in ladders:
                def exported(repo: Any, c: str = ladder.chat, n: str = ladder.name) -> Any:
                    return dispatch.export(repo, c, n, at)

                if await source.run(exported, commit=False) != \
                        await target.run(exported, commit=False):
                    raise TransferError(f"{ladder.chat} {ladder.name} exports differently "
                                        f"after the copy; {args.target} is incomplete")
    print(f"Every ladder ({len(ladders)}) exports the same from {args.target}. Point the "
          "config's [database] at it and start the bot.")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the `ladderbot` console script."""
    parser = arguments.parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 0
    runners = {"console": _console, "export": _export, "import": _import,
               "ladders": _ladders, "run": _run,
               "discord": _discord,
               "web": _web, "backup": _backup, "restore": _restore, "migrate-db": _migrate}
    try:
        if args.command == "console" and sys.stdin.isatty():
            return _terminal_console(args)
        return asyncio.run(runners[args.command](args))
    except (configuration.ConfigError, SchemaTooNew, UnusableDatabase, LadderError,
            BackupError, TransferError, OSError, psycopg.Error) as error:
        print(f"ladderbot {args.command}: {error}", file=sys.stderr)
        return 1
    except sqlite3.Error as error:  # the file went bad, or the disk full, while in use
        print(f"ladderbot {args.command}: the database failed: {error}", file=sys.stderr)
        return 1
    except ValueError as error:
        print(f"ladderbot {args.command}: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
