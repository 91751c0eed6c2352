-- overview: per game and preset: games, how many finished, game length (max_plies: the largest, not a sum).
-- The same numbers as `anqi report`'s tables/overview.csv (analysis/src/report/stats.rs): key
-- columns, then counts (they add up over parts of the data), then what derives from them, each
-- rate with its 95% Wilson interval (z = 1.959963984540054), everything rounded to 4 places.
-- Spark SQL and DuckDB both read it, over views named after the dataset's folders.
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
),
n AS (
  SELECT counts.*, CAST(NULLIF(games, 0) AS DOUBLE) AS n, 1.959963984540054E0 AS z
  FROM counts
),
p AS (
  SELECT n.*,
    finished / n AS p_finished,
    1.0E0 + z * z / n AS d
  FROM n
),
w AS (
  SELECT p.*,
    (p_finished + z * z / (2.0E0 * n)) / d AS c_finished,
    z * SQRT(p_finished * (1.0E0 - p_finished) / n + z * z / (4.0E0 * n * n)) / d AS h_finished
  FROM p
)
SELECT
  game,
  preset,
  games,
  finished,
  plies_sum,
  max_plies,
  COALESCE(ROUND(p_finished, 4), 0.0E0) AS finished_rate,
  COALESCE(ROUND(GREATEST(0.0E0, c_finished - h_finished), 4), 0.0E0) AS finished_low,
  COALESCE(ROUND(LEAST(1.0E0, c_finished + h_finished), 4), 1.0E0) AS finished_high,
  ROUND(plies_sum / n, 4) AS mean_plies
FROM w
ORDER BY game NULLS FIRST, preset NULLS FIRST
