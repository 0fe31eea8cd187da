-- Ladderbot schema 2: when each ladder next has a job due, so the scheduler wakes only
-- ladders with work (NULL: nothing scheduled).
ALTER TABLE ladders ADD COLUMN next_due INTEGER;
CREATE INDEX ladders_due ON ladders (next_due) WHERE next_due IS NOT NULL;
