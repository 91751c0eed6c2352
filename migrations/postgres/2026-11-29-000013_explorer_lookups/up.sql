-- Each explorer request lists the packed blocks' filters (block and id), to probe those it
-- has not kept in memory. Their rows hold the bits (kilobytes each, on pages of their own):
-- the list read a page per block. This index holds it on one page.
CREATE INDEX explorer_filters_ids ON explorer_filters (block, id);
-- A position's games in the blocks not yet packed, found by the node alone (keyed by block
-- first, a request asked for the blocks' range, then sought the node in each). Only the
-- newest block keeps rows here: the index stays small.
CREATE INDEX explorer_games_nodes ON explorer_games (node, game_id);
