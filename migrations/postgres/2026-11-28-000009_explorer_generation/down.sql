ALTER TABLE explorer_settings DROP COLUMN generation;
