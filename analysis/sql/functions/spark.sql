-- The functions the tables' SQL calls, for Spark (SQL functions, Spark 4); duckdb.sql defines
-- the same for DuckDB. analysis/spark/anqi_sql.py runs this first. As
-- analysis/src/report/table.rs computes them: a rate k / n (0 when n is 0), its 95% Wilson
-- score interval (z = 1.959963984540054; 0 to 1 when n is 0), a mean (null when n is 0), each
-- rounded to 4 places.
CREATE OR REPLACE TEMPORARY FUNCTION rate_of(k DOUBLE, n DOUBLE) RETURNS DOUBLE RETURN
  CASE WHEN n = 0 THEN 0.0E0 ELSE ROUND(k / n, 4) END;
CREATE OR REPLACE TEMPORARY FUNCTION wilson_centre(p DOUBLE, n DOUBLE) RETURNS DOUBLE RETURN
  (p + 1.959963984540054E0 * 1.959963984540054E0 / (2.0E0 * n)) / (1.0E0 + 1.959963984540054E0 * 1.959963984540054E0 / n);
CREATE OR REPLACE TEMPORARY FUNCTION wilson_half(p DOUBLE, n DOUBLE) RETURNS DOUBLE RETURN
  1.959963984540054E0 * SQRT(p * (1.0E0 - p) / n + 1.959963984540054E0 * 1.959963984540054E0 / (4.0E0 * n * n)) / (1.0E0 + 1.959963984540054E0 * 1.959963984540054E0 / n);
CREATE OR REPLACE TEMPORARY FUNCTION wilson_low(k DOUBLE, n DOUBLE) RETURNS DOUBLE RETURN
  CASE WHEN n = 0 THEN 0.0E0 ELSE ROUND(GREATEST(0.0E0, wilson_centre(k / n, n) - wilson_half(k / n, n)), 4) END;
CREATE OR REPLACE TEMPORARY FUNCTION wilson_high(k DOUBLE, n DOUBLE) RETURNS DOUBLE RETURN
  CASE WHEN n = 0 THEN 1.0E0 ELSE ROUND(LEAST(1.0E0, wilson_centre(k / n, n) + wilson_half(k / n, n)), 4) END;
CREATE OR REPLACE TEMPORARY FUNCTION mean_of(total DOUBLE, n DOUBLE) RETURNS DOUBLE RETURN
  CASE WHEN n = 0 THEN NULL ELSE ROUND(total / n, 4) END;
