ALTER TABLE games DROP COLUMN opening_line;
DROP TABLE explorer_tails;
DROP TABLE explorer_settings;
DROP TABLE explorer;
