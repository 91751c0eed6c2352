-- bonus: Banqi: the points bonus paid (max(0, margin) × B), decided games.
-- The same numbers as `anqi report`'s tables/bonus.csv (analysis/src/games/banqi/report.rs): key columns, then
-- counts (they add up over parts of the data), then what derives from them by the functions
-- of functions/ (rate_of, wilson_low, wilson_high, mean_of). Spark SQL and DuckDB both read
-- it, over views named after the dataset's folders.
-- reads: banqi_games
-- title: Points bonus paid (max(0, margin) × B), decided games
-- keys: preset, bonus
-- counts: games
SELECT preset, bonus, COUNT(*) AS games
FROM banqi_games
WHERE margin IS NOT NULL
GROUP BY preset, bonus
ORDER BY preset NULLS FIRST, bonus NULLS FIRST
