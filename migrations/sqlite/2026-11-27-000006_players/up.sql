-- Players as a dimension of the store.
--
-- `named`: whether the record names the player of a seat (false: `name` is a stand-in,
-- "player 1" …). Ratings are of named players only. Every stored game is carried over: a
-- seat is named when its record's `players` reaches it.
ALTER TABLE seats ADD COLUMN named BOOLEAN NOT NULL DEFAULT TRUE;
UPDATE seats SET named = seat < COALESCE(
    (SELECT json_array_length(games.record, '$.players') FROM games WHERE games.id = seats.game_id),
    0);
-- `meetings`: finished games between named players, counted by the players in seat order and
-- the outcome (the counts `anqi report` names the same, from which the ratings are fitted):
-- kept in the transaction that stores a game, so that a rating is fitted from a few rows, not
-- from every game. Stored games are never deleted, so the counts only grow. `player3` is ''
-- in a game of two seats (a key column cannot be NULL on PostgreSQL).
CREATE TABLE meetings (
    game TEXT NOT NULL,
    preset TEXT NOT NULL,
    player1 TEXT NOT NULL,
    player2 TEXT NOT NULL,
    player3 TEXT NOT NULL,
    outcome TEXT NOT NULL,          -- as `games.result`: player1, player2, draw, player1>player3>player2 …
    games BIGINT NOT NULL,
    PRIMARY KEY (game, preset, player1, player2, player3, outcome)
) WITHOUT ROWID;
CREATE INDEX meetings_player1 ON meetings (player1);
CREATE INDEX meetings_player2 ON meetings (player2);
CREATE INDEX meetings_player3 ON meetings (player3) WHERE player3 <> '';
INSERT INTO meetings (game, preset, player1, player2, player3, outcome, games)
SELECT g.game, g.preset, s1.name, s2.name, COALESCE(s3.name, ''), g.result, COUNT(*)
FROM games g
JOIN seats s1 ON s1.game_id = g.id AND s1.seat = 0
JOIN seats s2 ON s2.game_id = g.id AND s2.seat = 1
LEFT JOIN seats s3 ON s3.game_id = g.id AND s3.seat = 2
WHERE g.result <> 'ongoing' AND s1.named AND s2.named AND COALESCE(s3.named, TRUE)
GROUP BY g.game, g.preset, s1.name, s2.name, COALESCE(s3.name, ''), g.result;
