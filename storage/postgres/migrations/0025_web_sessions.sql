-- Ladderbot schema 25 (PostgreSQL): the dashboard's sessions (issue 55), one row a signed-in
-- visitor. The key is the SHA-256 of the cookie's random value, so the table alone signs
-- nobody in; a row ends at its expiry or when its visitor logs out.
CREATE TABLE IF NOT EXISTS web_sessions (
    token   TEXT   PRIMARY KEY,
    "user"  TEXT   NOT NULL,
    name    TEXT   NOT NULL,
    csrf    TEXT   NOT NULL,
    created BIGINT NOT NULL,
    expires BIGINT NOT NULL
);
