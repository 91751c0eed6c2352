DROP INDEX ledger_engine_games;
DROP INDEX ledger_updated;
ALTER TABLE ledger DROP COLUMN engine_lease_ms;
ALTER TABLE ledger DROP COLUMN engine_holder;
