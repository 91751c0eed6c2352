-- The column again, filled in from each stored record.
ALTER TABLE games ADD COLUMN actions TEXT NOT NULL DEFAULT '';
UPDATE games SET actions = COALESCE(
    (SELECT group_concat(value, ' ') FROM (SELECT value FROM json_each(games.record, '$.actions') ORDER BY key)),
    '');
