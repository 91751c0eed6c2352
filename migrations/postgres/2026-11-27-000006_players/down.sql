DROP TABLE meetings;
ALTER TABLE seats DROP COLUMN named;
