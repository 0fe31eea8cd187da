-- Ladderbot schema 11 (as storage/migrations/0011): who a player is, apart from how they
-- stand. PostgreSQL drops the columns in place (the UNIQUE constraint goes with "user").
CREATE TABLE player_names (
    ladder    BIGINT NOT NULL REFERENCES ladders(id),
    id        BIGINT NOT NULL,
    "user"    TEXT   NOT NULL,
    name      TEXT   NOT NULL,
    available BIGINT NOT NULL DEFAULT 1,
    PRIMARY KEY (ladder, id),
    UNIQUE (ladder, "user")
);
INSERT INTO player_names (ladder, id, "user", name, available)
    SELECT ladder, id, "user", name, available FROM players;
ALTER TABLE players DROP COLUMN "user", DROP COLUMN name, DROP COLUMN available;
