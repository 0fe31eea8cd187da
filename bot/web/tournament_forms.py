"""The moderator page's tournaments (issue 55): the ladder's tournaments with their state,
and the forms that create, start and cancel one. Each form stands for the chat's
`/tournament` line, so the chat's parser and command check it, in the same words.
"""

from __future__ import annotations

from typing import Any

from core.commands.tournaments import FORMATS, MAX_ROUND_HOURS, MAX_ROUNDS
from core.domain.records import LadderInfo
from core.domain.settings import MAX_BESTOF
from core.i18n import render, t
from core.ports.repository import PlatformRepo
from core.service.queries.views import ladder_tournaments

ACTIONS = ("tournament_create", "tournament_start", "tournament_cancel")
_NUMBERS = ("rounds", "bestof", "round_hours")
_FLAGS = ("rated", "reset")
_LIVE = ("open", "running")  # the states a tournament may still be cancelled in


def tournament_line(form: dict[str, str], reason: str) -> str | None:
    """The `/tournament` line a form stands for (None: one no page makes). A name is one
    word with no `=`, so it can carry no option of its own."""
    action, name = form.get("action", ""), form.get("name", "").strip()
    if not name or len(name.split()) != 1 or "=" in name:
        return None
    if action == "tournament_start":
        return f"/tournament start {name}"
    if action == "tournament_cancel":
        return f"/tournament cancel {name} {reason}" if reason else None
    if form.get("format") not in {f.value for f in FORMATS}:
        return None
    options = [f"format={form['format']}"]
    for key in _NUMBERS:
        value = form.get(key, "").strip()
        if value and not (value.isdigit() and len(value) <= 4):
            return None
        options += [f"{key}={value}"] if value else []
    for key in _FLAGS:
        if form.get(key, "true") not in ("true", "false"):
            return None
        options.append(f"{key}={form.get(key, 'true')}")
    return f"/tournament create {name} {' '.join(options)}"


def tournaments_shown(repo: PlatformRepo, ladder: LadderInfo) -> dict[str, Any]:
    """The page's tournaments (each with whether it may be started or cancelled), and
    the create form's formats and limits in the ladder's words."""
    found = ladder_tournaments(repo, ladder)
    for each in found:
        each["startable"] = each["status"] == "open"
        each["cancellable"] = each["status"] in _LIVE
    language = ladder.settings.language
    return {"tournaments": found,
            "formats": [(f.value, render(t(code), language)) for f, code in FORMATS.items()],
            "limits": {"rounds": MAX_ROUNDS, "bestof": MAX_BESTOF,
                       "round_hours": MAX_ROUND_HOURS}}
