-- Ladderbot schema 6: fewer writes per report.
-- The changes of a match are found through its event (events_match), not an index here.
DROP INDEX changes_by_match;
-- Match and challenge numbers come from the tables' own keys, not counters in ladders.
ALTER TABLE ladders DROP COLUMN next_match;
ALTER TABLE ladders DROP COLUMN next_challenge;
