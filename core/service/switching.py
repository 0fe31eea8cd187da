"""`/ladder set preset=...`: a ladder switched to another rulebook, its whole history
re-derived as if it had been made with it (one event, `RulesSwitched`, that every store
follows by folding the log again from its first event). Audited, announced, and undone
by the line its reply gives, which switches back to exactly the settings before.
"""

from __future__ import annotations

import dataclasses

from core.commands.ladders import SwitchRulebook
from core.domain.errors import RuleViolation
from core.domain.events import RulesSwitched
from core.domain.records import Reply
from core.domain.setting_keys import SETTING_SPECS, switched
from core.domain.settings import Settings, format_value
from core.domain.shape import played_refusal
from core.i18n import N_, Number, encode, joined, t
from core.service.session import Session
from core.service.whatif import TOP, cell, top_table

# Who may still report a game of a ladder: its shape must suit the new rulebook too.
_STANDING = ("confirmed", "pending", "disputed")


def switch(s: Session, cmd: SwitchRulebook) -> Reply:
    """Switch the ladder's rulebook; its history is re-derived under it at once."""
    was = s.repo.base_settings(s.ladder.id)
    new = switched(was, s.policy.settings_for(cmd.preset), cmd.options,
                   N_("rules.property"))
    if new == was:
        raise RuleViolation(t("rules.same", ladder=s.ladder.name, preset=new.preset))
    if new.is_position != was.is_position:
        raise RuleViolation(t("rules.family", ladder=s.ladder.name, preset=new.preset))
    games = _check_history(s, new)
    names = {p: i.name for p, i in s.repo.players(s.ladder.id).items()}
    before = top_table(s.repo.state(s.ladder.id), names)
    s.append(RulesSwitched(s.now, new, was, s.ctx.user.name))
    s.refresh()
    after = top_table(s.repo.state(s.ladder.id), names)
    s.audit("rules", "", detail=encode(t("rules.detail", was=was.preset, now=new.preset)))
    rows = [t("whatif.row", place=i + 1, now=cell(before, i), then=cell(after, i))
            for i in range(min(TOP, max(len(before), len(after))))]
    return Reply(joined(
        t("rules.switched", ladder=s.ladder.name, was=was.preset, now=new.preset,
          games=Number(games), count=games), *rows,
        t("rules.back", line=_way_back(s, new, was)), sep="\n"), announce=True)


def _check_history(s: Session, settings: Settings) -> int:
    """Refuse, naming it, the first game of the ladder the new rulebook could not rate;
    the number of games confirmed."""
    confirmed = 0
    for record in sorted(s.repo.matches(s.ladder.id), key=lambda m: m.id):
        if record.status not in _STANDING:
            continue
        confirmed += record.status == "confirmed"
        refusal = played_refusal(settings, record.result, s.ladder.name,
                                 N_("rules.margin_needed"))
        if refusal is not None:
            raise RuleViolation(t("rules.refused", id=record.id, why=refusal))
    return confirmed


def _way_back(s: Session, new: Settings, was: Settings) -> str:
    """The `/ladder set` line that switches back to `was` exactly: its preset, and each
    rule setting it had that its preset's would not give."""
    back = switched(new, s.policy.settings_for(was.preset), (), N_("rules.property"))
    options = [f"{f.name}={format_value(getattr(was, f.name))}"
               for f in dataclasses.fields(Settings)
               if f.name in SETTING_SPECS and getattr(was, f.name) != getattr(back, f.name)]
    named = "" if s.ladder.is_default else f" ladder={s.ladder.name}"
    return " ".join([f"/ladder set preset={was.preset}", *options]) + named
