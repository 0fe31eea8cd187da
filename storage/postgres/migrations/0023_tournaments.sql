-- Ladderbot schema 23 (PostgreSQL): a ladder's tournaments (issue 53), as
-- storage/sqlite/migrations/0023.
CREATE TABLE IF NOT EXISTS tournaments (
    ladder BIGINT NOT NULL REFERENCES ladders(id),
    id     BIGINT NOT NULL,
    name   TEXT   NOT NULL,
    live   BIGINT NOT NULL,  -- 1 while open or running: read with the ladder's row
    state  TEXT   NOT NULL,
    PRIMARY KEY (ladder, id)
);
