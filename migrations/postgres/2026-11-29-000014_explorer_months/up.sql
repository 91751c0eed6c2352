-- Counts by month, for the explorer's requests filtered by dates (issue 59): at each position
-- with rows in `explorer`, the same counts split by the month the games were played
-- (`played_on`, as year * 100 + month; games without a date are not here). A request whose
-- dates cover whole months adds these rows up instead of walking the months' games. Kept when
-- `explorer_settings.months` is on, as it is by default (`anqi explore --months off` drops
-- them: an import then writes no row per position, action and month, docs/performance.md).
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
ALTER TABLE explorer_settings ADD COLUMN months BOOLEAN NOT NULL DEFAULT TRUE;
-- Derived from the stored games: walked again at the next open, months and all. No stored
-- game changes.
UPDATE explorer_settings SET built = false;
