-- Ladderbot schema 19: one ladder across Discord and Telegram (issue 29). Accounts linked
-- into one player, ladders a second chat plays under its own name, and the one-time codes
-- that make both.

-- Two accounts of one person: each account's row names the person (the key of the
-- account that asked for the code). A player stays with the account that joined.
CREATE TABLE IF NOT EXISTS links (
    "user" TEXT PRIMARY KEY,
    person TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS links_person ON links (person);

-- A one-time code: "link" (subject: the user key that asked) or "share" (subject: the
-- ladder id). Taken once, and only before it expires.
CREATE TABLE IF NOT EXISTS codes (
    code    TEXT    PRIMARY KEY,
    kind    TEXT    NOT NULL,
    subject TEXT    NOT NULL,
    expires INTEGER NOT NULL
);

-- A ladder another chat plays: that chat's name for it, whether it is that chat's
-- default, where it announces there, and its moderators' role there.
CREATE TABLE IF NOT EXISTS shares (
    chat       TEXT    NOT NULL,
    name       TEXT    NOT NULL,
    ladder     INTEGER NOT NULL REFERENCES ladders(id),
    is_default INTEGER NOT NULL DEFAULT 0,
    channel    TEXT,
    mod_role   TEXT,
    PRIMARY KEY (chat, name)
);
CREATE INDEX IF NOT EXISTS shares_ladder ON shares (ladder);

-- The outbox built again with a pending report's buttons, for its announcement to the
-- other chat (a rebuild, not ALTER TABLE, so that running this again changes nothing).
CREATE TABLE outbox_19 (
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
    notify     TEXT    NOT NULL DEFAULT '',    -- users it calls, by user key, space-separated
    confirm    INTEGER                         -- a pending report whose buttons it carries
);
INSERT INTO outbox_19 (id, chat, ladder, channel, text, created_at, attempts, next_at,
                       last_error, ready, language, notify)
    SELECT id, chat, ladder, channel, text, created_at, attempts, next_at, last_error, ready,
           language, notify
    FROM outbox;
DROP TABLE outbox;
ALTER TABLE outbox_19 RENAME TO outbox;
CREATE INDEX outbox_due ON outbox (next_at);
