-- Ladderbot schema 24 (PostgreSQL): a ladder's imports (issue 54), as
-- storage/sqlite/migrations/0024.
CREATE TABLE IF NOT EXISTS imports (
    ladder    BIGINT NOT NULL REFERENCES ladders(id),
    id        BIGINT NOT NULL,
    at        BIGINT NOT NULL,
    by_name   TEXT   NOT NULL,
    first     BIGINT NOT NULL,
    last      BIGINT NOT NULL,
    players   TEXT   NOT NULL,
    undone_at BIGINT,
    PRIMARY KEY (ladder, id)
);
