DROP TABLE ledger_events;
ALTER TABLE ledger_actions DROP COLUMN at_ms;
ALTER TABLE ledger DROP COLUMN engines;
ALTER TABLE ledger DROP COLUMN events;
ALTER TABLE ledger DROP COLUMN claim_after_ms;
ALTER TABLE ledger DROP COLUMN clock_increment_ms;
ALTER TABLE ledger DROP COLUMN clock_base_ms;
