"""Round robin by FIDE's Berger tables (FIDE Handbook C.05, Annex 1): with n players
(n even; an odd field adds a bye as the highest number), n - 1 rounds. Player n meets, in
round r, the player p = 1 + (r - 1)·n/2 (mod n - 1); the other boards pair p + k with
p - k (mod n - 1), k = 1 .. n/2 - 1. For six: 1-6 2-5 3-4, then 6-4 5-3 1-2, ..."""

from __future__ import annotations

from core.domain.model import PlayerId


def rounds_for(players: int) -> int:
    """How many rounds a field of `players` plays."""
    return players - 1 if players % 2 == 0 else players


def berger_round(players: int, round_number: int) -> list[tuple[int, int | None]]:
    """Round `round_number`'s pairs of seed numbers (1-based), in board order, the first
    of each pair as the table prints it first; a bye pairs a seed with None."""
    n = players + players % 2
    fixed = n
    cycle = n - 1

    def wrap(number: int) -> int:
        return (number - 1) % cycle + 1

    p = wrap(1 + (round_number - 1) * (n // 2))
    pairs = [(p, fixed) if round_number % 2 else (fixed, p)]
    pairs += [(wrap(p + k), wrap(p - k)) for k in range(1, n // 2)]
    if n == players:
        return [(a, b) for a, b in pairs]
    # The highest number is the bye: its opponent rests.
    return [(b, None) if a == fixed else (a, None) if b == fixed else (a, b) for a, b in pairs]


def round_pairs(seeds: list[PlayerId], round_number: int) -> list[tuple[PlayerId,
                                                                        PlayerId | None]]:
    """Round `round_number`'s pairings of the players in seed order."""
    return [(seeds[a - 1], None if b is None else seeds[b - 1])
            for a, b in berger_round(len(seeds), round_number)]
