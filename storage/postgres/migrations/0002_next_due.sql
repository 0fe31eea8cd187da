-- Ladderbot schema 2 (as storage/migrations/0002).
ALTER TABLE ladders ADD COLUMN next_due BIGINT;
CREATE INDEX ladders_due ON ladders (next_due) WHERE next_due IS NOT NULL;
