"""`ladderbot import` of a match CSV (CONSOLE.md): each match put into the ladder's
history as if it had been reported and confirmed at its time, with the jobs that fall
between them (decay days, season closes), in the caller's one transaction.

A ladder that does not exist yet is made at the first match's time. An existing one
takes matches from its clock on: the jobs it ran up to its clock cannot be run again
around matches slipped in before it. A name the ladder does not know becomes a player
who is nobody's yet (`UNCLAIMED`), joined at their first match.
"""

from __future__ import annotations

import dataclasses
from bisect import bisect_right
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from core.domain.batch import Observer
from core.domain.budget import renewed
from core.domain.calendar import iso
from core.domain.errors import NoLadder, RuleViolation
from core.domain.events import PlayerJoined
from core.domain.import_batch import UNCLAIMED, ImportBatch
from core.domain.match_file import FileMatch, FileRefused, check_shapes
from core.domain.model import PlayerId, Result, Timestamp
from core.domain.names import shown_name
from core.domain.records import (
    AuditEntry,
    Context,
    LadderInfo,
    MatchRecord,
    PlayerInfo,
    UserRef,
)
from core.domain.settings import Settings
from core.i18n import encode, t
from core.ports.repository import Repo
from core.service.handlers.reporting import confirm_match
from core.service.jobs import catch_up
from core.service.planning import schedule
from core.service.session import Session

IMPORTER = UserRef("system:import", "import")
# Plain matches appended together at most: a run's fold and rows stay well within one
# command's time budget (core.domain.budget) and a few megabytes.
LONGEST_RUN = 4096
NEW_LADDER = "--ladder NEW --preset PRESET"  # (ladderbot import's way: the command line)


@dataclass(frozen=True, slots=True)
class Imported:
    """What an import did: its ladder, matches (their ids) and the players it made."""

    ladder: str
    batch: int  # its number, for /mod undo-import
    matches: tuple[int, ...]
    new_players: tuple[str, ...]
    first: Timestamp | None
    last: Timestamp | None


def import_matches(repo: Repo, chat: str, name: str, settings: Settings | None,
                   matches: Sequence[FileMatch], now: Timestamp,
                   by: UserRef = IMPORTER,
                   observe: Observer | None = None,
                   progress: Callable[[int], None] | None = None,
                   how: str = NEW_LADDER) -> Imported:
    """Put `matches` into the ladder `name` of `chat`, made with `settings` where there
    is none, as one import (kept, to be undone at once) made by `by` at `now`;
    FileRefused (at its line) or RuleViolation before the first is applied. `observe`
    sees each match's result with the standings just before it (/ladder whatif's
    predictions); `progress` is told how many more matches are in (a progress bar);
    `how` a new ladder is asked for, where the ladder is older than the file."""
    late = bisect_right(matches, now, key=lambda m: m.at)  # (they are in order)
    if late < len(matches):  # (a ladder's clock never runs ahead of time)
        raise FileRefused(matches[late].line, t("import.future", at=iso(matches[late].at),
                                                now=iso(now)))
    ladder = _ladder(repo, chat, name, settings, matches, how)
    check_shapes(list(matches), ladder.settings, ladder.name)
    shown: dict[str, str] = {}  # (a long file names few players, many times)
    matches = [_shown(m, shown) for m in matches]
    players = repo.players(ladder.id)
    ids = {info.name: p for p, info in players.items()}
    _check_players(ladder, players, ids, matches)
    # Players an import undone made, nobody's yet: they join again at their next match.
    away = {p for p, info in players.items() if not info.member and info.user.startswith(UNCLAIMED)}
    made: list[PlayerInfo] = []
    ladder, done = _apply(repo, ladder, matches, _Names(ids, away, made), observe, progress)
    batch = ImportBatch(ladder.id, len(repo.imports(ladder.id)) + 1, now, by.name,
                        done[0] if done else 1, done[-1] if done else 0,
                        tuple(p.id for p in made))
    repo.save_import(batch)
    repo.add_audit(AuditEntry(ladder.id, now, by.name, "import", "", None, None,
                              encode(batch.named())))
    return Imported(ladder.name, batch.id, tuple(done), tuple(p.name for p in made),
                    matches[0].at if matches else None, matches[-1].at if matches else None)


@dataclass(frozen=True, slots=True)
class _Names:
    """The file's names as the import goes: the ladder's players by name, those away
    (nobody's yet, after an undone import) and those it made."""

    ids: dict[str, PlayerId]
    away: set[PlayerId]
    made: list[PlayerInfo]


def _apply(repo: Repo, ladder: LadderInfo, matches: Sequence[FileMatch], names: _Names,
           observe: Observer | None, progress: Callable[[int], None] | None
           ) -> tuple[LadderInfo, list[int]]:
    """Every match in order, plain ones appended in runs: the ladder as it stands after,
    and the matches' numbers."""
    ids, away = names.ids, names.away
    done: list[int] = []
    run: list[FileMatch] = []  # plain one-on-one matches, appended together

    def flush() -> None:
        if run:
            done.extend(_append_run(repo, ladder, run, ids, observe))
            if progress is not None:
                progress(len(run))
            run.clear()

    for match in matches:
        if _plain(match, ids, away) and not _due(ladder, match.at):
            run.append(match)
            if len(run) == LONGEST_RUN:
                flush()
            continue
        flush()
        with renewed():  # (each match a command's budget: a long import is many)
            ladder, number = _one(repo, ladder, match, ids, names.made, away, observe)
        done.append(number)
        if progress is not None:
            progress(1)
    flush()
    return ladder, done


