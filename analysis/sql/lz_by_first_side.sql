-- lz_by_first_side: Luzhanqi: the first mover's results by mode and the side it played (a flip game's first flip decides it).
-- The same numbers as `anqi report`'s tables/lz_by_first_side.csv (analysis/src/games/luzhanqi/report.rs): key
-- columns, then counts (they add up over parts of the data), then what derives from them, each
-- rate with its 95% Wilson interval (z = 1.959963984540054), everything rounded to 4 places.
-- Spark SQL and DuckDB both read it, over views named after the dataset's folders.
-- reads: luzhanqi_games
-- title: Luzhanqi: the first mover's results by mode and the side it played (a flip game's first flip decides it) (player 1: wins, draws, losses; rates of finished games with 95% Wilson intervals)
-- keys: mode, first_side
-- counts: games, finished, wins, draws, losses, score_sum
-- derived: rate win wins finished; rate draw draws finished; rate loss losses finished; mean score score_sum finished
WITH counts AS (
  SELECT mode, first_side,
    COUNT(*) AS games,
    SUM(CASE WHEN first_score IS NOT NULL THEN 1 ELSE 0 END) AS finished,
    SUM(CASE WHEN first_score = 1.0E0 THEN 1 ELSE 0 END) AS wins,
    SUM(CASE WHEN first_score = 0.5E0 THEN 1 ELSE 0 END) AS draws,
    SUM(CASE WHEN first_score = 0.0E0 THEN 1 ELSE 0 END) AS losses,
    COALESCE(SUM(first_score), 0.0E0) AS score_sum
  FROM luzhanqi_games
  WHERE first_side IS NOT NULL
  GROUP BY mode, first_side
),
n AS (
  SELECT counts.*, CAST(NULLIF(finished, 0) AS DOUBLE) AS n_finished, 1.959963984540054E0 AS z
  FROM counts
),
p AS (
  SELECT n.*,
    wins / n_finished AS p_win,
    1.0E0 + z * z / n_finished AS d_win,
    draws / n_finished AS p_draw,
    1.0E0 + z * z / n_finished AS d_draw,
    losses / n_finished AS p_loss,
    1.0E0 + z * z / n_finished AS d_loss
  FROM n
),
w AS (
  SELECT p.*,
    (p_win + z * z / (2.0E0 * n_finished)) / d_win AS c_win,
    z * SQRT(p_win * (1.0E0 - p_win) / n_finished + z * z / (4.0E0 * n_finished * n_finished)) / d_win AS h_win,
    (p_draw + z * z / (2.0E0 * n_finished)) / d_draw AS c_draw,
    z * SQRT(p_draw * (1.0E0 - p_draw) / n_finished + z * z / (4.0E0 * n_finished * n_finished)) / d_draw AS h_draw,
    (p_loss + z * z / (2.0E0 * n_finished)) / d_loss AS c_loss,
    z * SQRT(p_loss * (1.0E0 - p_loss) / n_finished + z * z / (4.0E0 * n_finished * n_finished)) / d_loss AS h_loss
  FROM p
)
SELECT
  mode,
  first_side,
  games,
  finished,
  wins,
  draws,
  losses,
  ROUND(score_sum, 4) AS score_sum,
  COALESCE(ROUND(p_win, 4), 0.0E0) AS win_rate,
  COALESCE(ROUND(GREATEST(0.0E0, c_win - h_win), 4), 0.0E0) AS win_low,
  COALESCE(ROUND(LEAST(1.0E0, c_win + h_win), 4), 1.0E0) AS win_high,
  COALESCE(ROUND(p_draw, 4), 0.0E0) AS draw_rate,
  COALESCE(ROUND(GREATEST(0.0E0, c_draw - h_draw), 4), 0.0E0) AS draw_low,
  COALESCE(ROUND(LEAST(1.0E0, c_draw + h_draw), 4), 1.0E0) AS draw_high,
  COALESCE(ROUND(p_loss, 4), 0.0E0) AS loss_rate,
  COALESCE(ROUND(GREATEST(0.0E0, c_loss - h_loss), 4), 0.0E0) AS loss_low,
  COALESCE(ROUND(LEAST(1.0E0, c_loss + h_loss), 4), 1.0E0) AS loss_high,
  ROUND(score_sum / n_finished, 4) AS score
FROM w
ORDER BY mode NULLS FIRST, first_side NULLS FIRST
