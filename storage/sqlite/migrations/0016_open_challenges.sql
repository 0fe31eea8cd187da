-- Ladderbot schema 16: an open challenge (`/challenge` with no name) has no challenged
-- player until someone takes it with `/accept @challenger`, so `challenged` may be NULL.
-- SQLite cannot drop a NOT NULL in place: the table is rebuilt with its rows and index.
CREATE TABLE challenges_16 (
    ladder      INTEGER NOT NULL REFERENCES ladders(id),
    id          INTEGER NOT NULL,
    challenger  INTEGER NOT NULL,
    challenged  INTEGER,
    status      TEXT    NOT NULL,
    issued_at   INTEGER NOT NULL,
    answered_at INTEGER,
    reminded    INTEGER NOT NULL DEFAULT 0,
    match       INTEGER,
    reason      TEXT    NOT NULL DEFAULT '',
    PRIMARY KEY (ladder, id)
) WITHOUT ROWID;
INSERT INTO challenges_16 SELECT ladder, id, challenger, challenged, status, issued_at,
    answered_at, reminded, match, reason FROM challenges;
DROP TABLE challenges;
ALTER TABLE challenges_16 RENAME TO challenges;
CREATE INDEX challenges_unfinished ON challenges (ladder, id)
    WHERE status IN ('open', 'accepted');
