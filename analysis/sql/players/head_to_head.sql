-- head_to_head: every pair of named players of a two-seat game, whichever moved first.
-- The same numbers as `anqi report`'s tables/head_to_head.csv (analysis/src/report/players.rs, derived there from
-- the `meetings` counts): key columns (the pair, the first-named the lesser name), then counts
-- (they add up over parts of the data), then what derives from them by the functions of
-- functions/ (rate_of, wilson_low, wilson_high). Spark SQL and DuckDB both read it, over views
-- named after the dataset's folders.
-- reads: seats, games
-- title: Head to head (two seats): games between each pair of players, whoever moved first, with the first-named player's win rate and 95% Wilson interval
-- keys: game, preset, player, opponent
-- counts: games, wins, draws, losses
-- derived: rate win wins games; rate draw draws games
WITH per_game AS (
  SELECT game, preset, source,
    MAX(CASE WHEN seat = 1 THEN name END) AS player1,
    MAX(CASE WHEN seat = 2 THEN name END) AS player2
  FROM seats
  GROUP BY game, preset, source
  HAVING MIN(CASE WHEN named THEN 1 ELSE 0 END) = 1 AND COUNT(*) = 2
),
pairs AS (
  SELECT p.game AS game, p.preset AS preset,
    CASE WHEN p.player1 < p.player2 THEN p.player1 ELSE p.player2 END AS player,
    CASE WHEN p.player1 < p.player2 THEN p.player2 ELSE p.player1 END AS opponent,
    CASE
      WHEN g.outcome = 'draw' THEN 'draw'
      WHEN (g.outcome = 'player1') = (p.player1 < p.player2) THEN 'win'
      ELSE 'loss'
    END AS result
  FROM per_game p
  JOIN games g ON g.game = p.game AND g.preset = p.preset AND g.source = p.source
  WHERE g.outcome IS NOT NULL AND p.player1 <> p.player2
),
counts AS (
  SELECT game, preset, player, opponent,
    COUNT(*) AS games,
    SUM(CASE WHEN result = 'win' THEN 1 ELSE 0 END) AS wins,
    SUM(CASE WHEN result = 'draw' THEN 1 ELSE 0 END) AS draws,
    SUM(CASE WHEN result = 'loss' THEN 1 ELSE 0 END) AS losses
  FROM pairs
  GROUP BY game, preset, player, opponent
)
SELECT
  game,
  preset,
  player,
  opponent,
  games,
  wins,
  draws,
  losses,
  rate_of(wins, games) AS win_rate,
  wilson_low(wins, games) AS win_low,
  wilson_high(wins, games) AS win_high,
  rate_of(draws, games) AS draw_rate,
  wilson_low(draws, games) AS draw_low,
  wilson_high(draws, games) AS draw_high
FROM counts
ORDER BY game NULLS FIRST, preset NULLS FIRST, player NULLS FIRST, opponent NULLS FIRST
