-- tk_claim_order: Three Kingdoms: games by the order the factions were claimed, and the faction alone in first place (null: a shared first place or unfinished).
-- The same numbers as `anqi report`'s tables/tk_claim_order.csv (analysis/src/games/three_kingdoms/report.rs): key columns, then
-- counts (they add up over parts of the data), then what derives from them by the functions
-- of functions/ (rate_of, wilson_low, wilson_high, mean_of). Spark SQL and DuckDB both read
-- it, over views named after the dataset's folders.
-- reads: three_kingdoms_games
-- title: Three Kingdoms: games by the order the factions were claimed, and the faction alone in first place (none: a shared first place, or an unfinished game)
-- keys: preset, claim_order, winner_faction
-- counts: games
SELECT preset, claim_order, winner_faction, COUNT(*) AS games
FROM three_kingdoms_games
WHERE claim_order IS NOT NULL
GROUP BY preset, claim_order, winner_faction
ORDER BY preset NULLS FIRST, claim_order NULLS FIRST, winner_faction NULLS FIRST
