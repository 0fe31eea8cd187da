-- Ladderbot schema 7: a histogram of members' ratings per whole-point bucket, so a rank
-- (1 + the members rated strictly higher) is a sum over a few hundred buckets instead of
-- a count over half a million index entries. Triggers keep it exact on every write.
CREATE TABLE rating_counts (
    ladder INTEGER NOT NULL,
    bucket INTEGER NOT NULL,   -- CAST(rating AS INTEGER)
    n      INTEGER NOT NULL,
    PRIMARY KEY (ladder, bucket)
) WITHOUT ROWID;

INSERT INTO rating_counts (ladder, bucket, n)
    SELECT ladder, CAST(rating AS INTEGER), count(*) FROM players WHERE member = 1
    GROUP BY ladder, CAST(rating AS INTEGER);

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
