-- Back to player1/player2/points1/points2 on the game (the first two seats).
ALTER TABLE games ADD COLUMN player1 TEXT NOT NULL DEFAULT '';
ALTER TABLE games ADD COLUMN player2 TEXT NOT NULL DEFAULT '';
ALTER TABLE games ADD COLUMN points1 INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN points2 INTEGER NOT NULL DEFAULT 0;
UPDATE games SET
    player1 = (SELECT name FROM seats WHERE game_id = games.id AND seat = 0),
    points1 = (SELECT points FROM seats WHERE game_id = games.id AND seat = 0),
    player2 = (SELECT name FROM seats WHERE game_id = games.id AND seat = 1),
    points2 = (SELECT points FROM seats WHERE game_id = games.id AND seat = 1);
DROP INDEX games_game;
DROP TABLE seats;
CREATE INDEX games_player1 ON games (player1, id);
CREATE INDEX games_player2 ON games (player2, id);
