-- Ladderbot schema 5 (as storage/migrations/0005).
ALTER TABLE matches ADD COLUMN players_key TEXT;
UPDATE matches SET players_key = (
    SELECT string_agg(p.value, ',' ORDER BY CAST(p.value AS BIGINT))
    FROM jsonb_array_elements(CAST(matches.result AS JSONB) -> 's') AS s,
         jsonb_array_elements_text(s.value) AS p);
CREATE INDEX matches_by_players ON matches (ladder, players_key, reported_at);
ALTER TABLE ladders DROP COLUMN seq;
