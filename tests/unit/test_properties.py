"""Invariants of the engine over random histories (hypothesis)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.domain.calendar import DAY, HOUR
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
)
from core.domain.ledger import Ledger
from core.domain.model import Margin, Match, Result
from core.domain.settings import PRESETS, Settings, preset
from core.domain.state import LadderState, replay
from tests.support.history import T0 as T0_FOR_TESTS

PRESET_NAMES = sorted(PRESETS)


def _game(draw: st.DrawFn, settings: Settings, pool: list[int], at: int, match_id: int,
          challenge: int) -> tuple[list[Event], int]:
    """A confirmed game among `pool` (on a position ladder, perhaps of an accepted
    challenge), and the number of the last challenge."""
    multi = not settings.is_position and settings.max_sides is None
    size = draw(st.integers(2, min(4, len(pool)))) if multi else 2
    players = draw(st.permutations(pool))[:size]
    teams = multi and settings.teams and size == 4 and draw(st.booleans())
    sides = ((players[0], players[1]), (players[2], players[3])) if teams else \
        tuple((p,) for p in players)
    draw_game = len(sides) == 2 and draw(st.booleans())
    margin = draw(st.sampled_from(list(Margin))) if settings.is_position and not draw_game \
        else None
    result = Result(sides, draw_game, margin, draw(st.none() | st.integers(1, 300)),
                    draw(st.booleans()) or draw(st.booleans()))
    events: list[Event] = []
    cid = None
    if settings.is_position and draw(st.booleans()):
        challenge += 1
        cid = challenge
        events.append(ChallengeAccepted(at - 30, cid, players[0], players[1]))
    events.append(MatchConfirmed(at, Match(match_id, at - 10, result, cid)))
    return events, challenge


@st.composite
def histories(draw: st.DrawFn, preset_name: str | None = None) -> tuple[str, list[Event]]:
    """A random but well-formed log: joins, games, corrections, time and moderator acts."""
    name = preset_name or draw(st.sampled_from(PRESET_NAMES))
    settings = preset(name)
    n = draw(st.integers(2, 7))
    at = T0_FOR_TESTS
    events: list[Event] = [PlayerJoined(at, p) for p in range(1, n + 1)]
    members = set(range(1, n + 1))
    matches: list[int] = []
    challenge = 0
    day = 0
    for _ in range(draw(st.integers(1, 40))):
        at += draw(st.sampled_from([60, HOUR, 6 * HOUR, DAY]))
        action = draw(st.sampled_from(
            ["game"] * 8 + ["void", "change", "adjust", "decay", "close", "leave", "join"]
        ))
        if action == "game" and len(members) >= 2:
            played, challenge = _game(draw, settings, sorted(members), at, len(matches) + 1,
                                      challenge)
            events += played
            matches.append(len(matches) + 1)
        elif action == "void" and matches:
            events.append(MatchVoided(at, draw(st.sampled_from(matches)), "mod", "x"))
        elif action == "change" and matches:
            target = draw(st.sampled_from(matches))
            original = next(e.match.result for e in events
                            if isinstance(e, MatchConfirmed) and e.match.id == target)
            flipped = Result(tuple(reversed(original.sides)), original.draw, original.margin,
                             original.moves, original.rated)
            events.append(ResultChanged(at, target, flipped, "mod", "x"))
        elif action == "adjust" and members:
            amount = draw(st.integers(-300, 300)) if not settings.is_position else \
                draw(st.integers(-3, 3))
            events.append(RatingAdjusted(at, draw(st.sampled_from(sorted(members))), amount,
                                         "mod", "x"))
        elif action == "decay":
            day += 1
            events.append(DecayDay(at, f"2026-02-{day:02d}" if day < 29 else "2026-03-01"))
        elif action == "close" and "season" in settings.tables:
            events.append(SeasonClosed(at, f"2026-{len(events) % 12 + 1:02d}"))
        elif action == "leave" and len(members) > 2:
            p = draw(st.sampled_from(sorted(members)))
            members.discard(p)
            events.append(PlayerLeft(at, p))
        elif action == "join" and len(members) < n:
            p = min(set(range(1, n + 1)) - members)
            members.add(p)
            events.append(PlayerJoined(at, p))
    return name, events


# (80 examples a property: hypothesis draws new ones every run, and the fast suite has 4 minutes)
FAST = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FAST
@given(histories())
def test_replay_is_deterministic(history: tuple[str, list[Event]]) -> None:
    name, events = history
    assert replay(preset(name), events).fingerprint() == replay(preset(name), events).fingerprint()


@FAST
@given(histories(), st.integers(1, 7))
def test_incremental_application_equals_full_replay(
    history: tuple[str, list[Event]], every: int
) -> None:
    name, events = history
    ledger = Ledger(preset(name), snapshot_every=every)
    for event in events:
        ledger.append(event)
        # after every step, the standings equal a replay of the log so far
        assert ledger.state.fingerprint() == replay(preset(name), ledger.events).fingerprint()


@FAST
@given(histories(), st.data())
def test_voiding_a_match_equals_the_history_without_it(
    history: tuple[str, list[Event]], data: st.DataObject
) -> None:
    name, events = history
    confirmed = [e for e in events if isinstance(e, MatchConfirmed)]
    if not confirmed:
        return
    target = data.draw(st.sampled_from(confirmed)).match.id
    # drop earlier corrections of the target: the void is the final word on it
    kept = [e for e in events
            if not (isinstance(e, (MatchVoided, ResultChanged)) and e.match_id == target)]
    voided = [*kept, MatchVoided(kept[-1].at, target, "mod", "x")]
    without = [e for e in kept if not (isinstance(e, MatchConfirmed) and e.match.id == target)]
    assert replay(preset(name), voided).fingerprint() == replay(preset(name), without).fingerprint()


def _check_each_step(name: str, events: list[Event], check: object) -> None:
    state = LadderState(preset(name))
    from core.domain.events import collect_corrections

    corrections = collect_corrections(events)
    for event in events:
        applied = state.apply(event, corrections)
        check(state, applied)  # type: ignore[operator]


@FAST
@given(histories("duel"))
def test_duel_is_zero_sum_above_the_floor(history: tuple[str, list[Event]]) -> None:
    name, events = history

    def check(state: LadderState, applied: object) -> None:
        effect = getattr(applied, "match", None)
        if effect is None or not effect.rated:
            return
        if all(c.after > 800 for c in effect.changes):
            assert sum(c.delta for c in effect.changes) == 0

    _check_each_step(name, events, check)


@FAST
@given(histories("nhwc"))
def test_rungs_are_always_a_permutation(history: tuple[str, list[Event]]) -> None:
    name, events = history

    def check(state: LadderState, applied: object) -> None:
        members = {p for p, s in state.players.items() if s.member}
        assert sorted(state.order) == sorted(members)
        assert len(set(state.order)) == len(state.order)

    _check_each_step(name, events, check)


@FAST
@given(histories())
def test_no_rating_falls_below_a_floor(history: tuple[str, list[Event]]) -> None:
    name, events = history
    floor = preset(name).floor
    if floor is None:
        return

    def check(state: LadderState, applied: object) -> None:
        assert all(s.rating >= floor for s in state.players.values())

    _check_each_step(name, events, check)


@FAST
@given(histories(), st.integers(0, 40))
def test_replay_from_any_snapshot_equals_full_replay(
    history: tuple[str, list[Event]], cut: int
) -> None:
    from core.domain.events import collect_corrections
    from core.domain.state import resume

    name, events = history
    cut = min(cut, len(events))
    corrections = collect_corrections(events)
    head = replay(preset(name), events[:cut], corrections)
    assert resume(head, events[cut:], corrections).fingerprint() == \
        replay(preset(name), events).fingerprint()


@FAST
@given(histories())
def test_whole_number_ladders_keep_whole_ratings(history: tuple[str, list[Event]]) -> None:
    name, events = history
    state = replay(preset(name), events)
    if preset(name).whole:
        assert all(float(s.rating).is_integer() for s in state.players.values())


@FAST
@given(histories(), st.sampled_from(["duel", "warlight"]))
def test_the_duel_fast_path_equals_the_general_rules(
    history: tuple[str, list[Event]], name: str
) -> None:
    from unittest import mock

    from core.domain.rulebooks import rated

    _, events = history
    settings = preset(name).with_changes({"farm_limit": 2, "floor": 1150.0}) \
        if name == "warlight" else preset(name)
    fast = replay(settings, events)
    # The same history through the general machinery for sides and pairs only.
    with mock.patch.object(LadderState, "rate_duel",
                           lambda self, match, note: rated.elo_match(self, match, note)):
        general = replay(settings, events)
    assert fast.fingerprint() == general.fingerprint()


def _lean_replay(settings: Settings, events: list[Event]) -> LadderState:
    """Fold plain one-on-one matches through `apply_duel`, the rest through `apply`."""
    from core.domain.events import collect_corrections

    corrections = collect_corrections(events)
    state = LadderState(settings)
    for e in events:
        if isinstance(e, MatchConfirmed) and state.lean and e.match.id not in corrections \
                and e.match.result.is_duel and e.match.result.margin is None \
                and e.match.challenge_id is None and not e.match.forfeit:
            r = e.match.result
            state.apply_duel(e.at, r.sides[0][0], r.sides[1][0], r.draw, r.rated, r.moves,
                             e.match.played_at)
        else:
            state.apply(e, corrections)
    return state


@FAST
@given(histories(), st.sampled_from(["duel", "warlight", "fame", "dutch", "nhwc"]))
def test_the_lean_fold_equals_the_fold(history: tuple[str, list[Event]], name: str) -> None:
    _, events = history
    settings = preset(name)
    assert _lean_replay(settings, events).fingerprint() == replay(settings, events).fingerprint()


@FAST
@given(histories(), st.data())
def test_rolling_back_equals_the_shorter_history(
    history: tuple[str, list[Event]], data: st.DataObject
) -> None:
    from collections import deque
    from unittest import mock

    import core.domain.pairs
    from core.domain.events import collect_corrections

    name, events = history
    corrections = collect_corrections(events)
    # Prune anti-farming often, so that rolling back crosses pruning points.
    every = data.draw(st.integers(2, 9))
    with mock.patch.object(core.domain.pairs, "FARM_PRUNE_EVERY", every), \
            mock.patch.object(core.domain.pairs, "FARM_SLACK", 0):
        state = LadderState(preset(name))
        state.undo = deque(maxlen=data.draw(st.integers(1, 60)))
        for e in events:
            state.apply(e, corrections)
        target = data.draw(st.integers(1, len(events)))
        forward = state.undo_to(target)
        if forward is None:  # the journal does not reach back that far: nothing moved
            assert state.fingerprint() == replay(preset(name), events,
                                                 corrections).fingerprint()
            return
        assert state.seq == target - 1
        assert state.fingerprint() == replay(preset(name), events[:target - 1],
                                             corrections).fingerprint()
        for e in events[target - 1:]:  # and forward again
            state.apply(e, corrections)
        assert state.fingerprint() == replay(preset(name), events, corrections).fingerprint()


@FAST
@given(histories("duel"))
def test_rolling_back_across_anti_farming_pruning(history: tuple[str, list[Event]]) -> None:
    from collections import deque
    from unittest import mock

    import core.domain.pairs
    from core.domain.events import collect_corrections

    name, events = history
    corrections = collect_corrections(events)
    with mock.patch.object(core.domain.pairs, "FARM_PRUNE_EVERY", 3), \
            mock.patch.object(core.domain.pairs, "FARM_SLACK", 0):
        state = LadderState(preset(name))
        state.undo = deque(maxlen=100)
        for e in events:
            state.apply(e, corrections)
        prunes = [entry.seq for entry in state.undo if entry.pruned]
        if not prunes or state.undo_to(prunes[0]) is None:
            return
        assert state.fingerprint() == replay(preset(name), events[:prunes[0] - 1],
                                             corrections).fingerprint()
