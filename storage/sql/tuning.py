"""The numbers that tune the SQL store: snapshots, replays, decay, restating history,
the standings cache and units of work (each with its reason)."""

from __future__ import annotations

SNAPSHOT_EVERY = 1000  # events between stored snapshots at the least...
SNAPSHOT_PER_PLAYER = 5  # ...and more for big ladders: a snapshot holds every player
# An import's runs of matches store them this many times as far apart: a snapshot of 200
# players' standings and anti-farming's records was 0.7 MB, and 100 of them took a third
# of importing 100,000 matches (a correction there folds at most 8,000 more events).
RUN_SNAPSHOTS_APART = 8
UNDO_EVENTS = 5000  # events a correction can roll back through (see LadderState.undo)
LONGEST_BATCH = 1 << 16  # plain matches folded together at most, when replaying
BULK_DECAY = 20_000  # from this many players, decay rebuilds the index instead
SYNC_RESTATE = 20_000  # a correction rewrites this much history at once; older, later
RESTATE_CHUNK = 50_000  # events of history restated per transaction
CACHE_MB = 256  # the standings kept in memory at most, by default ([database] cache_mb)
# What standings hold, in bytes, as tracemalloc measured them (bench/results, 2026-12-05;
# tests/unit/test_ladder_cache.py keeps the estimate within a factor of what is held):
LADDER_BYTES = 8_000  # a ladder's standings with nobody in them
PLAYER_BYTES = 260  # a player's state (190 for Elo's, 250 for Glicko-2's, 270 OpenSkill's)
ENTRY_BYTES = 700  # a journal entry, beside the players' states it keeps
DUEL_ENTRY_BYTES = ENTRY_BYTES + 2 * PLAYER_BYTES  # a one-on-one match's
ROW_BYTES = 120  # a row of a closed season's table
PARTIAL_FROM = 2_000  # players from which standings read from their head are read in part
GROUP_LIMIT = 64  # units of work committed together at most
GUESSES = 100_000  # what a PostgreSQL store keeps of what it read, to read ahead by
TRIES = 6  # attempts at a transaction that failed for a transient reason
ALL_ROWS = 1 << 62  # LIMIT meaning none, in both SQLite (-1) and PostgreSQL (no negatives)
