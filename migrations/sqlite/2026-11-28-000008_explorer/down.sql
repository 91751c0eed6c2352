DROP TABLE explorer_tails;
DROP TABLE explorer_settings;
DROP TABLE explorer;
