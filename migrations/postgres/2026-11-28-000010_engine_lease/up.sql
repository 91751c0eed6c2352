-- Live play across instances (issue 57).
-- The lease on a game's engine seats: the instance that plays them (a random id it chose when
-- it started) and until when (Unix milliseconds). The holder renews it while it lives; once it
-- has run out, any live instance takes the seats over, so a game whose dealing instance died
-- still gets its engine's moves, and two live instances never both search one game.
ALTER TABLE ledger ADD COLUMN engine_holder TEXT;
ALTER TABLE ledger ADD COLUMN engine_lease_ms BIGINT;
-- The games that moved lately: instances sharing a SQLite file have no notices (PostgreSQL's
-- NOTIFY), so each looks for the rows updated in the last few seconds whenever the file
-- changes (records/src/store/ledger.rs, `listen`).
CREATE INDEX ledger_updated ON ledger (updated_at);
-- The games in play with engine seats, which each instance's keeper looks through every second
-- or so for a lease run out.
CREATE INDEX ledger_engine_games ON ledger (engine_lease_ms) WHERE engines IS NOT NULL AND result IS NULL;
