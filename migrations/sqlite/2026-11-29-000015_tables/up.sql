-- 戲谷 tables (issue 61, seed 002): two players who play Banqi game after game for coins. A
-- table's games are ordinary refereed games (`ledger`); a table's row holds its terms, its two
-- players and its coins, and moves by compare-and-swap on `version`, so that of two instances
-- settling one game, or dealing the next, exactly one does.
CREATE TABLE tables (
  table_id TEXT PRIMARY KEY NOT NULL,
  -- JSON: the preset, the options, the stake, the points bonus, the scene's fee, the time.
  terms TEXT NOT NULL,
  -- JSON: the two chairs' names.
  players TEXT NOT NULL,
  -- JSON: the balances, the carried draws, the question after a draw, the cards, the tallies.
  coins TEXT NOT NULL,
  -- The table's game in play, or its last one.
  game_id TEXT NOT NULL,
  -- Why the table closed (`yellow_cards`, `left`); absent while it is open.
  closed TEXT,
  version BIGINT NOT NULL,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL
);
-- Each game of a table, in order: which chair held which seat, and its settlement once it ended.
CREATE TABLE table_games (
  table_id TEXT NOT NULL,
  -- 1 for the table's first game.
  number INTEGER NOT NULL,
  game_id TEXT NOT NULL,
  -- JSON: the chair of each seat in seat order (`[1, 0]`: chair 1 moves first).
  chairs TEXT NOT NULL,
  -- JSON: the game's settlement at the table, every term written out; absent until it ended.
  settlement TEXT,
  -- The stored game (`games.id`) holding the finished game's record.
  stored_game BIGINT,
  PRIMARY KEY (table_id, number)
);
