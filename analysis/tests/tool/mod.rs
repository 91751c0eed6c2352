//! What the batch tool's tests share: running `anqi`, and simulated logs to feed it.
#![allow(dead_code)] // each test file uses part of it

use std::path::{Path, PathBuf};
use std::process::Command;

/// Runs `anqi` with `args` (no `DATABASE_URL` from the environment): its exit code, and what
/// it wrote to standard output then standard error.
pub fn anqi(args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_anqi"))
        .args(args)
        .env_remove("DATABASE_URL")
        .output()
        .expect("run anqi");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap() + &String::from_utf8(out.stderr).unwrap(),
    )
}

/// Simulates one log per entry of `runs` (`anqi simulate`'s options) into `dir/logs/`, and
/// gives that directory.
pub fn simulated_logs(dir: &Path, runs: &[&[&str]]) -> PathBuf {
    let logs = dir.join("logs");
    std::fs::create_dir_all(&logs).unwrap();
    for (i, run) in runs.iter().enumerate() {
        let out = logs.join(format!("{i}.jsonl"));
        let mut args = vec!["simulate", "-o", out.to_str().unwrap()];
        args.extend_from_slice(run);
        let (code, text) = anqi(&args);
        assert_eq!(code, 0, "{text}");
    }
    logs
}

/// The rows of the table `name` in `section` of a report's stats.json (`tables`, the counts;
/// `players`, what is fitted from them), as column → value.
pub fn table_rows(
    stats: &serde_json::Value,
    section: &str,
    name: &str,
) -> Vec<serde_json::Map<String, serde_json::Value>> {
    let t = stats[section]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == name)
        .unwrap_or_else(|| panic!("no table {name} in {section}"));
    let columns: Vec<&str> = t["columns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap())
        .collect();
    t["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            columns
                .iter()
                .zip(r.as_array().unwrap())
                .map(|(c, v)| (c.to_string(), v.clone()))
                .collect()
        })
        .collect()
}

/// The Python the tests run: `ANQI_PYTHON`, else `python3`.
pub fn python() -> String {
    std::env::var("ANQI_PYTHON").unwrap_or_else(|_| "python3".to_owned())
}

/// Whether that Python imports `modules` (`"duckdb, pyspark"`); a skip when not, or, when the
/// environment sets `require` (CI), a failure that says what to install (`requirements`).
pub fn python_has(modules: &str, require: &str, requirements: &str) -> bool {
    let ok = Command::new(python())
        .args(["-c", &format!("import {modules}")])
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        assert!(
            std::env::var_os(require).is_none(),
            "{require} is set but {} cannot import {modules} (pip install -r {requirements})",
            python()
        );
        eprintln!("skipped: {} has no {modules}", python());
    }
    ok
}
