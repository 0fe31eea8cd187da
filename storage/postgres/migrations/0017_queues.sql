-- Ladderbot schema 17 (PostgreSQL): a ladder's queue (issue 27), and the ready check an
-- announcement carries; as storage/migrations/0017 (which rebuilds the outbox, as SQLite
-- needs and PostgreSQL does not).
CREATE TABLE IF NOT EXISTS queues (
    ladder BIGINT PRIMARY KEY REFERENCES ladders(id),
    state  TEXT   NOT NULL
);

ALTER TABLE outbox ADD COLUMN IF NOT EXISTS ready BIGINT;
ALTER TABLE outbox ADD COLUMN IF NOT EXISTS language TEXT NOT NULL DEFAULT 'en';
ALTER TABLE outbox ADD COLUMN IF NOT EXISTS notify TEXT NOT NULL DEFAULT '';
