-- Ladderbot schema 10 (as storage/migrations/0010).
CREATE INDEX players_day_rank ON players (ladder, day_rank) WHERE day_rank IS NOT NULL;
