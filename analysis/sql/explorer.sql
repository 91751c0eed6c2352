-- explorer: the opening explorer at the start of every variant whose games share one: the
-- first actions as every seat saw them, and how they scored for the side that played them.
-- The same numbers as `anqi report`'s tables/explorer.csv (analysis/src/report/stats.rs): key columns, then
-- counts (they add up over parts of the data), then what derives from them by the functions
-- of functions/ (rate_of, wilson_low, wilson_high, mean_of). Spark SQL and DuckDB both read
-- it, over views named after the dataset's folders.
-- reads: explorer
-- title: The opening explorer at the start: the first actions as every seat saw them (the side to move: wins, draws, losses; rates of finished games with 95% Wilson intervals)
-- keys: game, variant, action
-- counts: games, finished, wins, draws, losses, score_sum
-- derived: rate win wins finished; rate draw draws finished; rate loss losses finished; mean score score_sum finished
WITH counts AS (
  SELECT game, variant, action,
    COUNT(*) AS games,
    SUM(CASE WHEN score IS NOT NULL THEN 1 ELSE 0 END) AS finished,
    SUM(CASE WHEN score = 1.0E0 THEN 1 ELSE 0 END) AS wins,
    SUM(CASE WHEN score = 0.5E0 THEN 1 ELSE 0 END) AS draws,
    SUM(CASE WHEN score = 0.0E0 THEN 1 ELSE 0 END) AS losses,
    COALESCE(SUM(score), 0.0E0) AS score_sum
  FROM explorer
  WHERE ply = 0 AND shared_start
  GROUP BY game, variant, action
)
SELECT
  game,
  variant,
  action,
  games,
  finished,
  wins,
  draws,
  losses,
  ROUND(score_sum, 4) AS score_sum,
  rate_of(wins, finished) AS win_rate,
  wilson_low(wins, finished) AS win_low,
  wilson_high(wins, finished) AS win_high,
  rate_of(draws, finished) AS draw_rate,
  wilson_low(draws, finished) AS draw_low,
  wilson_high(draws, finished) AS draw_high,
  rate_of(losses, finished) AS loss_rate,
  wilson_low(losses, finished) AS loss_low,
  wilson_high(losses, finished) AS loss_high,
  mean_of(score_sum, finished) AS score
FROM counts
ORDER BY game NULLS FIRST, variant NULLS FIRST, action NULLS FIRST
