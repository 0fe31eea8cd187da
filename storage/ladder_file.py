"""A ladder's whole history as JSON, and back into a new ladder: `ladderbot export
--history` and `ladderbot import FILE.json` (CONSOLE.md).

It holds what the standings, tables and history are derived from: the base settings, the
players (their accounts and marks), the event log (in the stored events' own encoding),
every match record (pending and voided ones too), the audit log and the imports. Folding
the same log again gives the same standings, so the round trip is exact by construction.
A chat's own links to its platform (an announcement channel, a moderators' role) and what
is under way (challenges, a queue, tournaments) stay with the chat they were made in.
"""

from __future__ import annotations

import json
from typing import Any

from core.domain.budget import renewed
from core.domain.errors import LadderError, RuleViolation
from core.domain.import_batch import ImportBatch
from core.domain.records import AuditEntry, LadderInfo, MatchRecord, UserRef
from core.i18n import t
from core.ports.repository import Repo
from storage.sql.codec import (
    decode_event,
    dumps,
    encode_event,
    result_from_json,
    result_to_json,
    settings_from_json,
    settings_to_json,
)

VERSION = 1
CHUNK = 1000  # events appended at once (each chunk a command's time budget)
EVERYTHING = 1 << 62  # as many audit lines as there are


def history(repo: Repo, ladder: LadderInfo) -> dict[str, Any]:
    """The ladder's history, as `restore` reads it."""
    lid = ladder.id
    return {
        "version": VERSION, "created": ladder.created_at, "clock": ladder.clock,
        "public": ladder.public,
        "settings": json.loads(settings_to_json(repo.base_settings(lid))),
        "players": [[p, i.user, i.name, i.available, i.banned, i.removed]
                    for p, i in sorted(repo.players(lid).items())],
        "events": [[*encode_event(e)[:2], e.at] for e in repo.events(lid)],
        "matches": [[m.id, m.status, m.reporter, m.reported_at, result_to_json(m.result),
                     m.challenge, m.forfeit, m.confirmed_at, m.disputed_at, m.voided_at,
                     m.note, m.rated] for m in sorted(repo.matches(lid), key=lambda m: m.id)],
        "audit": [[a.at, a.by, a.action, a.reason, a.match, a.player, a.detail]
                  for a in reversed(repo.audit(lid, limit=EVERYTHING))],
        "imports": [[b.id, b.at, b.by, b.first, b.last, list(b.players), b.undone_at]
                    for b in repo.imports(lid)],
    }


def restore(repo: Repo, chat: str, name: str, data: Any) -> LadderInfo:
    """A new ladder `name` of `chat` holding the history `data` (from `history`); a
    LadderError, before anything is kept, where `data` is not such a history."""
    if repo.ladder(chat, name) is not None:
        raise RuleViolation(t("import.json_exists", ladder=name, chat=chat))
    try:
        return _restore(repo, chat, name, data)
    except (KeyError, IndexError, TypeError, ValueError, AttributeError) as error:
        raise LadderError(t("import.json_bad", why=f"{type(error).__name__}: {error}")) \
            from None


def _restore(repo: Repo, chat: str, name: str, data: Any) -> LadderInfo:
    if not isinstance(data, dict) or data.get("version") != VERSION:
        raise ValueError("not a history of version 1 (ladderbot export --history)")
    settings = settings_from_json(dumps(data["settings"]))
    ladder = repo.add_ladder(chat, name, settings, int(data["created"]), None)
    lid = ladder.id
    for pid, user, shown, available, banned, removed in data["players"]:
        made = repo.add_player(lid, UserRef(str(user), str(shown)))
        if made.id != pid:
            raise ValueError(f"player {pid} is out of order")
        repo.update_player(lid, pid, available=bool(available), banned=bool(banned),
                           removed=bool(removed))
    for row in data["matches"]:
        number = repo.new_match_id(lid)
        if number != row[0]:
            raise ValueError(f"match {row[0]} is out of order")
        repo.save_match(MatchRecord(lid, number, row[1], row[2], row[3],
                                    result_from_json(row[4]), *row[5:]))
    events = [decode_event(kind, at, body) for kind, body, at in data["events"]]
    for start in range(0, len(events), CHUNK):
        with renewed():
            repo.append(lid, events[start:start + CHUNK])
    repo.update_ladder(lid, clock=int(data["clock"]), public=bool(data["public"]))
    for at, by, action, reason, match, player, detail in data["audit"]:
        repo.add_audit(AuditEntry(lid, at, by, action, reason, match, player, detail))
    for number, at, by, first, last, players, undone in data["imports"]:
        repo.save_import(ImportBatch(lid, number, at, by, first, last, tuple(players), undone))
    return repo.ladder(chat, name) or ladder
