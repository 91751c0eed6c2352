-- tk_claim_rank: Three Kingdoms: results by the order a seat got its faction (1 claimed first, 3 was given the last).
-- The same numbers as `anqi report`'s tables/tk_claim_rank.csv (analysis/src/games/three_kingdoms/report.rs): key
-- columns, then counts (they add up over parts of the data), then what derives from them, each
-- rate with its 95% Wilson interval (z = 1.959963984540054), everything rounded to 4 places.
-- Spark SQL and DuckDB both read it, over views named after the dataset's folders.
-- reads: three_kingdoms_seats
-- title: Three Kingdoms: results by the order a seat got its faction (1 claimed first, 3 was given the last) (each seat: wins, draws, losses; rates of finished games with 95% Wilson intervals)
-- keys: preset, claim_rank
-- counts: games, finished, wins, draws, losses, score_sum
-- derived: rate win wins finished; rate draw draws finished; rate loss losses finished; mean score score_sum finished
WITH counts AS (
  SELECT preset, claim_rank,
    COUNT(*) AS games,
    SUM(CASE WHEN place IS NOT NULL THEN 1 ELSE 0 END) AS finished,
    SUM(CASE WHEN score = 1.0E0 THEN 1 ELSE 0 END) AS wins,
    SUM(CASE WHEN place = 1 AND score < 1.0E0 THEN 1 ELSE 0 END) AS draws,
    SUM(CASE WHEN place > 1 THEN 1 ELSE 0 END) AS losses,
    COALESCE(SUM(score), 0.0E0) AS score_sum
  FROM three_kingdoms_seats
  WHERE claim_rank IS NOT NULL
  GROUP BY preset, claim_rank
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
  claim_rank,
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
ORDER BY preset NULLS FIRST, claim_rank NULLS FIRST
