-- Ladderbot schema 4 (as storage/migrations/0004).
ALTER TABLE ladders ADD COLUMN mod_role TEXT;
