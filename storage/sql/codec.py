"""Compact JSON for what the database keeps: events, results, settings, snapshots."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from core.domain.collector import paused
from core.domain.events import (
    ChallengeAccepted,
    DecayDay,
    Event,
    MatchConfirmed,
    MatchesVoided,
    MatchVoided,
    PlayerJoined,
    PlayerLeft,
    RatingAdjusted,
    ResultChanged,
    RulesSwitched,
    SeasonClosed,
    SettingsChanged,
)
from core.domain.model import Margin, Match, PlayerId, Result, Timestamp
from core.domain.records import PinRecord, QueueEntry, QueueMatch, QueueState, RoleConfig
from core.domain.settings import Settings
from core.domain.standing import PlayerState, SeriesState
from core.domain.state import LadderState
from core.domain.tables import HallEntry, TableRow

# Deterministic without sorting: every dict written here is built in a fixed key order.
_ENCODER = json.JSONEncoder(separators=(",", ":"))


def dumps(value: Any) -> str:
    """Compact JSON (one encoder: json.dumps builds a new one on every call)."""
    return _ENCODER.encode(value)


def _tuples(value: Any) -> Any:
    """Lists back to the tuples frozen values hold."""
    if isinstance(value, list):
        return tuple(_tuples(v) for v in value)
    return value


# ------------------------------------------------------------------ results


def result_to_json(result: Result) -> dict[str, Any]:
    """A result as a small dict."""
    data: dict[str, Any] = {"s": [list(side) for side in result.sides]}
    if result.draw:
        data["d"] = 1
    if result.margin is not None:
        data["m"] = result.margin.value
    if result.moves is not None:
        data["mv"] = result.moves
    if not result.rated:
        data["u"] = 1
    if result.score is not None:
        data["g"] = list(result.score)
    return data


def duel_result_json(a: PlayerId, b: PlayerId, draw: bool, rated: bool,
                     moves: int | None) -> str:
    """`dumps(result_to_json(...))` of a plain one-on-one result, written out: a bulk
    import writes one a match (tests hold the two equal)."""
    return "".join(('{"s":[[', str(a), '],[', str(b), ']]', ',"d":1' if draw else "",
                    "" if moves is None else f',"mv":{moves}', "" if rated else ',"u":1',
                    "}"))


def duel_event_json(match: int, played: Timestamp, result: str) -> str:
    """The stored body of a plain one-on-one match's event (as `encode_event` gives it),
    its result as `duel_result_json` wrote it."""
    return f'{{"id":{match},"t":{played},"r":{result}}}'


def result_from_json(data: dict[str, Any]) -> Result:
    """The inverse of `result_to_json`."""
    return Result(
        sides=tuple(tuple(side) for side in data["s"]),
        draw=bool(data.get("d")),
        margin=Margin(data["m"]) if "m" in data else None,
        moves=data.get("mv"),
        rated=not data.get("u"),
        score=(data["g"][0], data["g"][1]) if "g" in data else None,
    )


# ------------------------------------------------------------------ settings


def settings_to_json(settings: Settings) -> str:
    """All fields of the settings."""
    return dumps(dataclasses.asdict(settings))


def settings_from_json(text: str) -> Settings:
    """Settings from `settings_to_json` (unknown keys from a newer version are ignored)."""
    data = json.loads(text)
    known = {f.name for f in dataclasses.fields(Settings)}
    return Settings(**{k: _tuples(v) for k, v in data.items() if k in known})


# ------------------------------------------------------------------ events


def encode_event(event: Event) -> tuple[str, dict[str, Any], str | None]:
    """(kind, body, job key) of an event; the key makes a job event unique per ladder."""
    if isinstance(event, MatchConfirmed):
        m = event.match
        body: dict[str, Any] = {"id": m.id, "t": m.played_at, "r": result_to_json(m.result)}
        if m.challenge_id is not None:
            body["c"] = m.challenge_id
        if m.forfeit:
            body["f"] = 1
        return "match", body, None
    if isinstance(event, PlayerJoined):
        return "join", {"p": event.player}, None
    if isinstance(event, PlayerLeft):
        return "leave", {"p": event.player}, None
    if isinstance(event, DecayDay):
        return "decay", {"d": event.day}, f"decay:{event.day}"
    if isinstance(event, SeasonClosed):
        return "season", {"s": event.season, "by": event.by, "why": event.reason}, \
            f"season:{event.season}"
    if isinstance(event, RatingAdjusted):
        return "adjust", {"p": event.player, "n": event.amount, "by": event.by,
                          "why": event.reason}, None
    if isinstance(event, MatchVoided):
        return "void", {"m": event.match_id, "by": event.by, "why": event.reason}, None
    if isinstance(event, MatchesVoided):  # (kind "void": the corrections' index holds it)
        return "void", {"m": event.first, "to": event.last, "by": event.by,
                        "why": event.reason}, None
    if isinstance(event, ResultChanged):
        return "result", {"m": event.match_id, "r": result_to_json(event.result),
                          "by": event.by, "why": event.reason}, None
    if isinstance(event, ChallengeAccepted):
        return "accepted", {"c": event.challenge, "a": event.challenger,
                            "b": event.challenged}, None
    if isinstance(event, SettingsChanged):
        return "settings", {"c": [[k, v] for k, v in event.changes], "by": event.by}, None
    if isinstance(event, RulesSwitched):
        return "rules", {"s": json.loads(settings_to_json(event.settings)),
                         "w": json.loads(settings_to_json(event.was)), "by": event.by}, None
    raise TypeError(f"not an event: {event!r}")


def decode_event(kind: str, at: int, body: dict[str, Any]) -> Event:
    """The inverse of `encode_event`."""
    if kind == "match":
        return MatchConfirmed(at, Match(body["id"], body["t"], result_from_json(body["r"]),
                                        body.get("c"), bool(body.get("f"))))
    if kind == "join":
        return PlayerJoined(at, body["p"])
    if kind == "leave":
        return PlayerLeft(at, body["p"])
    if kind == "decay":
        return DecayDay(at, body["d"])
    if kind == "season":
        return SeasonClosed(at, body["s"], body.get("by", ""), body.get("why", ""))
    if kind == "adjust":
        return RatingAdjusted(at, body["p"], body["n"], body["by"], body["why"])
    if kind == "void":
        if "to" in body:
            return MatchesVoided(at, body["m"], body["to"], body["by"], body["why"])
        return MatchVoided(at, body["m"], body["by"], body["why"])
    if kind == "result":
        return ResultChanged(at, body["m"], result_from_json(body["r"]), body["by"], body["why"])
    if kind == "accepted":
        return ChallengeAccepted(at, body["c"], body["a"], body["b"])
    if kind == "settings":
        return SettingsChanged(at, tuple((k, _tuples(v)) for k, v in body["c"]),
                               body.get("by", ""))
    if kind == "rules":
        return RulesSwitched(at, settings_from_json(dumps(body["s"])),
                             settings_from_json(dumps(body["w"])), body.get("by", ""))
    raise ValueError(f"unknown event kind {kind!r}")


# ------------------------------------------------------------------ snapshots


def state_to_json(state: LadderState) -> str:
    """A snapshot of the standings."""
    with paused():  # (core.domain.collector: a snapshot is many small lists)
        return _state_to_json(state)


def _state_to_json(state: LadderState) -> str:
    return dumps({
        "settings": dataclasses.asdict(state.settings),
        "players": [player_row(p, s) for p, s in state.players.items()],
        "farm": [[a, b, times] for (a, b), times in state.farm.items()],
        **_beside(state),
    })


def player_row(player: PlayerId, s: PlayerState) -> list[Any]:
    """A player's state as a snapshot keeps it (its id first)."""
    return [player, s.rating, s.games, s.rated_games, s.wins, s.losses, s.draws,
            s.rated_wins, s.last_played, s.season_gain, s.season_games, int(s.member),
            *s.extra]


