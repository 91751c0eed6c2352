-- xq_flip_players: Third-generation xiangqi by who played: the flipper's results by kind of flip, per pair of named players in their seats and the flipper's seat.
-- The same numbers as `anqi report`'s tables/xq_flip_players.csv (analysis/src/games/xiangqi/report.rs): key columns, then
-- counts (they add up over parts of the data), then what derives from them by the functions
-- of functions/ (rate_of, wilson_low, wilson_high, mean_of). Spark SQL and DuckDB both read
-- it, over views named after the dataset's folders.
-- reads: seats, xiangqi_flips
-- title: Third-generation xiangqi by who played: the flipper's results by kind of flip, per pair of named players in their seats and the flipper's seat (what the flips' findings compare within) (the flipper: wins, draws, losses; rates of finished games with 95% Wilson intervals)
-- keys: preset, player1, player2, seat, flip
-- counts: games, finished, wins, draws, losses, score_sum
-- derived: rate win wins finished; rate draw draws finished; rate loss losses finished; mean score score_sum finished
WITH pairs AS (
  SELECT game, preset, source,
    MAX(CASE WHEN seat = 1 THEN name END) AS player1,
    MAX(CASE WHEN seat = 2 THEN name END) AS player2
  FROM seats
  GROUP BY game, preset, source
  HAVING MIN(CASE WHEN named THEN 1 ELSE 0 END) = 1 AND COUNT(*) = 2
),
counts AS (
  SELECT g.preset AS preset, p.player1 AS player1, p.player2 AS player2,
    g.seat AS seat, g.flip AS flip,
    COUNT(*) AS games,
    SUM(CASE WHEN g.score IS NOT NULL THEN 1 ELSE 0 END) AS finished,
    SUM(CASE WHEN g.score = 1.0E0 THEN 1 ELSE 0 END) AS wins,
    SUM(CASE WHEN g.score = 0.5E0 THEN 1 ELSE 0 END) AS draws,
    SUM(CASE WHEN g.score = 0.0E0 THEN 1 ELSE 0 END) AS losses,
    COALESCE(SUM(g.score), 0.0E0) AS score_sum
  FROM xiangqi_flips g
  JOIN pairs p ON p.game = g.game AND p.preset = g.preset AND p.source = g.source
  GROUP BY g.preset, p.player1, p.player2, g.seat, g.flip
)
SELECT
  preset,
  player1,
  player2,
  seat,
  flip,
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
ORDER BY preset NULLS FIRST, player1 NULLS FIRST, player2 NULLS FIRST, seat NULLS FIRST, flip NULLS FIRST
