-- flips_adjacent: Banqi's first 2 flips of a game (the report's default `--flips 2`): the flipper's results by flip number and whether the flip was next to a revealed piece.
-- The same numbers as `anqi report`'s tables/flips_adjacent.csv (analysis/src/games/banqi/report.rs): key columns, then
-- counts (they add up over parts of the data), then what derives from them by the functions
-- of functions/ (rate_of, wilson_low, wilson_high, mean_of). Spark SQL and DuckDB both read
-- it, over views named after the dataset's folders.
-- reads: banqi_flips
-- title: A game's first flips (as many as the report counts): the flipper's results by flip number and whether the flip was next to a revealed piece (flipper: wins, draws, losses; rates of finished games with 95% Wilson intervals)
-- keys: preset, number, adjacent
-- counts: games, finished, wins, draws, losses, score_sum
-- derived: rate win wins finished; rate draw draws finished; rate loss losses finished; mean score score_sum finished
WITH counts AS (
  SELECT preset, number, adjacent,
    COUNT(*) AS games,
    SUM(CASE WHEN score IS NOT NULL THEN 1 ELSE 0 END) AS finished,
    SUM(CASE WHEN score = 1.0E0 THEN 1 ELSE 0 END) AS wins,
    SUM(CASE WHEN score = 0.5E0 THEN 1 ELSE 0 END) AS draws,
    SUM(CASE WHEN score = 0.0E0 THEN 1 ELSE 0 END) AS losses,
    COALESCE(SUM(score), 0.0E0) AS score_sum
  FROM banqi_flips
  WHERE number <= 2
  GROUP BY preset, number, adjacent
)
SELECT
  preset,
  number,
  adjacent,
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
ORDER BY preset NULLS FIRST, number NULLS FIRST, adjacent NULLS FIRST
