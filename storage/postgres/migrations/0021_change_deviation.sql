-- Ladderbot schema 21 (as storage/sqlite/migrations/0021): the rating's deviation after
-- each change, where the rulebook keeps one (Glicko-2's RD).
ALTER TABLE changes ADD COLUMN IF NOT EXISTS rd DOUBLE PRECISION;
