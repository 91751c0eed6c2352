-- tk_final_points: Three Kingdoms: each seat's final points (its faction's points less lost, plus captured) by place, per ending (preset), finished games.
-- The same numbers as `anqi report`'s tables/tk_final_points.csv (analysis/src/games/three_kingdoms/report.rs): key columns, then
-- counts (they add up over parts of the data), then what derives from them by the functions
-- of functions/ (rate_of, wilson_low, wilson_high, mean_of). Spark SQL and DuckDB both read
-- it, over views named after the dataset's folders.
-- reads: three_kingdoms_seats
-- title: Three Kingdoms: each seat's final points (its faction's points − lost + captured) by place, per ending (preset), finished games
-- keys: preset, place, final_points
-- counts: games
SELECT preset, place, final_points, COUNT(*) AS games
FROM three_kingdoms_seats
WHERE place IS NOT NULL
GROUP BY preset, place, final_points
ORDER BY preset NULLS FIRST, place NULLS FIRST, final_points NULLS FIRST
