-- Ladderbot schema 22 (as storage/sqlite/migrations/0022): the head of a ladder's
-- standings and its pairs' recent games, kept when a process lets go of them.
CREATE TABLE IF NOT EXISTS heads (
    ladder BIGINT PRIMARY KEY REFERENCES ladders(id),
    seq    BIGINT NOT NULL,
    body   TEXT   NOT NULL,
    ids    TEXT   NOT NULL
);
CREATE TABLE IF NOT EXISTS head_pairs (
    ladder BIGINT NOT NULL REFERENCES ladders(id),
    low    BIGINT NOT NULL,
    high   BIGINT NOT NULL,
    times  TEXT   NOT NULL,
    PRIMARY KEY (ladder, low, high)
);
