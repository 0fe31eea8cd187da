-- Ladderbot schema 22: the head of a ladder's standings, kept when a process lets go of
-- them (storage/sql/heads.py), so that loading them again reads the stored projection
-- (this, the ladder's row and its players) instead of replaying the log. Valid only while
-- the log has `seq` events; a cache, rebuilt from the log whenever it is not.
CREATE TABLE heads (
    ladder INTEGER PRIMARY KEY REFERENCES ladders(id),
    seq    INTEGER NOT NULL,
    body   TEXT    NOT NULL,
    ids    TEXT    NOT NULL  -- its players' ids, in the standings' order
);
-- Each pair's recent rated games (anti-farming), as of the head, read a pair at a time.
CREATE TABLE head_pairs (
    ladder INTEGER NOT NULL REFERENCES ladders(id),
    low    INTEGER NOT NULL,
    high   INTEGER NOT NULL,
    times  TEXT    NOT NULL,
    PRIMARY KEY (ladder, low, high)
) WITHOUT ROWID;
