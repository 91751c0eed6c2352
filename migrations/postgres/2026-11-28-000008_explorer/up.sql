-- The opening explorer: what stored games played next from each public position, to a depth.
--
-- `node`: the public position (what every seat sees, with the history its rules read) in its
-- variant, as a 64-bit hash (records::core::explorer). One row per node and action as every
-- seat saw it: the games, their results for the side to move, points, the coin settlement's
-- terms, and the first and last stored game that played it, for positions several games went
-- on from. Kept in the transaction that
-- stores a game; stored games are never deleted, so the counts only grow.
CREATE TABLE explorer (
    node BIGINT NOT NULL,
    action TEXT NOT NULL,
    next BIGINT NOT NULL,
    game TEXT NOT NULL,
    preset TEXT NOT NULL,
    ply INTEGER NOT NULL,
    games BIGINT NOT NULL,
    wins BIGINT NOT NULL,
    draws BIGINT NOT NULL,
    losses BIGINT NOT NULL,
    points BIGINT NOT NULL,
    coin_stakes BIGINT NOT NULL,
    coin_margins BIGINT NOT NULL,
    first_game BIGINT NOT NULL,
    last_game BIGINT NOT NULL,
    PRIMARY KEY (node, action)
);
-- Positions that few stored games went on from (up to 4): a row per game, whose line says the
-- rest (records/src/store/grow.rs). A position has rows or tails, never both.
CREATE TABLE explorer_tails (
    node BIGINT NOT NULL,
    game_id BIGINT NOT NULL,
    PRIMARY KEY (node, game_id)
);
-- How deep the explorer follows games, and whether the stored games are in it: the games
-- stored before this migration are walked (in Rust) when the store is next opened.
CREATE TABLE explorer_settings (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    depth INTEGER NOT NULL,
    built BOOLEAN NOT NULL
);
-- A store without games has nothing to walk: built already.
INSERT INTO explorer_settings (id, depth, built) SELECT 1, 16, NOT EXISTS (SELECT 1 FROM games);
-- Each game's line for the explorer (records/src/store/line.rs): its first plies as every seat
-- saw them and what they credit; written with the game. NULL for an unfinished game, and for
-- the games stored before this migration until the explorer is built (when the store opens).
ALTER TABLE games ADD COLUMN opening_line BYTEA;
