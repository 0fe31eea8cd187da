-- Ladderbot schema 9: where members stood in their ladder's main table at the start of
-- the day (its top only), so /standings can show who moved since (▲2, ▼1).
ALTER TABLE players ADD COLUMN day_rank INTEGER;
