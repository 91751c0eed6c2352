-- Every position a stored game went on from is found by its node, however the game came there
-- (issue 59): a position that few games went on from keeps a row per game here, at every ply
-- of the game's line (explorer_tails kept one, where the game left the shared positions, and
-- the positions below were found only along that way). Once more than 64 games went on from
-- a position it has rows in `explorer`, which answer for it: its games here are no longer
-- read (records/src/store/grow.rs). The key starts with the game's block
-- (its id over 16,384): a transaction's games go to a few blocks, so an import writes near
-- the end of the table instead of all over it; a position is looked up once per block.
DROP TABLE explorer_tails;
CREATE TABLE explorer_games (
    block BIGINT NOT NULL,
    node BIGINT NOT NULL,
    game_id BIGINT NOT NULL,
    PRIMARY KEY (block, node, game_id)
);
-- A block whose games are all stored (a later game's id is in a later block) is packed: its
-- rows, sorted by node and game, 16 bytes each (node and game, little-endian), in chunks of
-- 32 that never split a node's games, keyed by the chunk's first node. An
-- import writes the blocks it fills packed, not as rows (a million games: 14 million rows
-- fewer to insert); a position is then one chunk per packed block.
CREATE TABLE explorer_packed (
    block BIGINT NOT NULL,
    first_node BIGINT NOT NULL,
    entries BYTEA NOT NULL,
    PRIMARY KEY (block, first_node)
);
-- Each packed block's Bloom filter of its nodes (10 bits a row, 7 hashes): a request probes
-- only the blocks whose filter holds its position. `id` names the filter (the hash of its
-- bits), so that a service keeps it in memory once read.
CREATE TABLE explorer_filters (
    block BIGINT PRIMARY KEY,
    id BIGINT NOT NULL,
    bits BYTEA NOT NULL
);
-- Derived from the stored games: walked again at the next open. No stored game changes.
DELETE FROM explorer;
UPDATE explorer_settings SET built = false;
