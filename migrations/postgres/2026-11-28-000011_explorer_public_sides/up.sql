-- Dark Luzhanqi's public positions now keep every unknown piece's side (`U` red, `u` black;
-- they were all `?`, which merged different positions into one node: issue 59), and an attack
-- that showed a flag says where (`:flag@b1`; `:flag` alone led to positions that differ). The explorer
-- is derived from the stored games: it is walked again at the next open (built = false), with
-- the new nodes. No stored game changes.
UPDATE explorer_settings SET built = false;