def _plain(match: FileMatch, ids: Mapping[str, PlayerId], away: set[PlayerId]) -> bool:
    """Whether a match may go in with a run (`Repo.append_duels`): one on one, with no
    margin or score, between players on the ladder already."""
    if len(match.sides) != 2 or match.margin is not None or match.score is not None:
        return False
    (a, *more), (b, *others) = match.sides
    return not more and not others and a in ids and b in ids and ids[a] not in away \
        and ids[b] not in away


def _due(ladder: LadderInfo, at: Timestamp) -> bool:
    """Whether a job falls due by `at` (catch_up would run it): a run stops before it.
    (A tournament under way may take a match as its game: also one at a time.)"""
    return ladder.contested or (ladder.next_due is not None and at >= ladder.next_due
                                and at > ladder.clock)


def _append_run(repo: Repo, ladder: LadderInfo, run: Sequence[FileMatch],
                ids: Mapping[str, PlayerId], observe: Observer | None = None) -> range:
    """Plain matches in at once, numbered on from the ladder's next (each seen by
    `observe` before it is folded); their numbers."""
    first = repo.new_match_id(ladder.id)
    rows = [(m.at, ids[m.sides[0][0]], ids[m.sides[1][0]], m.draw, m.rated, m.moves, m.at,
             number) for number, m in enumerate(run, first)]
    with renewed():  # (a run is one command's worth of time: LONGEST_RUN says how long)
        repo.append_duels(ladder.id, rows, [ids[m.reporter] for m in run], observe)
    return range(first, first + len(run))


def _shown(match: FileMatch, shown: dict[str, str]) -> FileMatch:
    """A match with its players' names as the bot shows names (core.domain.names): what a
    player typed is never a mention or a command. (`shown`: the names shown so far.)"""
    names = [n for side in match.sides for n in side]
    for name in names:
        if name not in shown:
            shown[name] = shown_name(name)
    if all(shown[n] == n for n in names):  # (the reporter is one of them)
        return match
    return dataclasses.replace(match, sides=tuple(tuple(shown[n] for n in side)
                                                  for side in match.sides),
                               reporter=shown[match.reporter])


def _one(repo: Repo, ladder: LadderInfo, match: FileMatch, ids: dict[str, PlayerId],
         made: list[PlayerInfo], away: set[PlayerId],
         observe: Observer | None) -> tuple[LadderInfo, int]:
    """One match, after the jobs due by its time: the ladder as it stands after, and the
    match's number."""
    catch_up(repo, ladder, match.at)
    ladder = repo.ladder(ladder.chat, ladder.name) or ladder  # (its clock moved on)
    s = Session(repo, Context(ladder.chat, IMPORTER, match.at), ladder)
    for player in (n for side in match.sides for n in side):
        if player not in ids:
            info = repo.add_player(ladder.id, UserRef(UNCLAIMED + player, s.told_apart(player)))
            ids[player] = info.id
            made.append(info)
        elif ids[player] not in away:
            continue
        away.discard(ids[player])
        s.append(PlayerJoined(match.at, ids[player]))
    result = Result(tuple(tuple(ids[n] for n in side) for side in match.sides),
                    match.draw, match.margin, match.moves, match.rated, match.score)
    if observe is not None:
        observe(repo.state(ladder.id), result)
    record = MatchRecord(ladder.id, repo.new_match_id(ladder.id), "pending",
                         ids[match.reporter], match.at, result)
    confirm_match(s, record, match.at, quiet=True)
    return ladder, record.id


def _ladder(repo: Repo, chat: str, name: str, settings: Settings | None,
            matches: Sequence[FileMatch], how: str) -> LadderInfo:
    """The ladder to import into: made at the first match's time if there is none
    (`how`: how a new one is asked for, for the refusal of older history)."""
    ladder = repo.ladder(chat, name)
    if ladder is not None and matches and matches[0].at < ladder.clock \
            and repo.state(ladder.id).seq == 0:
        # Made and empty (/ladder create, then the import; nobody joined): nothing has
        # happened on it since the file's first match, so it runs from there.
        repo.update_ladder(ladder.id, clock=matches[0].at)
        schedule(repo, chat, name)
        ladder = repo.ladder(chat, name)
    if ladder is not None:
        if matches and matches[0].at < ladder.clock:
            raise RuleViolation(t("import.before_clock", ladder=ladder.name,
                                  clock=iso(ladder.clock), first=iso(matches[0].at),
                                  line=matches[0].line, how=how))
        return ladder
    if settings is None:
        raise NoLadder(t("import.no_ladder", ladder=name, chat=chat))
    repo.add_ladder(chat, name, settings, matches[0].at if matches else 0, None)
    schedule(repo, chat, name)  # (its jobs, as /ladder create plans them: run between matches)
    made = repo.ladder(chat, name)
    assert made is not None
    return made


def _check_players(ladder: LadderInfo, players: Mapping[PlayerId, PlayerInfo],
                   ids: dict[str, PlayerId], matches: Sequence[FileMatch]) -> None:
    """Refuse, at its first line, a known name that is not on the ladder now."""
    for match in matches:
        for name in (n for side in match.sides for n in side if n in ids):
            info = players[ids[name]]
            if info.banned or (not info.member and not info.user.startswith(UNCLAIMED)):
                raise FileRefused(match.line, t("import.not_member", name=name,
                                                ladder=ladder.name))
