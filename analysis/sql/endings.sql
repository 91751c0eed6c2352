-- endings: how games end (reason `unfinished`, outcome `ongoing` for an unfinished game).
-- The same numbers as `anqi report`'s tables/endings.csv (analysis/src/report/stats.rs): key columns, then
-- counts (they add up over parts of the data), then what derives from them by the functions
-- of functions/ (rate_of, wilson_low, wilson_high, mean_of). Spark SQL and DuckDB both read
-- it, over views named after the dataset's folders.
-- reads: games
-- title: How games end
-- keys: game, preset, reason, outcome
-- counts: games
SELECT game, preset, COALESCE(reason, 'unfinished') AS reason, COALESCE(outcome, 'ongoing') AS outcome, COUNT(*) AS games
FROM games
GROUP BY game, preset, COALESCE(reason, 'unfinished'), COALESCE(outcome, 'ongoing')
ORDER BY game NULLS FIRST, preset NULLS FIRST, reason NULLS FIRST, outcome NULLS FIRST
