-- Ladderbot schema 13: what a rulebook keeps of a player beside the rating (Glicko-2's
-- RD and volatility, OpenSkill's mu and sigma), as a JSON list; NULL for the others.
ALTER TABLE players ADD COLUMN extra TEXT;
-- Held out of the tables while the rulebook calls the player provisional (Glicko-2: RD
-- above provisional_rd); the Elo rulebooks' calibration is also read from rated_games.
ALTER TABLE players ADD COLUMN held INTEGER NOT NULL DEFAULT 0;
