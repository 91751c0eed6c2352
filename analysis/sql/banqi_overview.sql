-- banqi_overview: Banqi per preset: 門棋加倍 (doubled), and 和棋續盤 (decided games that carried draws); the mean margin and settlement of decided games.
-- The same numbers as `anqi report`'s tables/banqi_overview.csv (analysis/src/games/banqi/report.rs): key columns, then
-- counts (they add up over parts of the data), then what derives from them by the functions
-- of functions/ (rate_of, wilson_low, wilson_high, mean_of). Spark SQL and DuckDB both read
-- it, over views named after the dataset's folders.
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
)
SELECT
  preset,
  games,
  doubled,
  decided,
  carried,
  margin_sum,
  settlement_sum,
  rate_of(doubled, games) AS doubled_rate,
  wilson_low(doubled, games) AS doubled_low,
  wilson_high(doubled, games) AS doubled_high,
  rate_of(carried, decided) AS carried_rate,
  wilson_low(carried, decided) AS carried_low,
  wilson_high(carried, decided) AS carried_high,
  mean_of(margin_sum, decided) AS mean_margin,
  mean_of(settlement_sum, decided) AS mean_settlement
FROM counts
ORDER BY preset NULLS FIRST