def player_from_row(row: Sequence[Any]) -> PlayerState:
    """The inverse of `player_row` (without its id)."""
    return PlayerState(row[1], row[2], row[3], row[4], row[5], row[6], row[7], row[8],
                       row[9], row[10], bool(row[11]), tuple(row[12:]))


# A player's state as the players table keeps it (storage/sql/replay.py `_write_players`).
PLAYER_COLUMNS = ("rating, games, rated_games, wins, losses, draws, rated_wins, last_played, "
                  "season_gain, season_games, member, extra")


def stored_player(row: Sequence[Any]) -> PlayerState:
    """The state a row's `PLAYER_COLUMNS` keep."""
    return PlayerState(row[0], row[1], row[2], row[3], row[4], row[5], row[6], row[7], row[8],
                       row[9], bool(row[10]), tuple(json.loads(row[11])) if row[11] else ())


def _beside(state: LadderState) -> dict[str, Any]:
    """What standings hold beside their settings, players and pairs' recent games."""
    return {
        "order": state.order,
        "series": [[a, b, v.first_at, v.base_low, v.base_high, v.games, v.score_low,
                    v.applied_low, v.applied_high] for (a, b), v in state.series.items()],
        "logged": [[c, *entry] for c, entry in state.logged.items()],
        "season": state.season,
        # The closed seasons by label only: their tables are stored beside the snapshot
        # (`seasons`), and were half of a big ladder's snapshot. Snapshots written before
        # this held the tables themselves ("frozen"); both are read.
        "seasons": list(state.frozen),
        "hall": [[e.season, e.place, e.player, e.gain] for e in state.hall],
        "seq": state.seq,
        "at": state.at,
        "last_decay": state.last_decay,
        "pending": [list(entry) for entry in state.pending],
    }


