DROP TABLE table_games;
DROP TABLE tables;
