-- tk_captured: Three Kingdoms: the points each seat captured, by place, per ending (preset), finished games.
-- The same numbers as `anqi report`'s tables/tk_captured.csv (analysis/src/games/three_kingdoms/report.rs): key columns, then
-- counts (they add up over parts of the data), then what derives from them by the functions
-- of functions/ (rate_of, wilson_low, wilson_high, mean_of). Spark SQL and DuckDB both read
-- it, over views named after the dataset's folders.
-- reads: three_kingdoms_seats
-- title: Three Kingdoms: the points each seat captured, by place, per ending (preset), finished games
-- keys: preset, place, captured_points
-- counts: games
SELECT preset, place, captured_points, COUNT(*) AS games
FROM three_kingdoms_seats
WHERE place IS NOT NULL
GROUP BY preset, place, captured_points
ORDER BY preset NULLS FIRST, place NULLS FIRST, captured_points NULLS FIRST
