-- margin: Banqi: the winner's point margin (winner's points less loser's), decided games.
-- The same numbers as `anqi report`'s tables/margin.csv (analysis/src/games/banqi/report.rs): key columns, then
-- counts (they add up over parts of the data), then what derives from them by the functions
-- of functions/ (rate_of, wilson_low, wilson_high, mean_of). Spark SQL and DuckDB both read
-- it, over views named after the dataset's folders.
-- reads: banqi_games
-- title: Winner's point margin (winner's points − loser's points), decided games
-- keys: preset, margin
-- counts: games
SELECT preset, margin, COUNT(*) AS games
FROM banqi_games
WHERE margin IS NOT NULL
GROUP BY preset, margin
ORDER BY preset NULLS FIRST, margin NULLS FIRST
