-- Ladderbot schema 8: fast replays.
-- A plain one-on-one match event also carries its values in columns, so a long replay
-- reads tuples instead of parsing JSON (the body stays the complete record).
ALTER TABLE events ADD COLUMN duel_a INTEGER;       -- the first side (the winner unless a draw)
ALTER TABLE events ADD COLUMN duel_b INTEGER;
ALTER TABLE events ADD COLUMN duel_flags INTEGER;   -- 1: draw, 2: unrated
ALTER TABLE events ADD COLUMN duel_moves INTEGER;
ALTER TABLE events ADD COLUMN duel_played INTEGER;
-- A correction far back re-derives the standings at once; the per-match history of events
-- [restate_from, restate_to) is brought up to date afterwards, in chunks.
ALTER TABLE ladders ADD COLUMN restate_from INTEGER;
ALTER TABLE ladders ADD COLUMN restate_to INTEGER;
