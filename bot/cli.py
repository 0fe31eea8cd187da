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

from bot import config as configuration
from bot.backup import BackupError, backup, restore, running
from bot.bootstrap import bootstrap
from bot.console import Console, input_lines, interactive
from bot.runtime import NO_PLATFORM
from core.domain.calendar import INSTANTS, parse_instant
from core.domain.errors import LadderError, NoLadder
from core.domain.numerals import is_digits
from core.service import dispatch
from core.service.queries.ladders import member_count
from storage.files import UnusableDatabase
from storage.postgres import is_url, store_for
from storage.schema import SchemaTooNew
from storage.transfer import TransferError, copy_database

DESCRIPTION = """\
Ladderbot runs competitive ladders on Discord, Telegram and a console chat.

Try it without any token:   ladderbot console --admin mod
Then type lines like:       @mod: /ladder create main preset=duel
                            @alice: /join
"""


DB_HELP = ("database: a SQLite file or a postgresql:// URL (default: the config's, else "
           "ladder.db)")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="ladderbot", description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    _reading(sub)
    _running(sub)
    _keeping(sub)
    return parser


def _stored(command: argparse.ArgumentParser) -> None:
    """The options that say which database and configuration a command uses."""
    command.add_argument("--db", help=DB_HELP)
    command.add_argument("--config", help="config.toml")


def _reading(sub: Any) -> None:
    """The commands that talk to or read a ladder: console, export, ladders."""
    console = sub.add_parser("console", help="chat with the bot in the terminal (or a script)",
                             description="Read '@NAME: TEXT' and '!time ISO' lines from "
                                         "standard input; print the bot's messages as 'bot: ' "
                                         "lines.")
    console.add_argument("--admin", action="append", default=[], metavar="NAME",
                         help="make NAME a chat administrator (repeatable)")

    export = sub.add_parser("export", help="print a ladder as JSON",
                            description="Print one JSON object describing the ladder as it "
                                        "stands at --at (default: now).")
    export.add_argument("--chat", default="console",
                        help="chat key: console, telegram:CHAT_ID or discord:GUILD_ID")
    export.add_argument("--at", type=_instant,
                        help="ISO 8601 instant, e.g. 2026-03-01T09:00:00+00:00 (default: now)")
    export.add_argument("--ladder", help="ladder name (default: the chat's default ladder)")

    ladders = sub.add_parser("ladders", help="list every chat and ladder in a database",
                             description="One line per ladder: its chat key (for export "
                                         "--chat), name, rulebook and members.")
    _stored(console)
    _stored(export)
    _stored(ladders)


def _running(sub: Any) -> None:
    """The commands that run the bot: run, web, discord sync."""
    run = sub.add_parser("run", help="run the bot on every configured platform",
                         description="Start the bot for every platform whose token is "
                                     "configured, with the scheduler; stop with Ctrl-C or "
                                     "SIGTERM.")
    run.add_argument("--shards", type=_shard_range, metavar="FIRST-LAST",
                     help="run only these Discord shards (e.g. 0-3), so several processes "
                          "share one bot; needs --shard-count")
    run.add_argument("--shard-count", type=int, metavar="N",
                     help="how many shards the whole bot has")

    web = sub.add_parser("web", help="serve the public web pages of a database",
                         description="Serve the public ladders' pages and JSON API (read "
                                     "only) until Ctrl-C.")
    web.add_argument("--listen", help="HOST:PORT (default: the config's, else 127.0.0.1:8080)")

    discord = sub.add_parser("discord", help="Discord tools")
    tools = discord.add_subparsers(dest="discord_command", metavar="TOOL", required=True)
    sync = tools.add_parser("sync", help="register the slash commands with Discord",
                            description="Register the slash commands globally, or in one "
                                        "server with --guild (instant, for testing).")
    sync.add_argument("--config", help="config.toml")
    sync.add_argument("--guild", type=int, help="register in this server only")
    sync.add_argument("--dry-run", action="store_true",
                      help="print the JSON payloads instead (no token needed)")
    _stored(run)
    _stored(web)


def _keeping(sub: Any) -> None:
    """The commands that keep the database: backup, restore, migrate-db."""
    backup = sub.add_parser("backup", help="copy the database, safely while the bot runs",
                            description="Write a consistent copy of the database to PATH "
                                        "(SQLite's online backup API; the bot may keep "
                                        "running), then check the copy.")
    backup.add_argument("path", metavar="PATH",
                        help="the copy's file, or a folder to put a dated copy in")

    restore = sub.add_parser("restore", help="put a backup in place of the database",
                             description="Check the backup at PATH (integrity, a Ladderbot "
                                         "database, not from a newer version), keep the "
                                         "current database beside it as "
                                         "DB.before-restore-STAMP, and swap the backup in. "
                                         "Stop the bot first.")
    restore.add_argument("path", metavar="PATH", help="the backup to restore")

    move = sub.add_parser("migrate-db", help="copy every ladder to another database",
                          description="Copy a whole database (every ladder, its log, standings "
                                      "and history) into an empty one: SQLite to PostgreSQL or "
                                      "back. Stop the bot first. Every ladder's export is "
                                      "compared before and after.")
    move.add_argument("--from", dest="source", required=True, metavar="DB",
                      help="the database now: a SQLite file or a postgresql:// URL")
    move.add_argument("--to", dest="target", required=True, metavar="DB",
                      help="the new, empty database")
    _stored(backup)
    _stored(restore)


def _shard_range(text: str) -> list[int]:
    first, _, last = text.partition("-")
    if not (is_digits(first) and is_digits(last or first)) or int(last or first) < int(first):
        raise argparse.ArgumentTypeError("write shards as FIRST-LAST, e.g. 0-3")
    return list(range(int(first), int(last or first) + 1))


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
        async with store_for(path) as store:
            console = Console(store, args.admin, sys.stdout, sys.stderr, config.policy)
            await console.run(input_lines(sys.stdin))
    return 0


def _terminal_console(args: argparse.Namespace) -> int:
    """The console on a terminal: lines edited with readline; Ctrl-C quits at once."""
    config, path = _database(args)
    store = store_for(path)

    async def start() -> Console:
        await store.__aenter__()
        return Console(store, args.admin, sys.stdout, sys.stderr, config.policy)

    async def stop() -> None:
        await store.__aexit__(None, None, None)

    with _in_use(path):
        interactive(start, stop)
    return 0


def _instant(text: str) -> int:
    """An ISO 8601 instant from the command line, refused with an example if it is not."""
    try:
        return parse_instant(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not an ISO 8601 instant {INSTANTS}, such as "
            "2026-03-01T09:00:00+00:00") from None


async def _export(args: argparse.Namespace) -> int:
    _, path = _database(args)
    at = args.at if args.at is not None else int(time.time())
    async with store_for(path, existing=True) as store:
        try:
            data = await store.run(lambda repo: dispatch.export(repo, args.chat, args.ladder, at),
                                   commit=False)
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
    from bot.web.pages import Web

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
    import discord

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
        async with store_for(path) as store:
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
    parser = _parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 0
    runners = {"console": _console, "export": _export, "ladders": _ladders, "run": _run,
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