Tables = Callable[[list[str]], Mapping[str, tuple[TableRow, ...]]]


def state_from_json(text: str, tables: Tables) -> LadderState:
    """The inverse of `state_to_json`; `tables(labels)` reads the stored tables of the
    closed seasons a snapshot names."""
    with paused():
        return _state_from_json(text, tables)


def _state_from_json(text: str, tables: Tables) -> LadderState:
    data = json.loads(text)
    known = {f.name for f in dataclasses.fields(Settings)}
    settings = Settings(**{k: _tuples(v) for k, v in data["settings"].items() if k in known})
    # JSON object keys are strings: players, farm and series come back keyed by ints.
    return _standings(data, settings, {row[0]: player_from_row(row) for row in data["players"]},
                      {(a, b): list(times) for a, b, times in data["farm"]}, tables)


def head_to_json(state: LadderState, players: int) -> str:
    """The head of standings (storage/sql/heads.py): all but their settings (the ladder's
    row has them), their players (the players table) and pairs' games (`head_pairs`), with
    how many players they hold."""
    return dumps({**_beside(state), "players": players})


def state_from_head(text: str, settings: Settings, players: dict[PlayerId, PlayerState],
                    farm: dict[tuple[PlayerId, PlayerId], list[Timestamp]],
                    tables: Tables) -> tuple[LadderState, int]:
    """The inverse of `head_to_json`, with the players and pairs given (some or all):
    the standings, and how many players they hold."""
    data = json.loads(text)
    return _standings(data, settings, players, farm, tables), int(data["players"])


def _standings(data: dict[str, Any], settings: Settings,
               players: dict[PlayerId, PlayerState],
               farm: dict[tuple[PlayerId, PlayerId], list[Timestamp]],
               tables: Tables) -> LadderState:
    return LadderState(
        settings=settings,
        players=players,
        order=list(data["order"]),
        farm=farm,
        series={(row[0], row[1]): SeriesState(*row[2:]) for row in data["series"]},
        logged={row[0]: (row[1], row[2], row[3], row[4]) for row in data["logged"]},
        season=data["season"],
        frozen={label: tuple(TableRow(*r) for r in rows)
                for label, rows in data["frozen"].items()} if "frozen" in data
        else dict(tables(data["seasons"])),
        hall=[HallEntry(*e) for e in data["hall"]],
        seq=data["seq"],
        at=data["at"],
        last_decay=data["last_decay"],
        pending=[(m, a, b, score) for m, a, b, score in data.get("pending", [])],
    )


# ------------------------------------------------------------------ the queue


def queue_to_json(state: QueueState) -> str:
    """A ladder's queue as compact JSON."""
    return dumps({"n": state.next_id,
                  "e": [[e.player, e.since, e.expires] for e in state.entries],
                  "m": [{"id": m.id, "t": m.formed_at, "teams": [list(t) for t in m.teams],
                         "since": list(m.since), "ready": list(m.ready), "on": int(m.on)}
                        for m in state.matches]})


def queue_from_json(text: str) -> QueueState:
    """The inverse of `queue_to_json`."""
    data = json.loads(text)
    return QueueState(
        data["n"], tuple(QueueEntry(*e) for e in data["e"]),
        tuple(QueueMatch(m["id"], m["t"], (tuple(m["teams"][0]), tuple(m["teams"][1])),
                         tuple(m["since"]), tuple(m["ready"]), bool(m["on"]))
              for m in data["m"]))


# ------------------------------------------------------------------ what follows the standings


def roles_to_json(config: RoleConfig) -> str:
    """A ladder's role settings, ids and problem as compact JSON."""
    return dumps({"l": int(config.leagues), "t": config.top, "c": config.champion,
                  "ids": [list(pair) for pair in config.ids], "p": config.problem,
                  "since": config.since})


def roles_from_json(text: str) -> RoleConfig:
    """The inverse of `roles_to_json`."""
    data = json.loads(text)
    champion = data["c"]  # (0 or 1 before tournaments: 1 was the season's champion)
    if isinstance(champion, int):
        champion = "season" if champion else ""
    return RoleConfig(bool(data["l"]), data["t"], champion,
                      tuple((k, v) for k, v in data["ids"]), data["p"], data["since"])


def pin_to_json(pin: PinRecord) -> str:
    """A live standings message as compact JSON."""
    return dumps({"ch": pin.channel, "m": pin.message, "s": pin.shown, "e": pin.edited,
                  "lang": pin.language} | ({"p": pin.problem} if pin.problem else {}))


def pin_from_json(text: str) -> PinRecord:
    """The inverse of `pin_to_json`."""
    data = json.loads(text)
    return PinRecord(data["ch"], data["m"], data["s"], data["e"], data["lang"],
                     data.get("p", ""))
