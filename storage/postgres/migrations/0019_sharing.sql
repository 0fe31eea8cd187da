-- Ladderbot schema 19 (PostgreSQL), as storage/migrations/0019: one ladder across
-- Discord and Telegram (issue 29). Accounts linked into one player, ladders a second
-- chat plays under its own name, and the one-time codes that make both.

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
    expires BIGINT  NOT NULL
);

-- A ladder another chat plays: that chat's name for it, whether it is that chat's
-- default, where it announces there, and its moderators' role there.
CREATE TABLE IF NOT EXISTS shares (
    chat       TEXT    NOT NULL,
    name       TEXT    NOT NULL,
    ladder     BIGINT  NOT NULL REFERENCES ladders(id),
    is_default BIGINT  NOT NULL DEFAULT 0,
    channel    TEXT,
    mod_role   TEXT,
    PRIMARY KEY (chat, name)
);
CREATE INDEX IF NOT EXISTS shares_ladder ON shares (ladder);

-- A pending report's buttons, on its announcement to the other chat.
ALTER TABLE outbox ADD COLUMN IF NOT EXISTS confirm BIGINT;
