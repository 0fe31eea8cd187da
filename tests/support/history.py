"""A tiny builder of event logs for rule tests: players by name, time moved by hand."""

from __future__ import annotations

from typing import Any

from core.domain.calendar import parse_instant
from core.domain.events import (
    ChallengeAccepted,
    DecayDay,
    Event,
    MatchConfirmed,
    MatchVoided,
    PlayerJoined,
    PlayerLeft,
    RatingAdjusted,
    ResultChanged,
    SeasonClosed,
    SettingsChanged,
)
from core.domain.model import Margin, Match, Result
from core.domain.settings import Settings, preset
from core.domain.state import LadderState, replay

T0 = parse_instant("2026-01-05T10:00:00+00:00")


class History:
    """An event log written the way a ladder lives it."""

    def __init__(self, settings: Settings | str, at: int = T0) -> None:
        self.settings = preset(settings) if isinstance(settings, str) else settings
        self.events: list[Event] = []
        self.at = at
        self.ids: dict[str, int] = {}
        self.next_match = 1
        self.next_challenge = 1

    # time
    def tick(self, seconds: int = 60) -> History:
        self.at += seconds
        return self

    # players
    def join(self, *names: str) -> History:
        for name in names:
            pid = self.ids.setdefault(name, len(self.ids) + 1)
            self.events.append(PlayerJoined(self.at, pid))
        return self

    def leave(self, name: str) -> History:
        self.events.append(PlayerLeft(self.at, self.ids[name]))
        return self

    def pid(self, name: str) -> int:
        return self.ids[name]

    # results
    def result(self, sides: list[list[str]], **kw: object) -> Result:
        margin = kw.pop("margin", None)
        return Result(
            sides=tuple(tuple(self.ids[n] for n in side) for side in sides),
            margin=Margin(margin) if isinstance(margin, str) else None,
            **kw,  # type: ignore[arg-type]
        )

    def play(self, sides: list[list[str]], challenge: int | None = None,
             forfeit: bool = False, **kw: Any) -> int:
        match_id = self.next_match
        self.next_match += 1
        match = Match(match_id, self.at, self.result(sides, **kw), challenge, forfeit)
        self.events.append(MatchConfirmed(self.at, match))
        return match_id

    def win(self, winner: str, loser: str, **kw: Any) -> int:
        return self.play([[winner], [loser]], **kw)

    def draw(self, a: str, b: str, **kw: Any) -> int:
        return self.play([[a], [b]], draw=True, **kw)

    def accept(self, challenger: str, challenged: str) -> int:
        cid = self.next_challenge
        self.next_challenge += 1
        self.events.append(
            ChallengeAccepted(self.at, cid, self.ids[challenger], self.ids[challenged])
        )
        return cid

    # moderators and time
    def void(self, match_id: int) -> History:
        self.events.append(MatchVoided(self.at, match_id, "mod", "test"))
        return self

    def change(self, match_id: int, sides: list[list[str]], **kw: object) -> History:
        result = self.result(sides, **kw)
        self.events.append(ResultChanged(self.at, match_id, result, "mod", "test"))
        return self

    def adjust(self, name: str, amount: float) -> History:
        self.events.append(RatingAdjusted(self.at, self.ids[name], amount, "mod", "test"))
        return self

    def decay(self, day: str) -> History:
        self.events.append(DecayDay(self.at, day))
        return self

    def close(self, season: str) -> History:
        self.events.append(SeasonClosed(self.at, season))
        return self

    def set(self, **changes: object) -> History:
        self.events.append(SettingsChanged(self.at, tuple(changes.items())))
        return self

    # reading
    def state(self) -> LadderState:
        return replay(self.settings, self.events)

    def rating(self, name: str) -> float:
        return self.state().players[self.ids[name]].rating

    def ratings(self, *names: str) -> list[float]:
        state = self.state()
        return [state.players[self.ids[n]].rating for n in names]

    def rungs(self) -> list[str]:
        back = {v: k for k, v in self.ids.items()}
        return [back[p] for p in self.state().order]
