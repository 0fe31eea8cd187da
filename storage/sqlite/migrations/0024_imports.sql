-- Ladderbot schema 24: a ladder's imports (issue 54), each kept so that a moderator can
-- undo it at once. One row an import; its matches are the numbers first..last (an import
-- is one transaction) and the players it made are a small JSON list.
CREATE TABLE IF NOT EXISTS imports (
    ladder    INTEGER NOT NULL REFERENCES ladders(id),
    id        INTEGER NOT NULL,
    at        INTEGER NOT NULL,
    by_name   TEXT    NOT NULL,
    first     INTEGER NOT NULL,
    last      INTEGER NOT NULL,
    players   TEXT    NOT NULL,
    undone_at INTEGER,
    PRIMARY KEY (ladder, id)
);
