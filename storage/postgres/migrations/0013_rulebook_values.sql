-- Ladderbot schema 13 (as storage/migrations/0013): a rulebook's values of a player.
ALTER TABLE players ADD COLUMN extra TEXT;
ALTER TABLE players ADD COLUMN held BIGINT NOT NULL DEFAULT 0;
