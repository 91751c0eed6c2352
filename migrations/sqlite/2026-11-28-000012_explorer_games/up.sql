-- Every position a stored game went on from is found by its node, however the game came there
-- (issue 59): a position that few games went on from keeps a row per game here, at every ply
-- of the game's line (explorer_tails kept one, where the game left the shared positions, and
-- the positions below were found only along that way). A position has rows in `explorer` or
-- games here, never both (records/src/store/grow.rs). The key starts with the game's block
-- (its id over 16,384): a transaction's games go to one or two blocks, so an import writes
-- near the end of the table instead of all over it; a position is looked up once per block.
DROP TABLE explorer_tails;
CREATE TABLE explorer_games (
    block BIGINT NOT NULL,
    node BIGINT NOT NULL,
    game_id BIGINT NOT NULL,
    PRIMARY KEY (block, node, game_id)
) WITHOUT ROWID;
-- Derived from the stored games: walked again at the next open. No stored game changes.
DELETE FROM explorer;
UPDATE explorer_settings SET built = false;
