-- Ladderbot schema 14 (PostgreSQL): as storage/migrations/0014_message_notes.sql says.
UPDATE matches SET note = json_build_array('note.withdrawn',
                                           json_build_object('name', substr(note, 14)))::jsonb::text
 WHERE status = 'voided' AND confirmed_at IS NULL AND disputed_at IS NULL
   AND note LIKE 'withdrawn by %';
UPDATE matches SET note = '["dispute.no_reason",{}]' WHERE note = 'no reason given';
UPDATE ladders SET
  restate_from = 1,
  restate_to = greatest(coalesce(restate_to, 0),
                        (SELECT max(seq) + 1 FROM events WHERE events.ladder = ladders.id))
 WHERE EXISTS (SELECT 1 FROM events WHERE events.ladder = ladders.id);
