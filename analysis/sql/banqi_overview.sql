-- banqi_overview: Banqi per preset: 門棋加倍 (doubled), and 和棋續盤 (decided games that carried draws); the mean margin and settlement of decided games.
-- The same numbers as `anqi report`'s tables/banqi_overview.csv (analysis/src/games/banqi/report.rs): key
-- columns, then counts (they add up over parts of the data), then what derives from them, each
-- rate with its 95% Wilson interval (z = 1.959963984540054), everything rounded to 4 places.
-- Spark SQL and DuckDB both read it, over views named after the dataset's folders.
-- reads: banqi_games
-- title: Banqi per preset: 門棋加倍 (doubled), and 和棋續盤 (decided games that carried draws), with 95% intervals; the mean margin and settlement of decided games
-- keys: preset
-- counts: games, doubled, decided, carried, margin_sum, settlement_sum
-- derived: rate doubled doubled games; rate carried carried decided; mean mean_margin margin_sum decided; mean mean_settlement settlement_sum decided
WITH counts AS (
  SELECT preset,
    COUNT(*) AS games,
    SUM(CASE WHEN doubled THEN 1 ELSE 0 END) AS doubled,
    SUM(CASE WHEN margin IS NOT NULL THEN 1 ELSE 0 END) AS decided,
    SUM(CASE WHEN margin IS NOT NULL AND draws_carried > 0 THEN 1 ELSE 0 END) AS carried,
    COALESCE(SUM(CAST(margin AS BIGINT)), 0) AS margin_sum,
    COALESCE(SUM(CAST(settlement AS BIGINT)), 0) AS settlement_sum
  FROM banqi_games
  GROUP BY preset
),
n AS (
  SELECT counts.*, CAST(NULLIF(decided, 0) AS DOUBLE) AS n_decided, CAST(NULLIF(games, 0) AS DOUBLE) AS n_games, 1.959963984540054E0 AS z
  FROM counts
),
p AS (
  SELECT n.*,
    doubled / n_games AS p_doubled,
    1.0E0 + z * z / n_games AS d_doubled,
    carried / n_decided AS p_carried,
    1.0E0 + z * z / n_decided AS d_carried
  FROM n
),
w AS (
  SELECT p.*,
    (p_doubled + z * z / (2.0E0 * n_games)) / d_doubled AS c_doubled,
    z * SQRT(p_doubled * (1.0E0 - p_doubled) / n_games + z * z / (4.0E0 * n_games * n_games)) / d_doubled AS h_doubled,
    (p_carried + z * z / (2.0E0 * n_decided)) / d_carried AS c_carried,
    z * SQRT(p_carried * (1.0E0 - p_carried) / n_decided + z * z / (4.0E0 * n_decided * n_decided)) / d_carried AS h_carried
  FROM p
)
SELECT
  preset,
  games,
  doubled,
  decided,
  carried,
  margin_sum,
  settlement_sum,
  COALESCE(ROUND(p_doubled, 4), 0.0E0) AS doubled_rate,
  COALESCE(ROUND(GREATEST(0.0E0, c_doubled - h_doubled), 4), 0.0E0) AS doubled_low,
  COALESCE(ROUND(LEAST(1.0E0, c_doubled + h_doubled), 4), 1.0E0) AS doubled_high,
  COALESCE(ROUND(p_carried, 4), 0.0E0) AS carried_rate,
  COALESCE(ROUND(GREATEST(0.0E0, c_carried - h_carried), 4), 0.0E0) AS carried_low,
  COALESCE(ROUND(LEAST(1.0E0, c_carried + h_carried), 4), 1.0E0) AS carried_high,
  ROUND(margin_sum / n_decided, 4) AS mean_margin,
  ROUND(settlement_sum / n_decided, 4) AS mean_settlement
FROM w
ORDER BY preset NULLS FIRST
