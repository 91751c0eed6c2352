-- A stored game's record and actions are a few kilobytes: past PostgreSQL's TOAST threshold,
-- where the default pglz compression took half the server's time of a bulk import (200,000
-- games: 28 s with pglz, 15 s with lz4; docs/performance.md). lz4 where the server has it
-- (PostgreSQL 14 and later, built with lz4); elsewhere nothing changes. Only new values are
-- compressed the new way: the stored games stay as they are, readable either way.
DO $$
BEGIN
    ALTER TABLE games ALTER COLUMN record SET COMPRESSION lz4,
                      ALTER COLUMN actions SET COMPRESSION lz4;
EXCEPTION WHEN OTHERS THEN
    RAISE NOTICE 'lz4 compression is not available: games keep the default compression';
END
$$;
