-- Ladderbot schema 17: a ladder's queue (issue 27), and the ready check an announcement
-- carries (a match a lapsed ready check formed again, posted with its Ready button and
-- calling its players).

-- One row a ladder: who waits and the matches it formed, as small JSON (storage/codec.py).
-- A queue holds a few dozen players at most and is read and written whole.
CREATE TABLE IF NOT EXISTS queues (
    ladder INTEGER PRIMARY KEY REFERENCES ladders(id),
    state  TEXT    NOT NULL
);

-- The outbox built again with its three new columns (a rebuild, not ALTER TABLE, so that
-- running this again on a database already at 17 changes nothing).
CREATE TABLE outbox_17 (
    id         INTEGER PRIMARY KEY,
    chat       TEXT    NOT NULL,
    ladder     TEXT    NOT NULL,
    channel    TEXT,
    text       TEXT    NOT NULL,
    created_at INTEGER NOT NULL,
    attempts   INTEGER NOT NULL DEFAULT 0,
    next_at    INTEGER NOT NULL,
    last_error TEXT,
    ready      INTEGER,                        -- a queue match whose Ready button it carries
    language   TEXT    NOT NULL DEFAULT 'en',  -- what its words (and the button) are said in
    notify     TEXT    NOT NULL DEFAULT ''     -- users it calls, by user key, space-separated
);
INSERT INTO outbox_17 (id, chat, ladder, channel, text, created_at, attempts, next_at,
                       last_error)
    SELECT id, chat, ladder, channel, text, created_at, attempts, next_at, last_error
    FROM outbox;
DROP TABLE outbox;
ALTER TABLE outbox_17 RENAME TO outbox;
CREATE INDEX outbox_due ON outbox (next_at);
