DROP TABLE explorer_games;
DROP TABLE explorer_packed;
DROP TABLE explorer_filters;
CREATE TABLE explorer_tails (
    node BIGINT NOT NULL,
    game_id BIGINT NOT NULL,
    PRIMARY KEY (node, game_id)
) WITHOUT ROWID;
DELETE FROM explorer;
UPDATE explorer_settings SET built = false;
