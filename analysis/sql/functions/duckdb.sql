-- The functions the tables' SQL calls, for DuckDB (macros); spark.sql defines the same for
-- Spark. analysis/spark/anqi_sql.py runs this first. As analysis/src/report/table.rs computes
-- them: a rate k / n (0 when n is 0), its 95% Wilson score interval (z = 1.959963984540054;
-- 0 to 1 when n is 0), a mean (null when n is 0), each rounded to 4 places.
CREATE OR REPLACE MACRO rate_of(k, n) AS
  CASE WHEN n = 0 THEN 0.0E0 ELSE ROUND(CAST(k AS DOUBLE) / n, 4) END;
CREATE OR REPLACE MACRO wilson_centre(p, n) AS
  (p + 1.959963984540054E0 * 1.959963984540054E0 / (2.0E0 * n)) / (1.0E0 + 1.959963984540054E0 * 1.959963984540054E0 / n);
CREATE OR REPLACE MACRO wilson_half(p, n) AS
  1.959963984540054E0 * SQRT(p * (1.0E0 - p) / n + 1.959963984540054E0 * 1.959963984540054E0 / (4.0E0 * n * n)) / (1.0E0 + 1.959963984540054E0 * 1.959963984540054E0 / n);
CREATE OR REPLACE MACRO wilson_low(k, n) AS
  CASE WHEN n = 0 THEN 0.0E0 ELSE ROUND(GREATEST(0.0E0,
    wilson_centre(CAST(k AS DOUBLE) / n, CAST(n AS DOUBLE)) - wilson_half(CAST(k AS DOUBLE) / n, CAST(n AS DOUBLE))), 4) END;
CREATE OR REPLACE MACRO wilson_high(k, n) AS
  CASE WHEN n = 0 THEN 1.0E0 ELSE ROUND(LEAST(1.0E0,
    wilson_centre(CAST(k AS DOUBLE) / n, CAST(n AS DOUBLE)) + wilson_half(CAST(k AS DOUBLE) / n, CAST(n AS DOUBLE))), 4) END;
CREATE OR REPLACE MACRO mean_of(total, n) AS
  CASE WHEN n = 0 THEN NULL ELSE ROUND(CAST(total AS DOUBLE) / n, 4) END;
