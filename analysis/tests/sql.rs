//! The report's statistics as SQL (analysis/sql), run by analysis/spark/anqi_sql.py on DuckDB
//! and on Spark (`local[*]`) over a dataset exported in two shares: every table equal to the
//! Polars report's (counts exactly, rates, intervals and means to 1e-9), and the shares'
//! results, their counts added, equal to the whole's.
//!
//! Needs a Python with `duckdb` and `pyspark` (analysis/spark/requirements.txt; `ANQI_PYTHON`,
//! else `python3`) and Java 17. Skipped without them, unless `ANQI_REQUIRE_SQL_ENGINES` is set
//! (CI), where it fails.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

mod tool;
use tool::{anqi, python};

/// Whether the runner's engines are there; a skip (or, under CI, a failure) when not.
fn engines_present() -> bool {
    tool::python_has(
        "duckdb, pyspark",
        "ANQI_REQUIRE_SQL_ENGINES",
        "analysis/spark/requirements.txt",
    )
}

fn run_sql(engine: &str, data: &Path, out: &Path) {
    let runner = concat!(env!("CARGO_MANIFEST_DIR"), "/spark/anqi_sql.py");
    let mut command = Command::new(python());
    command.args([
        runner,
        "--engine",
        engine,
        data.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    if engine == "spark" {
        command.args(["--master", "local[2]"]);
    }
    let output = command.output().expect("run anqi_sql.py");
    assert!(
        output.status.success(),
        "{engine}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
}

/// A table as CSV: its header, and its rows by their key columns' text.
struct Csv {
    columns: Vec<String>,
    rows: BTreeMap<Vec<String>, Vec<String>>,
}

fn read_csv(path: &Path, keys: usize) -> Csv {
    let mut reader = csv::Reader::from_path(path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    let columns = reader
        .headers()
        .unwrap()
        .iter()
        .map(str::to_owned)
        .collect();
    let mut rows = BTreeMap::new();
    for record in reader.records() {
        let record: Vec<String> = record.unwrap().iter().map(str::to_owned).collect();
        rows.insert(record[..keys].to_vec(), record[keys..].to_vec());
    }
    Csv { columns, rows }
}

/// Two cells the same: equal text, or numbers within 1e-9.
fn same(a: &str, b: &str) -> bool {
    a == b
        || matches!((a.parse::<f64>(), b.parse::<f64>()), (Ok(x), Ok(y)) if (x - y).abs() <= 1e-9)
}

/// The report's tables: name, its number of key columns, its count columns.
fn report_tables(report: &Path) -> Vec<(String, usize, Vec<String>)> {
    let stats: Value =
        serde_json::from_str(&std::fs::read_to_string(report.join("stats.json")).unwrap()).unwrap();
    stats["tables"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            (
                t["name"].as_str().unwrap().to_owned(),
                t["keys"].as_array().unwrap().len(),
                t["counts"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|c| c.as_str().unwrap().to_owned())
                    .collect(),
            )
        })
        .collect()
}

fn sql_tables() -> Vec<String> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/sql");
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter_map(|n| n.strip_suffix(".sql").map(str::to_owned))
        .collect();
    names.sort();
    names
}

#[test]
fn spark_and_duckdb_equal_the_polars_report() {
    if !engines_present() {
        return;
    }
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("anqi-sql");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    // Shares go by players: these pairs (bots' names) fall in both shares of two.
    let logs = tool::simulated_logs(
        &dir,
        &[
            &["--games", "800", "--seed", "1"],
            &["--games", "800", "--seed", "2", "--bot", "random,greedy"],
            &[
                "--games", "600", "--seed", "3", "--preset", "taiwan", "--bot", "greedy",
            ],
            &[
                "--games",
                "400",
                "--seed",
                "4",
                "--preset",
                "taiwan",
                "--bot",
                "random,search",
            ],
            &["--games", "300", "--seed", "5", "--game", "three-kingdoms"],
            &[
                "--games",
                "300",
                "--seed",
                "8",
                "--game",
                "three-kingdoms",
                "--bot",
                "greedy,random,random",
            ],
            &[
                "--games", "400", "--seed", "6", "--game", "luzhanqi", "--mode", "dark",
            ],
            &["--games", "400", "--seed", "7", "--game", "xiangqi-3g"],
        ],
    );
    let logs = logs.to_str().unwrap();
    let report = dir.join("report");
    let (code, text) = anqi(&["report", logs, "-o", report.to_str().unwrap()]);
    assert_eq!(code, 0, "{text}");
    // The dataset in two shares, in one directory (as on object storage) and apart.
    let (whole, part1, part2) = (dir.join("shares"), dir.join("part1"), dir.join("part2"));
    for (k, apart) in [("1/2", &part1), ("2/2", &part2)] {
        for to in [&whole, apart] {
            let (code, text) = anqi(&["export", logs, "-o", to.to_str().unwrap(), "--part", k]);
            assert_eq!(code, 0, "{text}");
        }
    }
    let results = |engine: &str, data: &PathBuf, name: &str| {
        let out = dir.join(format!("{engine}-{name}"));
        run_sql(engine, data, &out);
        out
    };
    let duckdb = results("duckdb", &whole, "whole");
    let spark = results("spark", &whole, "whole");
    let (duckdb1, duckdb2) = (
        results("duckdb", &part1, "part1"),
        results("duckdb", &part2, "part2"),
    );
    // The report drawn from Spark's tables: the same summary and tables, in the same order,
    // as the Polars report's (its page and charts are drawn from them).
    let drawn = dir.join("report-from-spark");
    let (code, text) = anqi(&[
        "report",
        "--from-tables",
        spark.to_str().unwrap(),
        "-o",
        drawn.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{text}");
    assert!(drawn.join("index.html").exists());
    let stats = |dir: &Path| -> Value {
        serde_json::from_str(&std::fs::read_to_string(dir.join("stats.json")).unwrap()).unwrap()
    };
    let (polars_stats, drawn_stats) = (stats(&report), stats(&drawn));
    assert_eq!(drawn_stats["summary"], polars_stats["summary"]);
    let order = |s: &Value| -> Vec<Value> {
        s["tables"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["name"].clone())
            .collect()
    };
    assert_eq!(order(&drawn_stats), order(&polars_stats));
    players_tables_equal(&report, &[("duckdb", &duckdb), ("spark", &spark)]);
    let tables = report_tables(&report);
    let sql = sql_tables();
    // Every table of the report has its SQL, and every SQL file is a table of the report.
    let mut names: Vec<String> = tables.iter().map(|(n, _, _)| n.clone()).collect();
    names.sort();
    assert_eq!(sql, names, "analysis/sql against the report's tables");
    for name in &sql {
        let (_, keys, counts) = tables
            .iter()
            .find(|(n, _, _)| n == name)
            .unwrap_or_else(|| panic!("{name}.sql: the report has no table {name}"));
        let polars = engines_equal(
            &report,
            &[("duckdb", &duckdb), ("spark", &spark)],
            name,
            *keys,
        );
        // The two shares' counts, added row by row (`max_` columns: the larger), are the
        // whole's: what `anqi report --merge` does, and a cluster's partial results too.
        // A share without the game of a table (shares go by players) has no such table.
        let share = |out: &PathBuf| {
            let path = out.join("tables").join(format!("{name}.csv"));
            if path.exists() {
                read_csv(&path, *keys)
            } else {
                Csv {
                    columns: Vec::new(),
                    rows: BTreeMap::new(),
                }
            }
        };
        let (a, b) = (share(&duckdb1), share(&duckdb2));
        let counts = &counts;
        for (key, expected) in &polars.rows {
            for (i, count) in counts.iter().enumerate() {
                let value = |t: &Csv| {
                    t.rows
                        .get(key)
                        .map_or(0.0, |r| r[i].parse::<f64>().unwrap_or(0.0))
                };
                let (x, y) = (value(&a), value(&b));
                let merged = if count.starts_with("max_") {
                    x.max(y)
                } else {
                    x + y
                };
                let whole: f64 = expected[i].parse().unwrap();
                assert!(
                    (merged - whole).abs() <= 1e-6,
                    "{name} {key:?} {count}: {x} + {y} vs {whole}"
                );
            }
        }
    }
}

/// The players' tables (`by_player`, `head_to_head`; the report derives them from the
/// `meetings` counts) and their SQL twins (analysis/sql/players/) are the same.
fn players_tables_equal(report: &Path, engines: &[(&str, &PathBuf)]) {
    let stats: Value =
        serde_json::from_str(&std::fs::read_to_string(report.join("stats.json")).unwrap()).unwrap();
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/sql/players");
    let mut sql: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| {
            let name = e.unwrap().file_name().to_string_lossy().into_owned();
            name.strip_suffix(".sql").map(str::to_owned)
        })
        .collect();
    sql.sort();
    assert_eq!(sql, ["by_player", "head_to_head"]);
    for name in &sql {
        let table = stats["players"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["name"] == name.as_str())
            .unwrap_or_else(|| panic!("the report has no players' table {name}"));
        let keys = table["keys"].as_array().unwrap().len();
        engines_equal(report, engines, name, keys);
    }
}

/// Table `name` of each engine's output equals the Polars report's, row by row; gives the
/// report's (it has rows).
fn engines_equal(report: &Path, engines: &[(&str, &PathBuf)], name: &str, keys: usize) -> Csv {
    let polars = read_csv(&report.join("tables").join(format!("{name}.csv")), keys);
    assert!(
        !polars.rows.is_empty(),
        "{name}: the test data gives it rows"
    );
    for (engine, out) in engines {
        let got = read_csv(&out.join("tables").join(format!("{name}.csv")), keys);
        assert_eq!(got.columns, polars.columns, "{engine} {name}");
        assert_eq!(
            got.rows.keys().collect::<Vec<_>>(),
            polars.rows.keys().collect::<Vec<_>>(),
            "{engine} {name}: the rows' keys"
        );
        for (key, expected) in &polars.rows {
            let row = &got.rows[key];
            for (i, (a, b)) in row.iter().zip(expected).enumerate() {
                assert!(
                    same(a, b),
                    "{engine} {name} {key:?} {}: {a} vs {b}",
                    polars.columns[keys + i]
                );
            }
        }
    }
    polars
}
