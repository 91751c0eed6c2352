-- first_pair: Banqi's flip opening: player 1's results by both players' first flips.
-- The same numbers as `anqi report`'s tables/first_pair.csv (analysis/src/games/banqi/report.rs): key
-- columns, then counts (they add up over parts of the data), then what derives from them, each
-- rate with its 95% Wilson interval (z = 1.959963984540054), everything rounded to 4 places.
-- Spark SQL and DuckDB both read it, over views named after the dataset's folders.
-- reads: banqi_games
-- title: Flip opening: player 1's results by both players' first flips (player 1: wins, draws, losses; rates of finished games with 95% Wilson intervals)
-- keys: preset, first_piece, second_piece
-- counts: games, finished, wins, draws, losses, score_sum
-- derived: rate win wins finished; rate draw draws finished; rate loss losses finished; mean score score_sum finished
WITH counts AS (
  SELECT preset, first_piece, second_piece,
    COUNT(*) AS games,
    SUM(CASE WHEN p1_score IS NOT NULL THEN 1 ELSE 0 END) AS finished,
    SUM(CASE WHEN p1_score = 1.0E0 THEN 1 ELSE 0 END) AS wins,
    SUM(CASE WHEN p1_score = 0.5E0 THEN 1 ELSE 0 END) AS draws,
    SUM(CASE WHEN p1_score = 0.0E0 THEN 1 ELSE 0 END) AS losses,
    COALESCE(SUM(p1_score), 0.0E0) AS score_sum
  FROM banqi_games
  WHERE second_piece IS NOT NULL
  GROUP BY preset, first_piece, second_piece
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
  preset,
  first_piece,
  second_piece,
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
ORDER BY preset NULLS FIRST, first_piece NULLS FIRST, second_piece NULLS FIRST
