"""The in-memory twin of the SQLite store, for fast unit tests.

It keeps each ladder as a `core.domain.ledger.Ledger` and computes every read from the
replayed standings with the rules in core, independently of the SQL the real store
runs; the storage contract tests hold both to the same answers.
"""

from __future__ import annotations

import dataclasses
import pickle
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field

from core.domain.batch import Observer, Row, plain_event
from core.domain.calendar import DAY
from core.domain.events import DecayDay, Event, SeasonClosed
from core.domain.ledger import Ledger, Rederived
from core.domain.model import PlayerId, Timestamp
from core.domain.records import (
    AuditEntry,
    ChallengeRecord,
    ChangeRecord,
    LadderInfo,
    MatchRecord,
    PlayerInfo,
    UserRef,
)
from core.domain.settings import Settings
from core.domain.standing import Applied, PlayerState
from core.domain.state import LadderState
from core.domain.tables import HallEntry, TableRow, gain_table, ladder_table
from core.ports.hints import NoHints
from core.ports.repository import DAY_RANKS
from storage.memory.following import FollowingData, MemoryFollowing
from storage.memory.platform import MemoryPlatform, PlatformData
from storage.memory.sharing import MemorySharing, SharingData
from storage.sql.projection import change_rows


@dataclass
class MemoryData:
    ladders: dict[int, LadderInfo] = field(default_factory=dict)
    ledgers: dict[int, Ledger] = field(default_factory=dict)
    players: dict[int, dict[PlayerId, PlayerInfo]] = field(default_factory=dict)
    matches: dict[int, dict[int, MatchRecord]] = field(default_factory=dict)
    challenges: dict[int, dict[int, ChallengeRecord]] = field(default_factory=dict)
    audit: dict[int, list[AuditEntry]] = field(default_factory=dict)
    changes: dict[int, list[ChangeRecord]] = field(default_factory=dict)
    day_ranks: dict[int, dict[PlayerId, int]] = field(default_factory=dict)
    counters: dict[tuple[int, str], int] = field(default_factory=dict)
    exports: dict[str, str] = field(default_factory=dict)  # deleted ladders' exports
    following: FollowingData = field(default_factory=FollowingData)
    platform: PlatformData = field(default_factory=PlatformData)
    sharing: SharingData = field(default_factory=SharingData)


