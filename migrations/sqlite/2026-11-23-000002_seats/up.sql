-- One row per seat of a stored game, instead of player1/player2/points1/points2 on the game:
-- games have two or three seats. Every stored game is carried over: its names and points
-- move to seats 0 and 1. The side each seat played (a colour, a faction) is new: it is '?'
-- here, and the store fills it in by replaying the stored record when it next opens
-- (records::store, `backfill_sides`).
CREATE TABLE seats (
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat INTEGER NOT NULL,          -- 0 for player 1 (who moves first), 1, 2
    name TEXT NOT NULL,
    side TEXT,                      -- the colour or faction played; NULL while unknown
    points INTEGER NOT NULL,        -- points won (Banqi: 棋點)
    PRIMARY KEY (game_id, seat)
);
INSERT INTO seats (game_id, seat, name, side, points) SELECT id, 0, player1, '?', points1 FROM games;
INSERT INTO seats (game_id, seat, name, side, points) SELECT id, 1, player2, '?', points2 FROM games;
CREATE INDEX seats_name ON seats (name, game_id);
CREATE INDEX seats_pending ON seats (game_id) WHERE side = '?';
DROP INDEX games_player1;
DROP INDEX games_player2;
ALTER TABLE games DROP COLUMN player1;
ALTER TABLE games DROP COLUMN player2;
ALTER TABLE games DROP COLUMN points1;
ALTER TABLE games DROP COLUMN points2;
CREATE INDEX games_game ON games (game, preset, id);
