-- A stored game's actions were kept twice: in `record` (the JSON) and in `actions` (joined by
-- spaces), nearly half of every row, read by nothing. An import writes 40% fewer bytes without
-- it (docs/performance.md). The actions stay in the record: in SQL,
-- `SELECT value FROM games, json_each(games.record, '$.actions') WHERE games.id = ?`.
ALTER TABLE games DROP COLUMN actions;
