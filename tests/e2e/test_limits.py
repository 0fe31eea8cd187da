"""Flood control: a flooding user is slowed with one polite reply; nobody else is."""

from __future__ import annotations

from bot.limits import Limiter


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_flooding_user_is_told_once_then_ignored_until_they_may_speak() -> None:
    clock = Clock()
    limits = Limiter(user_burst=3, user_rate=0.5, clock=clock)
    assert [limits.check("g", "alice") for _ in range(3)] == [(True, None)] * 3
    allowed, note = limits.check("g", "alice")
    assert not allowed
    assert str(note) == "You are sending commands faster than I can take them: please wait 2 s."
    assert limits.check("g", "alice") == (False, None)  # told once, not at every message
    assert limits.check("g", "bob") == (True, None)  # others are not slowed
    assert limits.check("other", "alice") == (True, None)  # nor alice in another chat
    clock.now += 2
    assert limits.check("g", "alice") == (True, None)
    allowed, note = limits.check("g", "alice")
    assert not allowed and note is not None  # a new stretch of flooding: told again


def test_a_busy_chat_is_slowed_as_a_whole_without_costing_its_users() -> None:
    clock = Clock()
    limits = Limiter(user_burst=5, user_rate=1, chat_burst=10, chat_rate=1, clock=clock)
    for i in range(10):
        assert limits.check("g", f"u{i}")[0]
    allowed, note = limits.check("g", "u10")
    assert not allowed
    assert str(note) == \
        "This chat is sending commands faster than I can take them: please wait 1 s."
    assert limits.check("g", "u11") == (False, None)
    assert limits.check("elsewhere", "u10") == (True, None)
    clock.now += 1
    assert limits.check("g", "u10") == (True, None)
    # u10's refused command did not use up their own budget
    assert limits.users[("g", "u10")].tokens == 4


def test_sustained_use_at_the_allowed_pace_is_never_slowed() -> None:
    clock = Clock()
    limits = Limiter(clock=clock)
    for _ in range(500):
        assert limits.check("g", "alice")[0]
        clock.now += 1 / limits.user_rate


def test_a_disabled_limiter_allows_everything() -> None:
    limits = Limiter(clock=Clock(), enabled=False)
    assert all(limits.check("g", "alice")[0] for _ in range(10_000))
