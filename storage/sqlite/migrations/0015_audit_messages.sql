-- Ladderbot schema 15: what the bot itself writes into a moderator's audit entry, and
-- the reason a dispute's button gives, are stored messages (core/i18n), as schema 14
-- made a match's note. The default reasons, an adjustment's amount, a cancelled
-- challenge and the button's reason are rewritten here. An older settings change
-- ("k=24 (was 32)") is shown as it was written: its words cannot be told apart in SQL
-- alone. A reason a moderator typed stays as typed.
UPDATE audit SET reason = '["audit.closed_early",{}]'
 WHERE action = 'season-close' AND reason = 'closed early';
UPDATE audit SET reason = '["audit.added",{}]'
 WHERE action = 'add' AND reason = 'added by a moderator';
UPDATE audit SET detail = json_array(
    CASE WHEN detail LIKE '% rung%' THEN 'adjust.rungs' ELSE 'adjust.points' END,
    json_object('amount', substr(detail, 1, instr(detail, ' ') - 1)),
    -- the plural form's count: a fraction of a point takes Russian's 2-4 form
    CASE WHEN substr(detail, 1, instr(detail, ' ') - 1) LIKE '%.%' THEN 2
         ELSE abs(CAST(substr(detail, 1, instr(detail, ' ') - 1) AS INTEGER)) END)
 WHERE action = 'adjust'
   AND (detail LIKE '% point' OR detail LIKE '% points' OR detail LIKE '% rung'
        OR detail LIKE '% rungs');
-- A dispute's button gave its reason in English words.
UPDATE matches SET note = '["dispute.by_button",{}]' WHERE note = 'disputed with the button';
-- A moderator's cancellation named the challenge and its players in English words;
-- they are said again from the challenge itself (its players' names as they are now).
UPDATE audit SET detail = coalesce((  -- (a challenge no longer there: as it was)
    SELECT json_array('audit.challenge',
                      json_object('id', c.id, 'challenger', a.name, 'challenged', b.name))
      FROM challenges c
      JOIN player_names a ON a.ladder = c.ladder AND a.id = c.challenger
      JOIN player_names b ON b.ladder = c.ladder AND b.id = c.challenged
     WHERE c.ladder = audit.ladder
       AND c.id = CAST(substr(audit.detail, 2, instr(audit.detail, ' ') - 2) AS INTEGER)),
    detail)
 WHERE action = 'cancel' AND detail LIKE '#% between % and %';