class MemoryRepo(MemoryFollowing, MemoryPlatform, MemorySharing, NoHints):
    """The Repo protocol over plain Python structures (nothing to read ahead: it is all
    in memory)."""

    def __init__(self, data: MemoryData, snapshot_every: int) -> None:
        self.d = data
        self.snapshot_every = snapshot_every

    @property
    def following(self) -> FollowingData:  # (MemoryFollowing's tables)
        return self.d.following

    @property
    def platform(self) -> PlatformData:  # (MemoryPlatform's tables)
        return self.d.platform

    @property
    def sharing(self) -> SharingData:  # (MemorySharing's tables)
        return self.d.sharing

    @contextmanager
    def savepoint(self) -> Iterator[None]:
        saved = copied(self.d)
        try:
            yield
        except BaseException:
            self.d.__dict__.update(saved.__dict__)
            raise

    # ---- ladders
    def every_ladder(self) -> list[LadderInfo]:
        return [self._info(i) for i in sorted(self.d.ladders)]

    def ladders(self, chat: str) -> list[LadderInfo]:
        own = [lad for lad in self.every_ladder() if lad.chat == chat]
        found = own + self.shared_ladders(chat)
        return [dataclasses.replace(lad, several=len(found) > 1) for lad in found]

    def ladder(self, chat: str, name: str | None) -> LadderInfo | None:
        for lad in self.ladders(chat):
            if (lad.name == name) if name is not None else lad.is_default:
                return lad
        return None

    def _info(self, ladder: int) -> LadderInfo:
        info = self.d.ladders[ladder]
        state = self.d.ledgers[ladder].state
        return dataclasses.replace(info, settings=state.settings, season=state.season,
                                   last_decay=state.last_decay, shared=self._is_shared(ladder),
                                   contested=any(t.live for t in self.tournaments(ladder)))

    def add_ladder(self, chat: str, name: str, settings: Settings, at: Timestamp,
                   channel: str | None) -> LadderInfo:
        ladder = max(self.d.ladders, default=0) + 1  # (a deleted ladder leaves a gap)
        first = not self.ladders(chat)
        self.d.ladders[ladder] = LadderInfo(ladder, chat, name, settings, at, at, first, channel)
        self.d.ledgers[ladder] = Ledger(settings, self.snapshot_every)
        for table in (self.d.players, self.d.matches, self.d.challenges):
            table[ladder] = {}
        self.d.audit[ladder] = []
        self.d.changes[ladder] = []
        return self._info(ladder)

    def delete_ladder(self, ladder: int) -> None:
        self.unshare(ladder)
        for table in (self.d.ladders, self.d.ledgers, self.d.players, self.d.matches,
                      self.d.challenges, self.d.audit, self.d.changes, self.d.day_ranks,
                      self.d.platform.queues, self.d.platform.tournaments,
                      self.d.platform.imports):
            table.pop(ladder, None)
        for key in [k for k in self.d.counters if k[0] == ladder]:
            del self.d.counters[key]
        self.d.following.forget(ladder)

    def keep_export(self, chat: str, name: str, text: str, at: Timestamp) -> str:
        where = f"memory:{chat}/{name}/{at}"
        self.d.exports[where] = text
        return where

    def update_ladder(self, ladder: int, *, clock: Timestamp | None = None,
                      is_default: bool | None = None, channel: str | None = None,
                      public: bool | None = None, next_due: Timestamp | None = None,
                      mod_role: str | None = None, name: str | None = None,
                      chat: str | None = None) -> None:
        info = self.d.ladders[ladder]
        given = dict(clock=clock, is_default=is_default, channel=channel, public=public,
                     next_due=next_due, mod_role=mod_role, name=name)
        # ("" clears next_due and mod_role.)
        changes: dict[str, object] = {k: v or None if k in ("next_due", "mod_role") else v
                                      for k, v in given.items() if v is not None}
        own: dict[str, object] = {k: changes.pop(k) for k in ("is_default", "channel", "name",
                                                                "mod_role") if k in changes}
        if chat is None or chat == info.chat or not self._update_share(ladder, chat, own):
            changes.update(own)
        self.d.ladders[ladder] = dataclasses.replace(info, **changes)  # type: ignore[arg-type]

    def due_ladders(self, now: Timestamp) -> list[LadderInfo]:
        return [lad for lad in self.every_ladder()
                if lad.next_due is not None and lad.next_due <= now]

    # ---- players
    def player_for(self, ladder: int, user: str) -> PlayerInfo | None:
        for p in self.d.players[ladder].values():
            if p.user == user:
                return self._player(ladder, p)
        return None

    def _player(self, ladder: int, info: PlayerInfo) -> PlayerInfo:
        state = self.d.ledgers[ladder].state.players.get(info.id)
        return dataclasses.replace(info, member=state is not None and state.member)

    def players(self, ladder: int,
                ids: Sequence[PlayerId] | None = None) -> dict[PlayerId, PlayerInfo]:
        table = self.d.players[ladder]
        wanted = table if ids is None else [i for i in ids if i in table]
        return {i: self._player(ladder, table[i]) for i in wanted}

    def add_player(self, ladder: int, user: UserRef) -> PlayerInfo:
        pid = len(self.d.players[ladder]) + 1
        info = PlayerInfo(ladder, pid, user.key, user.name, member=False)
        self.d.players[ladder][pid] = info
        return info

    def update_player(self, ladder: int, player: PlayerId, *, name: str | None = None,
                      available: bool | None = None, banned: bool | None = None,
                      removed: bool | None = None, user: str | None = None) -> None:
        info = self.d.players[ladder][player]
        changes = {"name": name, "available": available, "banned": banned, "removed": removed,
                   "user": user}
        info = dataclasses.replace(info, **{k: v for k, v in changes.items()
                                            if v is not None})  # type: ignore[arg-type]
        self.d.players[ladder][player] = info

    # ---- the log
    def state(self, ladder: int) -> LadderState:
        return self.d.ledgers[ladder].state

    def base_settings(self, ladder: int) -> Settings:
        return self.d.ledgers[ladder].settings

    def events(self, ladder: int, until: Timestamp | None = None) -> list[Event]:
        return [e for e in self.d.ledgers[ladder].events if until is None or e.at <= until]

    def append(self, ladder: int, events: Sequence[Event]) -> list[Applied | Rederived]:
        ledger = self.d.ledgers[ladder]
        results: list[Applied | Rederived] = []
        for event in events:
            result = ledger.append(event)
            if isinstance(result, Rederived):
                kept = [c for c in self.d.changes[ladder] if c.seq < result.from_seq]
                self.d.changes[ladder] = kept
                for offset, applied in enumerate(result.applied):
                    seq = result.from_seq + offset
                    self._project(ladder, seq, ledger.events[seq - 1], applied)
                    self._restate(ladder, applied)
            else:
                self._project(ladder, len(ledger.events), event, result)
            results.append(result)
        return results

    def _project(self, ladder: int, seq: int, event: Event, applied: Applied) -> None:
        self.d.changes[ladder].extend(change_rows(seq, event, applied))

    def _restate(self, ladder: int, applied: Applied) -> None:
        """A re-derivation rewrites the rated flag and note of stored matches."""
        effect = applied.match
        if effect is not None and effect.match_id in self.d.matches[ladder]:
            record = self.d.matches[ladder][effect.match_id]
            if record.confirmed_at is not None and not effect.voided:
                self.d.matches[ladder][effect.match_id] = dataclasses.replace(
                    record, rated=effect.rated, note=effect.note)

    # ---- matches
    def _next(self, ladder: int, what: str) -> int:
        value = self.d.counters.get((ladder, what), 0) + 1
        self.d.counters[(ladder, what)] = value
        return value

    def new_match_id(self, ladder: int) -> int:
        return self._next(ladder, "match")

    def void_matches(self, ladder: int, first: int, last: int, at: Timestamp) -> None:
        table = self.d.matches[ladder]
        for number in [m for m in table if first <= m <= last]:
            if table[number].status != "voided":
                table[number] = dataclasses.replace(table[number], status="voided",
                                                    voided_at=at, rated=False)

    def append_duels(self, ladder: int, duels: Sequence[Row], reporters: Sequence[PlayerId],
                     observe: Observer | None = None) -> None:
        for row, reporter in zip(duels, reporters, strict=True):
            event = plain_event(row)
            if observe is not None:
                observe(self.d.ledgers[ladder].state, event.match.result)
            applied = self.append(ladder, [event])[0]
            assert isinstance(applied, Applied) and applied.match is not None
            at, *_, played, match = row
            self.save_match(MatchRecord(ladder, match, "confirmed", reporter, played,
                                        event.match.result, confirmed_at=at,
                                        note=applied.match.note, rated=applied.match.rated))
            key = (ladder, "match")
            self.d.counters[key] = max(self.d.counters.get(key, 0), match)

    def save_match(self, record: MatchRecord) -> None:
        self.d.matches[record.ladder][record.id] = record

    def match(self, ladder: int, match_id: int) -> MatchRecord | None:
        return self.d.matches[ladder].get(match_id)

    def same_players(self, ladder: int, players: Sequence[PlayerId],
                     since: Timestamp) -> list[MatchRecord]:
        wanted = sorted(players)
        return [m for _, m in sorted(self.d.matches[ladder].items())
                if sorted(m.result.players) == wanted
                and (m.status in ("pending", "disputed") or m.reported_at >= since)]

    def open_matches(self, ladder: int) -> list[MatchRecord]:
        return [m for _, m in sorted(self.d.matches[ladder].items())
                if m.status in ("pending", "disputed")]

    def matches(self, ladder: int, player: PlayerId | None = None,
                limit: int | None = None) -> list[MatchRecord]:
        found = [m for _, m in sorted(self.d.matches[ladder].items(), reverse=True)
                 if player is None or player in m.result.players]
        return found if limit is None else found[:limit]

    # ---- challenges
    def new_challenge_id(self, ladder: int) -> int:
        return self._next(ladder, "challenge")

    def save_challenge(self, record: ChallengeRecord) -> None:
        self.d.challenges[record.ladder][record.id] = record

    def unfinished_challenges(self, ladder: int) -> list[ChallengeRecord]:
        return [c for _, c in sorted(self.d.challenges[ladder].items()) if c.unfinished]

    # ---- audit
    def add_audit(self, entry: AuditEntry) -> None:
        self.d.audit[entry.ladder].append(entry)

    def audit(self, ladder: int, player: PlayerId | None = None,
              limit: int = 20) -> list[AuditEntry]:
        entries = list(reversed(self.d.audit[ladder]))
        if player is not None:
            mine = {m.id for m in self.d.matches[ladder].values() if player in m.result.players}
            entries = [e for e in entries if e.player == player or e.match in mine]
        return entries[:limit]

    # ---- projections
    def player_state(self, ladder: int, player: PlayerId) -> PlayerState | None:
        state = self.d.ledgers[ladder].state.players.get(player)
        return state.copy() if state is not None else None

    def hall_of_fame(self, ladder: int) -> list[HallEntry]:
        return list(self.d.ledgers[ladder].state.hall)

    def season_table(self, ladder: int, season: str) -> list[TableRow]:
        return list(self.d.ledgers[ladder].state.frozen.get(season, ()))

    def changes(self, ladder: int, player: PlayerId,
                limit: int | None = None) -> list[ChangeRecord]:
        mine = sorted((c for c in self.d.changes[ladder] if c.player == player),
                      key=lambda c: c.seq)
        return mine if limit is None else mine[-limit:]

    def match_changes(self, ladder: int, match_id: int) -> list[ChangeRecord]:
        return sorted((c for c in self.d.changes[ladder] if c.match == match_id
                       and c.kind == "match"), key=lambda c: (c.seq, c.player))

    def week_sums(self, ladder: int, since: Timestamp,
                  until: Timestamp) -> dict[PlayerId, tuple[float, int]]:
        sums: dict[PlayerId, tuple[float, int]] = {}
        for c in self.d.changes[ladder]:
            if c.kind == "match" and c.rated and since < c.at <= until:
                gain, games = sums.get(c.player, (0.0, 0))
                sums[c.player] = (gain + c.after - c.before, games + 1)
        return sums

    def _table(self, ladder: int, table: str, at: Timestamp) -> list[TableRow]:
        state = self.d.ledgers[ladder].state
        settings = state.settings
        members = {p: s for p, s in state.players.items() if s.member}
        book = state.rulebook
        if table == "rating":
            return sorted((TableRow(p, s.rating, s.rated_games, book.provisional(settings, s),
                                    s.extra)
                           for p, s in members.items()), key=lambda r: (-r.value, r.player))
        if table in ("ladder", "season", "week"):  # the provisional are in no such table
            members = {p: s for p, s in members.items() if not book.provisional(settings, s)}
        if table == "rung":
            return [TableRow(p, i + 1, members[p].rated_games) for i, p in enumerate(state.order)]
        if table == "ladder":
            listed = ladder_table(settings, [(p, s.rating, s.rated_games, s.last_played)
                                             for p, s in members.items()], at)
            return [dataclasses.replace(r, extra=members[r.player].extra) for r in listed]
        if table == "season":
            return gain_table(settings, [(p, s.season_gain, s.season_games, s.rated_games)
                                         for p, s in members.items()], settings.season_min_games)
        if table == "week":
            sums = self.week_sums(ladder, at - round(settings.week_days * DAY), at)
            return gain_table(settings, [(p, g, n, members[p].rated_games)
                                         for p, (g, n) in sums.items() if p in members],
                              settings.week_min_games)
        raise ValueError(f"no table {table!r}")

    def standings(self, ladder: int, table: str, at: Timestamp,
                  limit: int | None = None) -> tuple[list[TableRow], int]:
        rows = self._table(ladder, table, at)
        return (rows if limit is None else rows[:limit]), len(rows)

    def keep_day_ranks(self, ladder: int, table: str, at: Timestamp) -> None:
        rows = self._table(ladder, table, at)[:DAY_RANKS]
        self.d.day_ranks[ladder] = {r.player: place for place, r in enumerate(rows, 1)}

    def day_ranks(self, ladder: int, players: Sequence[PlayerId]) -> dict[PlayerId, int]:
        kept = self.d.day_ranks.get(ladder, {})
        return {p: kept[p] for p in players if p in kept}

    def timeline(self, ladder: int) -> list[tuple[Timestamp, str, str]]:
        found: list[tuple[Timestamp, str, str]] = []
        for e in self.d.ledgers[ladder].events:
            if isinstance(e, DecayDay):
                found.append((e.at, "decay", e.day))
            elif isinstance(e, SeasonClosed):
                found.append((e.at, "season", e.season))
        return found

    def rank(self, ladder: int, table: str, player: PlayerId, at: Timestamp) -> int | None:
        """Competition rank: 1 + how many listed are strictly ahead (ties share a rank)."""
        rows = self._table(ladder, table, at)
        mine = next((r for r in rows if r.player == player), None)
        if mine is None:
            return None
        if table == "rung":
            return int(mine.value)
        return 1 + sum(1 for r in rows if r.value > mine.value)


def copied(data: MemoryData) -> MemoryData:
    """A deep copy of the data to restore: pickled, 2-3 times faster than `copy.deepcopy`."""
    found: MemoryData = pickle.loads(pickle.dumps(data, pickle.HIGHEST_PROTOCOL))
    return found
