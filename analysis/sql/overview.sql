-- overview: per game and preset: games, how many finished, game length (max_plies: the largest, not a sum).
-- The same numbers as `anqi report`'s tables/overview.csv (analysis/src/report/stats.rs): key columns, then
-- counts (they add up over parts of the data), then what derives from them by the functions
-- of functions/ (rate_of, wilson_low, wilson_high, mean_of). Spark SQL and DuckDB both read
-- it, over views named after the dataset's folders.
-- reads: games
-- title: Per game and preset: games, how many finished, game length
-- keys: game, preset
-- counts: games, finished, plies_sum, max_plies
-- derived: rate finished finished games; mean mean_plies plies_sum games
WITH counts AS (
  SELECT game, preset,
    COUNT(*) AS games,
    SUM(CASE WHEN outcome IS NOT NULL THEN 1 ELSE 0 END) AS finished,
    SUM(CAST(plies AS BIGINT)) AS plies_sum,
    MAX(CAST(plies AS BIGINT)) AS max_plies
  FROM games
  GROUP BY game, preset
)
SELECT
  game,
  preset,
  games,
  finished,
  plies_sum,
  max_plies,
  rate_of(finished, games) AS finished_rate,
  wilson_low(finished, games) AS finished_low,
  wilson_high(finished, games) AS finished_high,
  mean_of(plies_sum, games) AS mean_plies
FROM counts
ORDER BY game NULLS FIRST, preset NULLS FIRST
