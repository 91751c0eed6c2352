-- meetings_by_period: finished games between named players, by when they were played, the players in seat order and the outcome (the ratings over time).
-- The same numbers as `anqi report`'s tables/meetings_by_period.csv (analysis/src/report/stats.rs): key columns, then
-- counts (they add up over parts of the data), then what derives from them by the functions
-- of functions/ (rate_of, wilson_low, wilson_high, mean_of). Spark SQL and DuckDB both read
-- it, over views named after the dataset's folders.
-- reads: seats, games
-- title: Finished games between named players, by when they were played (the month, or undated the game's hundred in the input), seat order and outcome (the ratings over time)
-- keys: game, preset, period, player1, player2, player3, outcome
-- counts: games
WITH per_game AS (
  SELECT game, preset, source,
    MAX(CASE WHEN seat = 1 THEN name END) AS player1,
    MAX(CASE WHEN seat = 2 THEN name END) AS player2,
    MAX(CASE WHEN seat = 3 THEN name END) AS player3,
    MIN(CASE WHEN named THEN 1 ELSE 0 END) AS named
  FROM seats
  GROUP BY game, preset, source
)
SELECT p.game AS game, p.preset AS preset, g.period AS period, p.player1 AS player1, p.player2 AS player2,
  p.player3 AS player3, g.outcome AS outcome, COUNT(*) AS games
FROM per_game p
JOIN games g ON g.game = p.game AND g.preset = p.preset AND g.source = p.source
WHERE p.named = 1 AND g.outcome IS NOT NULL
GROUP BY p.game, p.preset, g.period, p.player1, p.player2, p.player3, g.outcome
ORDER BY game NULLS FIRST, preset NULLS FIRST, period NULLS FIRST, player1 NULLS FIRST, player2 NULLS FIRST, player3 NULLS FIRST, outcome NULLS FIRST
