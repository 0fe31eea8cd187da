-- Ladderbot schema 3: what chat platforms need besides the ladders.

-- Telegram cannot turn @username into a user: the bot learns handles from what it sees.
CREATE TABLE handles (
    platform TEXT    NOT NULL,
    handle   TEXT    NOT NULL,             -- lower case, without the @
    user     TEXT    NOT NULL,             -- the user key, e.g. telegram:12345
    name     TEXT    NOT NULL,
    seen_at  INTEGER NOT NULL,
    PRIMARY KEY (platform, handle)
) WITHOUT ROWID;

-- Announcements wait here until a platform has posted them: a failed send is retried,
-- and a restart in between loses nothing.
CREATE TABLE outbox (
    id         INTEGER PRIMARY KEY,
    chat       TEXT    NOT NULL,
    ladder     TEXT    NOT NULL,
    channel    TEXT,
    text       TEXT    NOT NULL,
    created_at INTEGER NOT NULL,
    attempts   INTEGER NOT NULL DEFAULT 0,
    next_at    INTEGER NOT NULL,
    last_error TEXT
);
CREATE INDEX outbox_due ON outbox (next_at);
