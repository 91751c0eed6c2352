-- settlement: Banqi: the coins settled ((S + bonus) × double + carry), decided games.
-- The same numbers as `anqi report`'s tables/settlement.csv (analysis/src/games/banqi/report.rs): key columns, then
-- counts (they add up over parts of the data), then what derives from them by the functions
-- of functions/ (rate_of, wilson_low, wilson_high, mean_of). Spark SQL and DuckDB both read
-- it, over views named after the dataset's folders.
-- reads: banqi_games
-- title: Coins settled ((S + bonus) × double + carry), decided games
-- keys: preset, settlement
-- counts: games
SELECT preset, settlement, COUNT(*) AS games
FROM banqi_games
WHERE margin IS NOT NULL
GROUP BY preset, settlement
ORDER BY preset NULLS FIRST, settlement NULLS FIRST
