"""Console scripts in which moderators void and change earlier results, one per preset. Each line
is paired with what the history "as it should have been" has in its place: the same line (SAME),
another line, or nothing (None)."""

from __future__ import annotations

from typing import Any

SAME = object()


def scripts(lines: list[tuple[str, Any]]) -> tuple[str, str]:
    played = "\n".join(line for line, _ in lines) + "\n"
    corrected = "\n".join(line if fix is SAME else fix for line, fix in lines if fix is not None)
    return played, corrected + "\n"


DUEL = [
    ("!time 2026-01-05T10:00:00+00:00", SAME),
    ("@mod: /ladder create main preset=duel confirm=false calibration=2", SAME),
    ("@a: /join", SAME), ("@b: /join", SAME), ("@c: /join", SAME),
    ("@mod: /mod adjust @b +100 setup", SAME),
    ("@a: /report win @b", SAME),
    ("!time 2026-01-05T11:00:00+00:00", SAME),
    ("@b: /report win @c", None),                     # voided below
    ("@c: /report draw @a", "@c: /report win @a"),    # changed below
    ("!time 2026-01-06T09:00:00+00:00", SAME),
    ("@a: /report win @c", SAME),
    ("@b: /report win @a", SAME),
    ("@c: /report win @b moves=1", SAME),             # too short: unrated
    ("!time 2026-01-07T09:00:00+00:00", SAME),
    ("@a: /report win @b", None),                     # voided below: anti-farming shifts
    ("@a: /report win @b", SAME), ("@a: /report win @b", SAME),
    ("@a: /report win @b", SAME),                     # the 5th in 7 days, until the void
    ("@mod: /mod void 2 not played", None),
    ("@mod: /mod set 3 @c wrong result", None),
    ("@mod: /mod void 7 duplicate", None),
    ("!time 2026-01-07T12:00:00+00:00", SAME),
    ("@a: /standings week", SAME),
]


NHWC = [
    ("!time 2026-01-05T10:00:00+00:00", SAME),
    ("@mod: /ladder create main preset=nhwc confirm=false", SAME),
    *[(f"@p{i}: /join", SAME) for i in range(1, 7)],
    ("@p6: /challenge @p2", SAME), ("@p2: /accept", SAME),
    ("@p4: /challenge @p3", SAME), ("@p3: /accept", SAME),
    ("@p4: /report win @p3 overwhelming", "@p4: /report loss @p3 minor"),
    ("@p6: /report win @p2 minor", SAME),
    ("@p5: /challenge @p1", SAME), ("@p1: /accept", SAME),
    ("@p5: /report draw @p1", None),
    ("@mod: /mod set 1 @p3 minor wrong way round", None),
    ("@mod: /mod void 3 not played", None),
    ("@mod: /mod adjust @p5 +1 fair play", SAME),
]


DUTCH = [
    ("!time 2026-01-05T10:00:00+00:00", SAME),
    ("@mod: /ladder create main preset=dutch confirm=false timezone=Europe/Amsterdam", SAME),
    ("@a: /join", SAME), ("@b: /join", SAME), ("@c: /join", SAME),
    ("@mod: /mod adjust @a +1000 setup", SAME), ("@mod: /mod adjust @b +1000 setup", SAME),
    ("@mod: /mod adjust @c +1500 setup", SAME),
    ("@a: /report win @b", SAME),
    ("!time 2026-01-05T12:00:00+00:00", SAME),
    ("@b: /report win @c", SAME),
    ("@a: /report win @b", None),                     # voided: the series shrinks
    ("!time 2026-01-05T20:00:00+00:00", SAME),
    ("@b: /report draw @a", "@b: /report win @a"),
    ("!time 2026-01-08T09:00:00+00:00", SAME),      # three midnights of decay
    ("@c: /report win @a", SAME),
    ("@mod: /mod void 3 mistake", None),
    ("@mod: /mod set 4 @b check", None),
]


FAME = [
    ("!time 2026-01-05T10:00:00+00:00", SAME),
    ("@mod: /ladder create main preset=fame confirm=false", SAME),
    *[(f"@{n}: /join", SAME) for n in "abcd"],
    ("@a: /report ffa @a @b @c moves=30", SAME),
    ("@b: /report win @d moves=300", "@d: /report win @b moves=300"),
    ("@c: /report teams @c @d vs @a @b", SAME),
    ("@d: /report win @a", None),
    ("@mod: /mod set 2 @d reversed", None),
    ("@mod: /mod void 4 not a real game", None),
]


WARLIGHT = [
    ("!time 2026-01-05T10:00:00+00:00", SAME),
    ("@mod: /ladder create main preset=warlight confirm=false ffa=placement", SAME),
    *[(f"@{n}: /join", SAME) for n in "abcd"],
    ("@a: /report ffa @a @b @c @d", "@a: /report ffa @b @a @c @d"),
    ("@c: /report teams @a @c vs @b @d", SAME),
    ("@b: /report win @c", None),
    ("@d: /report draw @a", SAME),
    ("@mod: /mod set 1 @b @a @c @d order was wrong", None),
    ("@mod: /mod void 3 not played", None),
]
