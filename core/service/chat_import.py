"""`/ladder import NAME [preset=P]` from a moderator's chat, with the match CSV sent with it
(a Discord attachment, a Telegram document): the dry run first, what `ladderbot import
--dry-run` shows, then, once a moderator confirms (the adapters' Confirm import button
runs the command again with the same file), the import itself, undone at once by the
line its reply gives. Every check is made again on the confirmation.
"""

from __future__ import annotations

from core.commands.ladders import ImportFile
from core.domain.calendar import iso
from core.domain.errors import RuleViolation, UsageError
from core.domain.match_file import read_match_file
from core.domain.records import Context, Reply
from core.domain.settings import Policy
from core.i18n import Message, Number, joined, listed, t
from core.ports.repository import Repo
from core.service.importing import Imported, import_matches
from core.service.whatif import TOP, rolled_back, top_table

# The largest file a chat import takes: about 18,000 matches, a second or two of the
# ladder's time (a longer history goes in with `ladderbot import`).
CHAT_FILE = 1024 * 1024
NEW_LADDER = "/ladder import NEW preset=PRESET"  # (older history's way, said in a chat)


def import_file(repo: Repo, ctx: Context, cmd: ImportFile, policy: Policy) -> Reply:
    """The dry run of the file sent with the command, or, confirmed, the import."""
    data = ctx.attachment
    if data is None:
        raise UsageError(t("chat_import.attach", name=cmd.name))
    if len(data) > CHAT_FILE:
        raise RuleViolation(t("chat_import.too_large", most=Number(CHAT_FILE // 1024)))
    settings = policy.settings_for(cmd.preset) if cmd.preset else None
    matches = read_match_file(data)  # (a line it cannot read: refused, naming the line)
    if not matches:
        raise RuleViolation(t("import.nothing"))

    def work() -> tuple[Imported, list[tuple[str, str]]]:
        done = import_matches(repo, ctx.chat, cmd.name, settings, matches, ctx.at,
                              by=ctx.user, how=NEW_LADDER)
        return done, _table(repo, ctx.chat, done.ladder)

    done, table = work() if cmd.confirmed else rolled_back(repo, work)
    return Reply(joined(*_said(done, table, cmd.confirmed), sep="\n"), ladder=done.ladder,
                 previewed=None if cmd.confirmed else (cmd.name, cmd.preset),
                 announce=cmd.confirmed)


def _table(repo: Repo, chat: str, name: str) -> list[tuple[str, str]]:
    """The top of the ladder's standings."""
    ladder = repo.ladder(chat, name)
    assert ladder is not None
    return top_table(repo.state(ladder.id),
                     {p: i.name for p, i in repo.players(ladder.id).items()})


def _said(done: Imported, table: list[tuple[str, str]], confirmed: bool) -> list[Message]:
    """What the import did (or would do), and the standings it gives."""
    lines: list[Message] = [t("import.done" if confirmed else "chat_import.would",
                              count=len(done.matches), ladder=done.ladder,
                              first=iso(done.first or 0), last=iso(done.last or 0))]
    if done.new_players:
        lines.append(t("import.new_players", count=len(done.new_players),
                       names=listed(list(done.new_players))))
    lines += [f"{place}. {name} {shown}" for place, (name, shown) in enumerate(table[:TOP], 1)]
    lines.append(t("import.batch", id=done.batch, ladder=done.ladder) if confirmed
                 else t("chat_import.confirm"))
    return lines
