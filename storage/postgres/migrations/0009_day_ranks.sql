-- Ladderbot schema 9 (as storage/migrations/0009).
ALTER TABLE players ADD COLUMN day_rank BIGINT;
