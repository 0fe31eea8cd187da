-- Ladderbot schema 16 (PostgreSQL): an open challenge has no challenged player until
-- someone takes it, so `challenged` may be NULL (storage/migrations/0016 rebuilds the
-- table, which SQLite needs and PostgreSQL does not).
ALTER TABLE challenges ALTER COLUMN challenged DROP NOT NULL;
