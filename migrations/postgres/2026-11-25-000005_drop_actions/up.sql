-- A stored game's actions were kept twice: in `record` (the JSON) and in `actions` (joined by
-- spaces), nearly half of every row, read by nothing. An import writes 40% fewer bytes without
-- it (docs/performance.md). The actions stay in the record: in SQL,
-- `SELECT jsonb_array_elements_text(record::jsonb -> 'actions') FROM games WHERE id = $1`.
ALTER TABLE games DROP COLUMN actions;
