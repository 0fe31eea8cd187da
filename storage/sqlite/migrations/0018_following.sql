-- Ladderbot schema 18: what follows a ladder's standings on the platforms (issue 28):
-- the Discord roles it gives and what each member was given, and a live standings
-- message. Small JSON values (storage/codec.py), read and written in a command's
-- transaction or by the adapter that applies them.

-- One row a ladder and kind: "roles" (which roles, their ids, the last failure) or
-- "pin" (the live message: where, which, what it shows).
CREATE TABLE IF NOT EXISTS following (
    ladder INTEGER NOT NULL REFERENCES ladders(id),
    kind   TEXT    NOT NULL,
    state  TEXT    NOT NULL,
    PRIMARY KEY (ladder, kind)
);

-- What the bot last applied to a member for a ladder: the role keys they should hold,
-- and the ids of the roles it gave them itself (the only ones it ever takes away), each
-- a JSON list.
CREATE TABLE IF NOT EXISTS role_holdings (
    ladder  INTEGER NOT NULL REFERENCES ladders(id),
    member  TEXT    NOT NULL,
    wanted  TEXT    NOT NULL,
    granted TEXT    NOT NULL,
    PRIMARY KEY (ladder, member)
);
CREATE INDEX IF NOT EXISTS role_holdings_member ON role_holdings (member);
