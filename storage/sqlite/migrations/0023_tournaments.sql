-- Ladderbot schema 23: a ladder's tournaments (issue 53). One row a tournament, its
-- record (settings, players, the games its rounds announced) as small JSON
-- (storage/sql/tournaments.py), read and written whole: a few hundred games at most.
CREATE TABLE IF NOT EXISTS tournaments (
    ladder INTEGER NOT NULL REFERENCES ladders(id),
    id     INTEGER NOT NULL,
    name   TEXT    NOT NULL,
    live   INTEGER NOT NULL,  -- 1 while open or running: read with the ladder's row
    state  TEXT    NOT NULL,
    PRIMARY KEY (ladder, id)
);
