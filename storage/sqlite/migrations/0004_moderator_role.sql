-- Ladderbot schema 4: a ladder's moderator role (Discord role id), besides chat admins.
ALTER TABLE ladders ADD COLUMN mod_role TEXT;
