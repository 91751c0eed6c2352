DROP TABLE explorer_settings;
DROP TABLE explorer;
