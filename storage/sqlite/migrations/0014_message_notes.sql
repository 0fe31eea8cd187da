-- Ladderbot schema 14: a match's note is a stored message (core/i18n): its code and
-- parameters as JSON, never English words, so every reader gets it in their language.
-- The two notes a command wrote are rewritten here; the notes the fold writes (why a
-- match is unrated, a game of a series) are re-derived by restating each ladder's whole
-- history, which the bot does in the background (a note read before that is shown as
-- it was written). A reason a user typed stays as typed.
UPDATE matches SET note = json_array('note.withdrawn', json_object('name', substr(note, 14)))
 WHERE status = 'voided' AND confirmed_at IS NULL AND disputed_at IS NULL
   AND note LIKE 'withdrawn by %';
UPDATE matches SET note = '["dispute.no_reason",{}]' WHERE note = 'no reason given';
UPDATE ladders SET
  restate_from = 1,
  restate_to = max(coalesce(restate_to, 0),
                   (SELECT max(seq) + 1 FROM events WHERE events.ladder = ladders.id))
 WHERE EXISTS (SELECT 1 FROM events WHERE events.ladder = ladders.id);
