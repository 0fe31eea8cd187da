-- Ladderbot schema 6 (as storage/migrations/0006).
DROP INDEX changes_by_match;
ALTER TABLE ladders DROP COLUMN next_match;
ALTER TABLE ladders DROP COLUMN next_challenge;
