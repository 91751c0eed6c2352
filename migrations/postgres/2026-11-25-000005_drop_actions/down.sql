-- The column again, filled in from each stored record.
ALTER TABLE games ADD COLUMN actions TEXT NOT NULL DEFAULT '';
UPDATE games SET actions = COALESCE(
    (SELECT string_agg(a, ' ' ORDER BY n)
       FROM jsonb_array_elements_text(games.record::jsonb -> 'actions') WITH ORDINALITY AS t(a, n)),
    '');
