-- Counts by month, for the explorer's requests filtered by dates (issue 59): at each position
-- with rows in `explorer`, the same counts split by the month the games were played
-- (`played_on`, as year * 100 + month; games without a date are not here). A request whose
-- dates cover whole months adds these rows up instead of walking the months' games. Kept only
-- when `explorer_settings.months` is on (`anqi explore --months on`): an import then writes a
-- row per position, action and month, 5-8% of its time (docs/performance.md), which would take
-- the explorer's import past 1.25 times one without it; a store asked by dates turns them on.
CREATE TABLE explorer_months (
    node BIGINT NOT NULL,
    month INTEGER NOT NULL,
    action TEXT NOT NULL,
    games BIGINT NOT NULL,
    wins BIGINT NOT NULL,
    draws BIGINT NOT NULL,
    losses BIGINT NOT NULL,
    points BIGINT NOT NULL,
    coin_stakes BIGINT NOT NULL,
    coin_margins BIGINT NOT NULL,
    first_game BIGINT NOT NULL,
    last_game BIGINT NOT NULL,
    PRIMARY KEY (node, month, action)
);
ALTER TABLE explorer_settings ADD COLUMN months BOOLEAN NOT NULL DEFAULT FALSE;
