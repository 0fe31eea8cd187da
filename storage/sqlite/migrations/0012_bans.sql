-- Ladderbot schema 12: a player a moderator took off the ladder (/mod remove) or banned
-- (/mod ban) is told so, and a banned one cannot /join until /mod unban.
ALTER TABLE player_names ADD COLUMN banned INTEGER NOT NULL DEFAULT 0;
ALTER TABLE player_names ADD COLUMN removed INTEGER NOT NULL DEFAULT 0;
