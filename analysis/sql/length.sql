-- length: game length in plies, in bins of 20 (plies_from … plies_from + 19).
-- The same numbers as `anqi report`'s tables/length.csv (analysis/src/report/stats.rs): key columns, then
-- counts (they add up over parts of the data), then what derives from them by the functions
-- of functions/ (rate_of, wilson_low, wilson_high, mean_of). Spark SQL and DuckDB both read
-- it, over views named after the dataset's folders.
-- reads: games
-- title: Game length in plies, in bins of 20 (each from its first length to 19 more)
-- keys: game, preset, plies_from
-- counts: games
SELECT game, preset, CAST(FLOOR(plies / 20.0E0) AS BIGINT) * 20 AS plies_from, COUNT(*) AS games
FROM games
GROUP BY game, preset, CAST(FLOOR(plies / 20.0E0) AS BIGINT) * 20
ORDER BY game NULLS FIRST, preset NULLS FIRST, plies_from NULLS FIRST
