-- xq_flips: Third-generation xiangqi: games in which a side made each kind of flip.
-- The same numbers as `anqi report`'s tables/xq_flips.csv (analysis/src/games/xiangqi/report.rs): key columns, then
-- counts (they add up over parts of the data), then what derives from them by the functions
-- of functions/ (rate_of, wilson_low, wilson_high, mean_of). Spark SQL and DuckDB both read
-- it, over views named after the dataset's folders.
-- reads: xiangqi_flips
-- title: Third-generation xiangqi: games in which a side made each kind of flip (a soldier's flip to its back, on its point or a wrong one, a transformation, a double flip …)
-- keys: preset, flip
-- counts: games
SELECT preset, flip, COUNT(*) AS games
FROM xiangqi_flips
GROUP BY preset, flip
ORDER BY preset NULLS FIRST, flip NULLS FIRST
