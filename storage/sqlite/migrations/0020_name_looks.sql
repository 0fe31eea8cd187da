-- Ladderbot schema 20: what each player's name looks like (core.names.look: invisible
-- characters dropped, lookalike letters folded, case ignored), so that a player whose
-- name looks like another's on the ladder is shown apart ("alice (2)"). Rows of earlier
-- schemas have '' and are filled in when a name is next checked on their ladder.
ALTER TABLE player_names ADD COLUMN look TEXT NOT NULL DEFAULT '';
CREATE INDEX IF NOT EXISTS player_names_look ON player_names (ladder, look);
