-- lz_flag_taken_by: Luzhanqi: which piece took the flag (captured it in open and dark games, carried it home in flip games).
-- The same numbers as `anqi report`'s tables/lz_flag_taken_by.csv (analysis/src/games/luzhanqi/report.rs): key columns, then
-- counts (they add up over parts of the data), then what derives from them by the functions
-- of functions/ (rate_of, wilson_low, wilson_high, mean_of). Spark SQL and DuckDB both read
-- it, over views named after the dataset's folders.
-- reads: luzhanqi_games
-- title: Luzhanqi: which piece took the flag (captured it in open and dark games, carried it home in flip games)
-- keys: mode, reason, flag_taken_by
-- counts: games
SELECT mode, reason, flag_taken_by, COUNT(*) AS games
FROM luzhanqi_games
WHERE flag_taken_by IS NOT NULL
GROUP BY mode, reason, flag_taken_by
ORDER BY mode NULLS FIRST, reason NULLS FIRST, flag_taken_by NULLS FIRST
