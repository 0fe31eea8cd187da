"""ladderbot's command line: its commands, their options and how each option's value
is read (bot/cli.py runs them)."""

from __future__ import annotations

import argparse
from typing import Any

from core.domain.calendar import INSTANTS, parse_instant
from core.domain.numerals import is_digits

DESCRIPTION = """\
Ladderbot runs competitive ladders on Discord, Telegram and a console chat.

Try it without any token:   ladderbot console --admin mod
Then type lines like:       @mod: /ladder create main preset=duel
                            @alice: /join
"""


DB_HELP = ("database: a SQLite file or a postgresql:// URL (default: the config's, else "
           "ladder.db)")


def parser() -> argparse.ArgumentParser:
    made = argparse.ArgumentParser(
        prog="ladderbot", description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = made.add_subparsers(dest="command", metavar="COMMAND")
    _reading(sub)
    _running(sub)
    _keeping(sub)
    return made


def _stored(command: argparse.ArgumentParser) -> None:
    """The options that say which database and configuration a command uses."""
    command.add_argument("--db", help=DB_HELP)
    command.add_argument("--config", help="config.toml")


def _chat(command: argparse.ArgumentParser) -> None:
    command.add_argument("--chat", default="console",
                         help="chat key: console, telegram:CHAT_ID or discord:GUILD_ID")


def _reading(sub: Any) -> None:
    """The commands that talk to or read a ladder: console, export, ladders."""
    console = sub.add_parser("console", help="chat with the bot in the terminal (or a script)",
                             description="Read '@NAME: TEXT' and '!time ISO' lines from "
                                         "standard input; print the bot's messages as 'bot: ' "
                                         "lines.")
    console.add_argument("--admin", action="append", default=[], metavar="NAME",
                         help="make NAME a chat administrator (repeatable)")

    export = sub.add_parser("export", help="print a ladder as JSON, or its matches as CSV",
                            description="Print one JSON object describing the ladder as it "
                                        "stands at --at (default: now).")
    _chat(export)
    export.add_argument("--at", type=_instant,
                        help="ISO 8601 instant, e.g. 2026-03-01T09:00:00+00:00 (default: now)")
    export.add_argument("--ladder", help="ladder name (default: the chat's default ladder)")
    export.add_argument("--format", choices=("json", "csv"), default="json",
                        help="json (the ladder as it stands) or csv (its confirmed matches, "
                             "as `ladderbot import` reads them)")
    export.add_argument("--history", action="store_true",
                        help="with json: add the ladder's whole history, which `ladderbot "
                             "import FILE.json` makes a new ladder of")

    imported = sub.add_parser("import",
                              help="bring a match CSV or an exported history into a ladder",
                              description="Replay a match CSV (docs/contracts/console.md) "
                                          "into a ladder, in one transaction: as if each "
                                          "match had been reported and confirmed at its time; "
                                          "or make a new ladder of a history (FILE.json, from "
                                          "`ladderbot export --history`).")
    _chat(imported)
    imported.add_argument("--ladder", required=True, help="the ladder's name")
    imported.add_argument("--preset", help="the rulebook of a ladder the import makes")
    imported.add_argument("--dry-run", action="store_true",
                          help="print the standings it would give, and change nothing")
    imported.add_argument("file", metavar="FILE.csv|FILE.json")
    _stored(imported)

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


def _instant(text: str) -> int:
    """An ISO 8601 instant from the command line, refused with an example if it is not."""
    try:
        return parse_instant(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not an ISO 8601 instant {INSTANTS}, such as "
            "2026-03-01T09:00:00+00:00") from None
