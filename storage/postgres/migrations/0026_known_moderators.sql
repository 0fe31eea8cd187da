-- Ladderbot schema 26 (PostgreSQL): the chats where the bot has known a user as a
-- moderator (one of their commands there, answered with a chat moderator's rights), so
-- the dashboard lists those chats' ladders to them whether or not they play (issue 55).
-- It only lists: the moderator page asks the platform again before every view and action.
CREATE TABLE IF NOT EXISTS known_moderators (
    "user" TEXT   NOT NULL,
    chat   TEXT   NOT NULL,
    at     BIGINT NOT NULL,
    PRIMARY KEY ("user", chat)
);
