-- Ladderbot schema 12 (as storage/migrations/0012): banned and removed players.
ALTER TABLE player_names ADD COLUMN banned BIGINT NOT NULL DEFAULT 0;
ALTER TABLE player_names ADD COLUMN removed BIGINT NOT NULL DEFAULT 0;
