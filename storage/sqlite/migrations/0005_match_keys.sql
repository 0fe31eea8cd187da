-- Ladderbot schema 5.
-- Reports of the same players are found by one index: the sorted player ids of a match.
ALTER TABLE matches ADD COLUMN players_key TEXT;
UPDATE matches SET players_key = (
    SELECT group_concat(id, ',') FROM (
        SELECT CAST(p.value AS INTEGER) AS id
        FROM json_each(json_extract(matches.result, '$.s')) AS s, json_each(s.value) AS p
        ORDER BY id));
CREATE INDEX matches_by_players ON matches (ladder, players_key, reported_at);
-- The log's length is max(events.seq); the copy in ladders cost a write per command.
ALTER TABLE ladders DROP COLUMN seq;
