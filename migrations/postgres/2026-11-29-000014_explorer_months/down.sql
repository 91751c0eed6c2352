ALTER TABLE explorer_settings DROP COLUMN months;
DROP TABLE explorer_months;
