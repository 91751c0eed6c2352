-- How many transactions have changed the explorer: each that does adds one. A writer that
-- remembers the number its last commit left can tell that nobody else wrote since, and keep
-- what it knows of the explorer's positions from one transaction to the next (an import's
-- batches) instead of asking the store again (records/src/store/grow.rs).
ALTER TABLE explorer_settings ADD COLUMN generation BIGINT NOT NULL DEFAULT 0;
