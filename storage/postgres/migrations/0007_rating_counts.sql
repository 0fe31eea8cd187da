-- Ladderbot schema 7 (as storage/migrations/0007): members per whole-point rating bucket,
-- kept by a trigger. trunc() rounds toward zero as SQLite's CAST(... AS INTEGER) does
-- (PostgreSQL's CAST alone would round to the nearest).
CREATE TABLE rating_counts (
    ladder BIGINT NOT NULL,
    bucket BIGINT NOT NULL,
    n      BIGINT NOT NULL,
    PRIMARY KEY (ladder, bucket)
);

INSERT INTO rating_counts (ladder, bucket, n)
    SELECT ladder, CAST(trunc(rating) AS BIGINT), count(*) FROM players WHERE member = 1
    GROUP BY ladder, CAST(trunc(rating) AS BIGINT);

CREATE FUNCTION rating_counts_keep() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.member = 1 THEN
        UPDATE rating_counts SET n = n - 1
            WHERE ladder = OLD.ladder AND bucket = CAST(trunc(OLD.rating) AS BIGINT);
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.member = 1 THEN
        INSERT INTO rating_counts (ladder, bucket, n)
            VALUES (NEW.ladder, CAST(trunc(NEW.rating) AS BIGINT), 1)
            ON CONFLICT (ladder, bucket) DO UPDATE SET n = rating_counts.n + 1;
    END IF;
    RETURN NULL;
END;
$$;

CREATE TRIGGER rating_counts_insert AFTER INSERT ON players
    FOR EACH ROW WHEN (NEW.member = 1) EXECUTE FUNCTION rating_counts_keep();
CREATE TRIGGER rating_counts_update AFTER UPDATE OF rating, member ON players
    FOR EACH ROW WHEN (OLD.member <> NEW.member
                       OR trunc(OLD.rating) <> trunc(NEW.rating))
    EXECUTE FUNCTION rating_counts_keep();
CREATE TRIGGER rating_counts_delete AFTER DELETE ON players
    FOR EACH ROW WHEN (OLD.member = 1) EXECUTE FUNCTION rating_counts_keep();
