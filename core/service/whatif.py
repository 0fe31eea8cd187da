"""`/ladder whatif`: the ladder's history under another rulebook or other settings, side by
side with its standings now, and how well each predicted the games that were played.

The other side is an import of the ladder's confirmed matches into a new ladder with those
settings (core.service.importing), caught up to now and then rolled back: so it is exactly
what importing the history into a new ladder would give, and nothing is changed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from core.commands.ladders import WhatIf
from core.domain.errors import RuleViolation
from core.domain.events import MatchConfirmed, collect_corrections
from core.domain.match_file import FileMatch, FileRefused
from core.domain.model import PlayerId
from core.domain.prediction import Forecast
from core.domain.records import MatchRecord, Reply
from core.domain.rulebooks import choose
from core.domain.setting_keys import switched
from core.domain.settings import Settings
from core.domain.state import LadderState
from core.i18n import N_, Message, Number, joined, t
from core.ports.repository import Repo
from core.service.importing import import_matches
from core.service.jobs import catch_up
from core.service.session import Session

TOP = 10  # places of each table shown
T = TypeVar("T")


class _Undone(Exception):
    """Carries the work's outcome out of its savepoint, which rolls it back."""

    def __init__(self, outcome: Any) -> None:
        super().__init__()
        self.outcome = outcome


def rolled_back(repo: Repo, work: Callable[[], T]) -> T:
    """What `work` gives, everything it wrote rolled back (a what-if, a dry run)."""
    try:
        with repo.savepoint():
            raise _Undone(work())
    except _Undone as undone:
        found: T = undone.outcome
        return found


def whatif(s: Session, cmd: WhatIf) -> Reply:
    """Replay the history under the asked settings; compare the tables and predictions."""
    settings = _settings(s, cmd)
    played = sorted((m for m in s.repo.matches(s.ladder.id) if m.status == "confirmed"),
                    key=lambda m: (m.reported_at, m.id))
    if not played:
        raise RuleViolation(t("whatif.nothing", ladder=s.ladder.name))
    names = {p: i.name for p, i in s.repo.players(s.ladder.id).items()}
    now = _predicted_now(s)
    then = Forecast()
    try:
        table = rolled_back(s.repo, lambda: _replayed(s, settings, _as_file(played, names),
                                                      then))
    except FileRefused as refused:
        raise RuleViolation(t("whatif.refused", id=refused.line, why=refused.why)) from None
    state = s.repo.state(s.ladder.id)
    mine = top_table(state, names)
    rows = [t("whatif.row", place=i + 1, now=cell(mine, i), then=cell(table, i))
            for i in range(min(TOP, max(len(mine), len(table))))]
    rules = ", ".join([cmd.preset or s.settings.preset, *(f"{k}={v}" for k, v in cmd.options)])
    return Reply(joined(
        t("whatif.head", ladder=s.ladder.name, games=Number(len(played)), count=len(played),
          now=s.settings.preset, then=rules),
        *rows, _predicted(now, s.settings.preset), _predicted(then, rules),
        t("whatif.nothing_changed"), sep="\n"))


def _settings(s: Session, cmd: WhatIf) -> Settings:
    """The what-if's settings: the preset's (else the ladder's), keeping what a switch to
    it keeps of the ladder's (`/ladder set preset=`), with the options."""
    to = s.policy.settings_for(cmd.preset) if cmd.preset else s.settings
    return switched(s.settings, to, cmd.options, N_("whatif.property"))


def _as_file(played: Sequence[MatchRecord], names: dict[PlayerId, str]) -> list[FileMatch]:
    """The confirmed matches as an import reads them, each line numbered by its match."""
    return [FileMatch(m.id, m.reported_at, tuple(tuple(names[p] for p in side)
                                                 for side in m.result.sides),
                      names[m.reporter], m.result.draw, m.result.score, m.result.margin,
                      m.result.moves, m.result.rated) for m in played]


def _replayed(s: Session, settings: Settings, matches: list[FileMatch],
              forecast: Forecast) -> list[tuple[str, str]]:
    """The history imported into a new ladder of `settings` (a chat of its own), caught up
    to now: its table."""
    chat = f"whatif:{s.ladder.id}"
    done = import_matches(s.repo, chat, s.ladder.name, settings, matches, s.now,
                          observe=forecast.see)
    ladder = s.repo.ladder(chat, done.ladder)
    assert ladder is not None
    catch_up(s.repo, ladder, s.now)
    return top_table(s.repo.state(ladder.id),
                  {p: i.name for p, i in s.repo.players(ladder.id).items()})


def _predicted_now(s: Session) -> Forecast:
    """The ladder's own predictions: its log replayed, each game seen before it is folded
    (as finally corrected; voided games left out)."""
    events = s.repo.events(s.ladder.id)
    corrections = collect_corrections(events)
    state = LadderState(s.repo.base_settings(s.ladder.id))
    forecast = Forecast()
    for event in events:
        if isinstance(event, MatchConfirmed):
            fixed = corrections.get(event.match.id)
            if fixed is None or not fixed.voided:
                forecast.see(state, fixed.result if fixed is not None and fixed.result
                             else event.match.result)
        state.apply(event, corrections)
    return forecast


def top_table(state: LadderState, names: dict[PlayerId, str]) -> list[tuple[str, str]]:
    """The members, best first, as (name, rating or rung shown)."""
    book, settings = choose(state.settings), state.settings
    members = [(p, st) for p, st in state.players.items() if st.member]
    if settings.is_position:
        members.sort(key=lambda m: (state.rung(m[0]) or 0, names[m[0]]))
    else:
        members.sort(key=lambda m: (-m[1].rating, names[m[0]]))
    return [(names[p], book.shown(settings, st)) for p, st in members[:TOP]]


def cell(table: list[tuple[str, str]], i: int) -> str:
    return f"{table[i][0]} {table[i][1]}" if i < len(table) else "—"


def _predicted(forecast: Forecast, preset: str) -> Message:
    share, loss = forecast.share, forecast.log_loss
    if share is None:
        return t("whatif.no_duels", preset=preset)
    percent = Number(round(100 * share))
    if loss is None:
        return t("whatif.predicted_share", preset=preset, share=percent,
                 games=Number(forecast.games), count=forecast.games)
    return t("whatif.predicted", preset=preset, share=percent, games=Number(forecast.games),
             count=forecast.games, loss=Number(round(loss, 3)))
