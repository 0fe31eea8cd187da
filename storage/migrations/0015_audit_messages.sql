-- Ladderbot schema 15: what the bot itself writes into a moderator's audit entry, and
-- the reason a dispute's button gives, are stored messages (core/i18n), as schema 14
-- made a match's note. The default reasons, an adjustment's amount and the button's
-- reason are rewritten here. Older entries' other details (a settings change, a voided
-- or changed result) were written as English sentences and are shown as they were
-- written; a reason a moderator typed stays as typed.
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
