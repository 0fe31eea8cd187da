-- Ladderbot schema 21: the rating's deviation after each change, where the rulebook keeps
-- one (Glicko-2's RD), which a chart draws as a band. Rows of earlier schemas have NULL:
-- their band begins at the next change.
ALTER TABLE changes ADD COLUMN rd REAL;
