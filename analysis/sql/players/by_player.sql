-- by_player: each named player's results per game and preset (finished games against other players; self-play left out).
-- The same numbers as `anqi report`'s tables/by_player.csv (analysis/src/report/players.rs, derived there from the
-- `meetings` counts): key columns, then counts (they add up over parts of the data), then what
-- derives from them by the functions of functions/ (rate_of, wilson_low, wilson_high, mean_of).
-- Spark SQL and DuckDB both read it, over views named after the dataset's folders. A win is a
-- first place alone; a shared first place a draw; the score a seat's share of the others placed
-- behind it (a tie half).
-- reads: seats, games
-- title: Results by player (finished games against other players; a shared first place is a draw), with 95% Wilson intervals
-- keys: game, preset, player
-- counts: games, wins, draws, losses, score_sum
-- derived: rate win wins games; rate draw draws games; mean score score_sum games
WITH per_game AS (
  SELECT game, preset, source
  FROM seats
  GROUP BY game, preset, source
  HAVING MIN(CASE WHEN named THEN 1 ELSE 0 END) = 1 AND COUNT(DISTINCT name) > 1
),
counts AS (
  SELECT s.game AS game, s.preset AS preset, s.name AS player,
    COUNT(*) AS games,
    SUM(CASE WHEN s.place = 1 AND s.score = 1.0E0 THEN 1 ELSE 0 END) AS wins,
    SUM(CASE WHEN s.place = 1 AND s.score < 1.0E0 THEN 1 ELSE 0 END) AS draws,
    SUM(CASE WHEN s.place > 1 THEN 1 ELSE 0 END) AS losses,
    COALESCE(SUM(s.score), 0.0E0) AS score_sum
  FROM seats s
  JOIN per_game p ON p.game = s.game AND p.preset = s.preset AND p.source = s.source
  JOIN games g ON g.game = s.game AND g.preset = s.preset AND g.source = s.source
  WHERE g.outcome IS NOT NULL
  GROUP BY s.game, s.preset, s.name
)
SELECT
  game,
  preset,
  player,
  games,
  wins,
  draws,
  losses,
  ROUND(score_sum, 4) AS score_sum,
  rate_of(wins, games) AS win_rate,
  wilson_low(wins, games) AS win_low,
  wilson_high(wins, games) AS win_high,
  rate_of(draws, games) AS draw_rate,
  wilson_low(draws, games) AS draw_low,
  wilson_high(draws, games) AS draw_high,
  mean_of(score_sum, games) AS score
FROM counts
ORDER BY game NULLS FIRST, preset NULLS FIRST, player NULLS FIRST
