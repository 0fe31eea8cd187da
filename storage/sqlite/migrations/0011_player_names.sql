-- Ladderbot schema 11: who a player is (user key, name, availability) is kept apart from
-- how they stand. Every report rewrites two standing rows and a decay day rewrites all of
-- them; without the text columns those rows are narrower and so is the work (a decay day
-- over a million players: about a fifth less, and half as many pages to checkpoint).
CREATE TABLE player_names (
    ladder    INTEGER NOT NULL REFERENCES ladders(id),
    id        INTEGER NOT NULL,
    user      TEXT    NOT NULL,
    name      TEXT    NOT NULL,
    available INTEGER NOT NULL DEFAULT 1,
    PRIMARY KEY (ladder, id),
    UNIQUE (ladder, user)
) WITHOUT ROWID;
INSERT INTO player_names (ladder, id, user, name, available)
    SELECT ladder, id, user, name, available FROM players;

-- SQLite cannot drop a column of a UNIQUE constraint: the table is built anew.
CREATE TABLE players_standing (
    ladder       INTEGER NOT NULL REFERENCES ladders(id),
    id           INTEGER NOT NULL,
    member       INTEGER NOT NULL DEFAULT 0,
    rating       REAL    NOT NULL,
    rung         INTEGER,
    games        INTEGER NOT NULL DEFAULT 0,
    rated_games  INTEGER NOT NULL DEFAULT 0,
    wins         INTEGER NOT NULL DEFAULT 0,
    losses       INTEGER NOT NULL DEFAULT 0,
    draws        INTEGER NOT NULL DEFAULT 0,
    rated_wins   INTEGER NOT NULL DEFAULT 0,
    last_played  INTEGER,
    season_gain  REAL    NOT NULL DEFAULT 0,
    season_games INTEGER NOT NULL DEFAULT 0,
    day_rank     INTEGER,
    PRIMARY KEY (ladder, id)
) WITHOUT ROWID;
INSERT INTO players_standing (ladder, id, member, rating, rung, games, rated_games, wins,
                              losses, draws, rated_wins, last_played, season_gain,
                              season_games, day_rank)
    SELECT ladder, id, member, rating, rung, games, rated_games, wins, losses, draws,
           rated_wins, last_played, season_gain, season_games, day_rank FROM players;
DROP TABLE players;  -- with its indexes and the histogram's triggers, made again below
ALTER TABLE players_standing RENAME TO players;

CREATE INDEX players_by_rating ON players (ladder, member, rating DESC, id, rated_games,
                                           last_played);
CREATE INDEX players_by_rung ON players (ladder, rung) WHERE rung IS NOT NULL;
CREATE INDEX players_day_rank ON players (ladder, day_rank) WHERE day_rank IS NOT NULL;

-- The histogram (schema 7) is already right for these rows; only its triggers move.
CREATE TRIGGER rating_counts_insert AFTER INSERT ON players WHEN NEW.member = 1
BEGIN
    INSERT INTO rating_counts (ladder, bucket, n)
        VALUES (NEW.ladder, CAST(NEW.rating AS INTEGER), 1)
        ON CONFLICT (ladder, bucket) DO UPDATE SET n = n + 1;
END;

CREATE TRIGGER rating_counts_update AFTER UPDATE OF rating, member ON players
WHEN OLD.member != NEW.member OR CAST(OLD.rating AS INTEGER) != CAST(NEW.rating AS INTEGER)
BEGIN
    UPDATE rating_counts SET n = n - 1
        WHERE OLD.member = 1 AND ladder = OLD.ladder AND bucket = CAST(OLD.rating AS INTEGER);
    INSERT INTO rating_counts (ladder, bucket, n)
        SELECT NEW.ladder, CAST(NEW.rating AS INTEGER), 1 WHERE NEW.member = 1
        ON CONFLICT (ladder, bucket) DO UPDATE SET n = n + 1;
END;

CREATE TRIGGER rating_counts_delete AFTER DELETE ON players WHEN OLD.member = 1
BEGIN
    UPDATE rating_counts SET n = n - 1
        WHERE ladder = OLD.ladder AND bucket = CAST(OLD.rating AS INTEGER);
END;
