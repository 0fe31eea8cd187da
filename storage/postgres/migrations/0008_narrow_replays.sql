-- Ladderbot schema 8 (as storage/migrations/0008).
ALTER TABLE events ADD COLUMN duel_a BIGINT;
ALTER TABLE events ADD COLUMN duel_b BIGINT;
ALTER TABLE events ADD COLUMN duel_flags BIGINT;
ALTER TABLE events ADD COLUMN duel_moves BIGINT;
ALTER TABLE events ADD COLUMN duel_played BIGINT;
ALTER TABLE ladders ADD COLUMN restate_from BIGINT;
ALTER TABLE ladders ADD COLUMN restate_to BIGINT;
