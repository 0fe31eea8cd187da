-- Ladderbot schema 15 (PostgreSQL): as storage/migrations/0015_audit_messages.sql says.
UPDATE audit SET reason = '["audit.closed_early",{}]'
 WHERE action = 'season-close' AND reason = 'closed early';
UPDATE audit SET reason = '["audit.added",{}]'
 WHERE action = 'add' AND reason = 'added by a moderator';
UPDATE audit SET detail = json_build_array(
    CASE WHEN detail LIKE '% rung%' THEN 'adjust.rungs' ELSE 'adjust.points' END,
    json_build_object('amount', split_part(detail, ' ', 1)),
    CASE WHEN split_part(detail, ' ', 1) LIKE '%.%' THEN 2
         ELSE abs(CAST(split_part(detail, ' ', 1) AS integer)) END)::jsonb::text
 WHERE action = 'adjust'
   AND (detail LIKE '% point' OR detail LIKE '% points' OR detail LIKE '% rung'
        OR detail LIKE '% rungs');
UPDATE matches SET note = '["dispute.by_button",{}]' WHERE note = 'disputed with the button';
UPDATE audit SET detail = json_build_array('audit.challenge', json_build_object(
    'id', c.id, 'challenger', a.name, 'challenged', b.name))::jsonb::text
  FROM challenges c
  JOIN player_names a ON a.ladder = c.ladder AND a.id = c.challenger
  JOIN player_names b ON b.ladder = c.ladder AND b.id = c.challenged
 WHERE audit.action = 'cancel' AND audit.detail LIKE '#% between % and %'
   AND c.ladder = audit.ladder
   AND c.id = CAST(split_part(substr(audit.detail, 2), ' ', 1) AS integer);
