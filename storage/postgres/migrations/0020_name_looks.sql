-- Ladderbot schema 20 (as storage/migrations/0020): what each player's name looks like.
ALTER TABLE player_names ADD COLUMN IF NOT EXISTS look TEXT NOT NULL DEFAULT '';
CREATE INDEX IF NOT EXISTS player_names_look ON player_names (ladder, look);
