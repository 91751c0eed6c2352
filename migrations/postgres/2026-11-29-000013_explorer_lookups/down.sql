DROP INDEX explorer_games_nodes;
DROP INDEX explorer_filters_ids;
